import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCms } from '../../src/cms.js';
import { WHOLE_TEXT_CHARS } from '../../src/core/chunked-text.js';
import { escapeHtml } from '../../src/format/entities.js';
import { stripAllTags } from '../../src/format/strip-tags.js';
import { MAX_SETTING_LENGTH } from '../../src/settings/definitions.js';
import { longestTurnCpu } from '../helpers/event-loop.js';
import { send } from '../helpers/request.js';

async function settingsSite() {
  const cms = createCms({ site: { url: 'http://example.test' }, maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
  return (method: string, path: string, json?: unknown) => send(cms, method, path, { json, user: { id: admin.id } });
}

const tooLong = (field: string) => {
  const message = `${field} must be at most ${MAX_SETTING_LENGTH.toLocaleString('en-US')} characters long.`;
  return {
    code: 'rest_invalid_param', message: `Invalid parameter(s): ${field}`,
    data: { status: 400, params: { [field]: message }, details: { [field]: { code: 'rest_too_long', message, data: null } } },
  };
};

test('text settings up to the limit are stored as they are cleaned today', async () => {
  const request = await settingsSite();
  // Characters, not UTF-16 units: an emoji counts once.
  const opening = '"Fish" & <b>chips</b> ';
  const text = opening + '\ud83d\ude00'.repeat(MAX_SETTING_LENGTH - opening.length);
  const updated = await request('POST', '/cms/v2/settings', { title: text, description: text, date_format: text });
  assert.equal(updated.status, 200, JSON.stringify(updated.json).slice(0, 300));
  assert.equal(updated.json.title, escapeHtml(text));
  assert.equal(updated.json.description, escapeHtml(text));
  assert.equal(updated.json.date_format, stripAllTags(text));
});

test('a text setting over the limit is refused before it is cleaned, and nothing is stored', async () => {
  const request = await settingsSite();
  const before = (await request('GET', '/cms/v2/settings')).json;
  const long = '"1\' <b>'.repeat(WHOLE_TEXT_CHARS / 2);
  const escapingMs = await longestTurnCpu(async () => escapeHtml(long));
  for (const field of ['title', 'description', 'date_format', 'time_format', 'url', 'email', 'timezone', 'default_post_format']) {
    let refused: Awaited<ReturnType<typeof request>> | undefined;
    // The body as read off the wire, encoded before the measured request.
    const body = JSON.stringify({ [field]: long, posts_per_page: 3 });
    const turnCpu = await longestTurnCpu(async () => {
      refused = await request('POST', '/cms/v2/settings', body);
    });
    assert.deepEqual(refused!.json, tooLong(field), field);
    assert.ok(turnCpu < escapingMs / 2, `${field}: longest turn ${turnCpu.toFixed(1)} ms of CPU, escaping the text ${escapingMs.toFixed(1)} ms`);
  }
  assert.deepEqual((await request('POST', '/cms/v2/settings', { title: 'x'.repeat(MAX_SETTING_LENGTH + 1) })).json, tooLong('title'));
  assert.deepEqual((await request('GET', '/cms/v2/settings')).json, before, 'nothing was stored');
});
