import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WHOLE_TEXT_CHARS } from '../../src/core/chunked-text.js';
import { sanitizeTextField } from '../../src/format/text.js';
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
