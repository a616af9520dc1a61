import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SANITIZE_OFF_THREAD_CHARACTERS, sanitizeTitleHtmlWhereCheapest } from '../../../src/content/render/pool/jobs.js';
import { insertTerm, MAX_TERM_NAME_LENGTH } from '../../../src/content/taxonomy/index.js';
import { WHOLE_TEXT_CHARS } from '../../../src/core/chunked-text.js';
import { isCmsError } from '../../../src/core/errors.js';
import { sanitizeTitleHtml } from '../../../src/format/kses/sanitize.js';
import { sanitizeTitle } from '../../../src/format/slug.js';
import { sanitizeTextField } from '../../../src/format/text.js';
import { longestTurnCpu } from '../../helpers/event-loop.js';
import { makeSite } from '../posts/helpers.js';

/** Markup an editor may send: kept, removed and rewritten parts. */
const SHAPES = '<p class="x">Fish &amp; <b>chips</b> & <script>alert(1)</script><a href="javascript:x()" title="t">x</a>'
  + '<!-- a <b>comment</b> --> caf\u00e9 \ud83d\ude00</p>\n';
const markup = (characters: number) => SHAPES.repeat(Math.ceil(characters / SHAPES.length));

test('a long term description is stored as the main thread sanitises it, while the event loop keeps turning', async () => {
  const site = await makeSite({ maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const editor = site.as('editor');
  const description = markup(WHOLE_TEXT_CHARS / 2);
  let created: Awaited<ReturnType<typeof editor>> | undefined;
  const turnCpu = await longestTurnCpu(async () => {
    created = await editor('POST', '/cms/v2/categories', { json: { name: 'Long', description } });
  });
  assert.equal(created?.status, 201);
  let expected = '';
  const inPlaceMs = await longestTurnCpu(async () => {
    expected = sanitizeTitleHtml(description);
  });
  assert.ok(expected !== description, 'the description has something to remove');
  assert.ok(created!.json.description === expected, 'the description is stored as the main thread sanitises it');
  assert.ok(turnCpu < inPlaceMs / 2, `longest turn ${turnCpu.toFixed(1)} ms of CPU, sanitising in place ${inPlaceMs.toFixed(1)} ms`);

  // An update too, and a tag's description; a short one is sanitised in place, the same way.
  const edited = markup(SANITIZE_OFF_THREAD_CHARACTERS + 100);
  const updated = await editor('POST', `/cms/v2/categories/${created!.json.id}`, { json: { description: edited } });
  assert.equal(updated.status, 200);
  assert.ok(updated.json.description === sanitizeTitleHtml(edited));
  for (const text of [edited, SHAPES]) {
    const tag = await editor('POST', '/cms/v2/tags', { json: { name: `Tag ${text.length}`, description: text } });
    assert.equal(tag.status, 201);
    assert.ok(tag.json.description === sanitizeTitleHtml(text));
  }
});

test(`a term name over ${MAX_TERM_NAME_LENGTH} characters is refused before it is cleaned, and stores nothing`, async () => {
  const site = await makeSite({ maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const editor = site.as('editor');
  const error = {
    code: 'rest_invalid_param', message: 'Invalid parameter(s): name',
    data: {
      status: 400, params: { name: `name must be at most ${MAX_TERM_NAME_LENGTH} characters long.` },
      details: { name: { code: 'rest_too_long', message: `name must be at most ${MAX_TERM_NAME_LENGTH} characters long.`, data: null } },
    },
  };
  // Characters, not UTF-16 units: an emoji counts once.
  const atLimit = await editor('POST', '/cms/v2/categories', { json: { name: '\ud83d\ude00'.repeat(MAX_TERM_NAME_LENGTH) } });
  assert.equal(atLimit.status, 201);
  const before = (await editor('GET', '/cms/v2/categories?per_page=100')).json.length;

  const long = 'a & b < c '.repeat(WHOLE_TEXT_CHARS / 10);
  let refused: Awaited<ReturnType<typeof editor>> | undefined;
  const turnCpu = await longestTurnCpu(async () => {
    refused = await editor('POST', '/cms/v2/categories', { json: { name: long } });
  });
  assert.equal(refused?.status, 400);
  assert.deepEqual(refused!.json, error);
  const cleaningMs = await longestTurnCpu(async () => sanitizeTextField(long));
  assert.ok(turnCpu < cleaningMs / 2, `longest turn ${turnCpu.toFixed(1)} ms of CPU, cleaning the name ${cleaningMs.toFixed(1)} ms`);

  for (const name of ['\ud83d\ude00'.repeat(MAX_TERM_NAME_LENGTH + 1), 'x'.repeat(MAX_TERM_NAME_LENGTH + 1)]) {
    assert.deepEqual((await editor('POST', '/cms/v2/tags', { json: { name } })).json, error);
    assert.deepEqual((await editor('POST', `/cms/v2/categories/${atLimit.json.id}`, { json: { name } })).json, error);
  }
  assert.equal((await editor('GET', '/cms/v2/categories?per_page=100')).json.length, before, 'nothing was stored');
  assert.equal((await editor('GET', '/cms/v2/tags')).json.length, 0, 'nothing was stored');
  const kept = await editor('GET', `/cms/v2/categories/${atLimit.json.id}`);
  assert.equal(kept.json.name, '\ud83d\ude00'.repeat(MAX_TERM_NAME_LENGTH), 'the refused update changed nothing');
});

test('a term name over the limit that comes by another way than a request (an import) is refused too', async () => {
  const site = await makeSite();
  await assert.rejects(insertTerm(site.cms.deps.storage, 'post_tag', { name: 'x'.repeat(MAX_TERM_NAME_LENGTH + 1) }), (error) => {
    assert.ok(isCmsError(error));
    assert.equal(error.code, 'rest_invalid_param');
    assert.equal(error.status, 400);
    return true;
  });
  const stored = await insertTerm(site.cms.deps.storage, 'post_tag', { name: 'y'.repeat(MAX_TERM_NAME_LENGTH) });
  assert.equal(stored.name, 'y'.repeat(MAX_TERM_NAME_LENGTH));
});

test('a term save finding the worker queue full is refused with 503 and Retry-After, and the term keeps its description', async () => {
  const site = await makeSite();
  const editor = site.as('editor');
  const created = await editor('POST', '/cms/v2/categories', { json: { name: 'Kept', description: '<b>Kept.</b>' } });
  const path = `/cms/v2/categories/${created.json.id}`;
  const before = (await editor('GET', '/cms/v2/categories?per_page=100')).json.length;
  // Texts that keep the queue full for a while (some tens of milliseconds each).
  const busy = Array.from({ length: 48 }, () => sanitizeTitleHtmlWhereCheapest(markup(8 * SANITIZE_OFF_THREAD_CHARACTERS)));
  const long = markup(SANITIZE_OFF_THREAD_CHARACTERS + 100);
  const update = await editor('POST', path, { json: { description: long } });
  const create = await editor('POST', '/cms/v2/categories', { json: { name: 'New', description: long } });
  await Promise.allSettled(busy);
  for (const answer of [update, create]) {
    assert.equal(answer.status, 503);
    assert.equal(answer.json.code, 'rest_render_busy');
    assert.match(answer.headers['Retry-After'] ?? answer.headers['retry-after'] ?? '', /^[1-9]\d*$/);
  }
  assert.equal((await editor('GET', path)).json.description, '<b>Kept.</b>', 'a refused save changes nothing');
  assert.equal((await editor('GET', '/cms/v2/categories?per_page=100')).json.length, before, 'a refused create stores nothing');
});

test(`a term slug over ${MAX_TERM_NAME_LENGTH} characters is refused before it is cleaned, and stores nothing`, async () => {
  const site = await makeSite({ maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const editor = site.as('editor');
  const message = `slug must be at most ${MAX_TERM_NAME_LENGTH} characters long.`;
  const error = {
    code: 'rest_invalid_param', message: 'Invalid parameter(s): slug',
    data: { status: 400, params: { slug: message }, details: { slug: { code: 'rest_too_long', message, data: null } } },
  };
  const created = await editor('POST', '/cms/v2/tags', { json: { name: 'Kept', slug: 'k'.repeat(MAX_TERM_NAME_LENGTH) } });
  assert.equal(created.json.slug, 'k'.repeat(MAX_TERM_NAME_LENGTH));
  const long = '<p>Some <b>bold</b> words and <a href="http://example.test/">a link</a>.</p>\n'.repeat(WHOLE_TEXT_CHARS / 8);
  const cleaningMs = await longestTurnCpu(async () => sanitizeTitle(long));
  const body = JSON.stringify({ name: 'Long', slug: long });
  let refused: Awaited<ReturnType<typeof editor>> | undefined;
  const turnCpu = await longestTurnCpu(async () => {
    refused = await editor('POST', '/cms/v2/tags', { json: body });
  });
  assert.deepEqual(refused!.json, error);
  assert.ok(turnCpu < cleaningMs / 2, `longest turn ${turnCpu.toFixed(1)} ms of CPU, cleaning the slug ${cleaningMs.toFixed(1)} ms`);
  assert.deepEqual((await editor('POST', `/cms/v2/tags/${created.json.id}`, { json: { slug: 'x'.repeat(MAX_TERM_NAME_LENGTH + 1) } })).json, error);
  await assert.rejects(insertTerm(site.cms.deps.storage, 'post_tag', { name: 'Imported', slug: 'x'.repeat(MAX_TERM_NAME_LENGTH + 1) }), /Invalid parameter\(s\): slug/);
  const tags = (await editor('GET', '/cms/v2/tags')).json;
  assert.deepEqual(tags.map((tag: { slug: string }) => tag.slug), ['k'.repeat(MAX_TERM_NAME_LENGTH)], 'nothing was stored or changed');
});
