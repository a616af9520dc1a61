import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WHOLE_TEXT_CHARS } from '../../src/core/chunked-text.js';
import { sanitizeTextField } from '../../src/format/text.js';
import { MAX_TITLE_BYTES } from '../../src/content/post-type/args.js';
import { renderTitle } from '../../src/content/render/title.js';
import { sanitizeTitle } from '../../src/format/slug.js';
import { MAX_ALT_TEXT_LENGTH } from '../../src/media/args.js';
import { longestTurnCpu } from '../helpers/event-loop.js';
import { send } from '../helpers/request.js';
import { makeMediaSite, png, quarters, uploadRaw } from './helpers.js';

test(`an alternative text over ${MAX_ALT_TEXT_LENGTH.toLocaleString('en-US')} characters is refused before it is cleaned, and changes nothing`, async () => {
  const site = await makeMediaSite({ maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const uploaded = await uploadRaw(site, { name: 'a.png', type: 'image/png', bytes: png(quarters(8, 8)) });
  assert.equal(uploaded.status, 201);
  const path = `/cms/v2/media/${uploaded.json.id}`;
  const edit = (body: string) => send(site.cms, 'POST', path, { json: body, user: { id: site.ids.administrator } });
  const json = (answer: Awaited<ReturnType<typeof edit>>) => answer.json;

  // At the limit (characters, not UTF-16 units: an emoji counts once), stored as it is cleaned today.
  const atLimit = `Fish & <b>chips</b> ${'\ud83d\ude00'.repeat(MAX_ALT_TEXT_LENGTH - 20)}`;
  const accepted = await edit(JSON.stringify({ alt_text: atLimit }));
  assert.equal(accepted.status, 200);
  assert.equal(json(accepted).alt_text, sanitizeTextField(atLimit));

  const message = `alt_text must be at most ${MAX_ALT_TEXT_LENGTH.toLocaleString('en-US')} characters long.`;
  const error = {
    code: 'rest_invalid_param', message: 'Invalid parameter(s): alt_text',
    data: { status: 400, params: { alt_text: message }, details: { alt_text: { code: 'rest_too_long', message, data: null } } },
  };
  const long = 'a & b < c '.repeat(WHOLE_TEXT_CHARS / 10);
  const body = JSON.stringify({ alt_text: long });
  let refused: Awaited<ReturnType<typeof edit>> | undefined;
  const turnCpu = await longestTurnCpu(async () => {
    refused = await edit(body);
  });
  assert.deepEqual(json(refused!), error);
  const cleaningMs = await longestTurnCpu(async () => sanitizeTextField(long));
  assert.ok(turnCpu < cleaningMs / 2, `longest turn ${turnCpu.toFixed(1)} ms of CPU, cleaning the text ${cleaningMs.toFixed(1)} ms`);
  assert.deepEqual(json(await edit(JSON.stringify({ alt_text: '\ud83d\ude00'.repeat(MAX_ALT_TEXT_LENGTH + 1) }))), error);
  const kept = await send(site.cms, 'GET', path);
  assert.equal(json(kept).alt_text, sanitizeTextField(atLimit), 'the refused edits changed nothing');
});

test(`a title or slug over ${MAX_TITLE_BYTES.toLocaleString('en-US')} bytes is refused before it is sanitised, and changes nothing`, async () => {
  const site = await makeMediaSite({ maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const uploaded = await uploadRaw(site, { name: 'a.png', type: 'image/png', bytes: png(quarters(8, 8)) }, { role: 'author' });
  const media = `/cms/v2/media/${uploaded.json.id}`;
  const author = (method: string, path: string, body?: string) => send(site.cms, method, path, { ...(body === undefined ? {} : { json: body }), user: { id: site.ids.author } });
  // At the limit: 21,845 three-byte characters.
  const atLimit = '\u2019'.repeat(MAX_TITLE_BYTES / 3);
  const accepted = await author('POST', `${media}?context=edit`, JSON.stringify({ title: { raw: atLimit } }));
  assert.equal(accepted.status, 200);
  assert.equal(accepted.json.title.raw, atLimit);
  const before = (await author('GET', `${media}?context=edit`)).json;

  const long = 'a & b < c '.repeat(WHOLE_TEXT_CHARS * 0.8);
  // What a stored title costs the main thread: its slug, and its rendering on every first read.
  const slugMs = await longestTurnCpu(async () => [sanitizeTitle(long), renderTitle(long, {})]);
  for (const [field, value] of [['title', long], ['title', { raw: long }], ['slug', long], ['title', `${atLimit}a`]] as const) {
    const message = `${field} must be at most ${MAX_TITLE_BYTES.toLocaleString('en-US')} bytes long.`;
    const error = {
      code: 'rest_invalid_param', message: `Invalid parameter(s): ${field}`,
      data: { status: 400, params: { [field]: message }, details: { [field]: { code: 'rest_too_long', message, data: null } } },
    };
    const body = JSON.stringify({ [field]: value, status: 'publish' });
    let refused: Awaited<ReturnType<typeof author>> | undefined;
    const turnCpu = await longestTurnCpu(async () => {
      refused = await author('POST', media, body);
    });
    assert.deepEqual(refused!.json, error);
    assert.ok(turnCpu < slugMs / 2, `${field}: longest turn ${turnCpu.toFixed(1)} ms of CPU, making a slug of the text and rendering it ${slugMs.toFixed(1)} ms`);
    // Posts of every type share the rule.
    assert.deepEqual((await author('POST', '/cms/v2/posts', body)).json, error);
  }
  assert.deepEqual((await author('GET', `${media}?context=edit`)).json, before, 'the refused edits changed nothing');
  assert.equal((await author('GET', '/cms/v2/posts?status=publish,draft&context=edit')).json.length, 0, 'the refused creates stored nothing');
});
