import assert from 'node:assert/strict';
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { WHOLE_TEXT_CHARS } from '../../../../src/core/chunked-text.js';
import { CmsError } from '../../../../src/core/errors.js';
import {
  SANITIZE_OFF_THREAD_CHARACTERS, sanitizePostHtmlWhereCheapest, sanitizeTitleHtmlWhereCheapest,
} from '../../../../src/content/render/pool/jobs.js';
import { sanitizePostHtml, sanitizeTitleHtml } from '../../../../src/format/kses/sanitize.js';
import { MAX_NESTING_DEPTH } from '../../../../src/format/kses/nesting.js';
import { phpTrim } from '../../../../src/format/php.js';
import { makeSite } from '../../posts/helpers.js';
import { longestGap } from '../../../helpers/event-loop.js';

/** What authors send, friendly and hostile: block delimiters, styles, bad protocols, entities, control characters. */
const SHAPES = [
  '<!-- wp:paragraph {"align":"center"} -->\n<p class="has-text-align-center">Some <b>bold</b> &amp; a <a href="http://example.test/">link</a>.</p>\n<!-- /wp:paragraph -->\n',
  '<p style="color:red;position:fixed;background:url(javascript:x)">x & y <script>alert(1)</script></p>\n',
  '<a href="javascript:alert(1)" title="t" onclick="x()">x</a><img src="data:text/html,x" onerror=1 alt="a>b">\u0001\n',
  '<!-- a comment <b>with markup</b> --><div title="q\'s">caf\u00e9 \u2019 \ud83d\ude00</div><iframe src="//evil.test"></iframe>\n',
  '<table><tr><td>cell<td>cell</table><ul><li>one<li>two</ul><svg><circle/></svg>&lt;not a tag&gt; 3 < 4 > 2\n',
];
const mixed = (characters: number) => SHAPES.join('').repeat(Math.ceil(characters / SHAPES.join('').length));
/** Unclosed elements far deeper than the nesting limit, then ordinary text. */
const deep = (characters: number) => `${'<div><span>'.repeat(MAX_NESTING_DEPTH * 4)}${mixed(characters)}`;

test('large HTML is sanitised on a worker thread to exactly what the main thread makes', async () => {
  // Past WHOLE_TEXT_CHARS the text goes to the worker, and comes back, as bytes (wide characters included).
  const inputs = [mixed(2 * SANITIZE_OFF_THREAD_CHARACTERS), deep(4 * SANITIZE_OFF_THREAD_CHARACTERS), mixed(WHOLE_TEXT_CHARS + 1000)];
  const lastSplitPair = `${'<p>\ud83d\ude00'.repeat(WHOLE_TEXT_CHARS / 3)}</p>`;
  inputs.push(lastSplitPair, `${'<b>a & b</b>'.repeat(WHOLE_TEXT_CHARS / 8)}<i>plain</i>`);
  const rules = [[sanitizePostHtmlWhereCheapest, sanitizePostHtml], [sanitizeTitleHtmlWhereCheapest, sanitizeTitleHtml]] as const;
  for (const [whereCheapest, inPlace] of rules) {
    for (const html of inputs.slice(0, whereCheapest === sanitizePostHtmlWhereCheapest ? undefined : 3)) {
      const offThread = whereCheapest(html);
      assert.ok(offThread instanceof Promise, `${html.length} characters are not sanitised in place`);
      const expected = inPlace(html);
      assert.ok(expected !== html, 'the input has something to remove');
      assert.ok(await offThread === expected, `${html.length} characters sanitise the same on both threads (${inPlace.name})`);
    }
    const small = mixed(SANITIZE_OFF_THREAD_CHARACTERS / 2);
    assert.equal(whereCheapest(small), inPlace(small), 'a small text is sanitised in place');
  }
});

test('an author\'s large post (title, content, excerpt) and autosave are stored sanitised while the event loop keeps turning', async () => {
  const site = await makeSite({ maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const author = site.as('author');
  const content = mixed(WHOLE_TEXT_CHARS / 2);
  const excerpt = deep(WHOLE_TEXT_CHARS / 4);
  // Past the size sanitised in place, within the most a title may hold.
  const title = mixed(2 * SANITIZE_OFF_THREAD_CHARACTERS);
  let created: Awaited<ReturnType<typeof author>> | undefined;
  const gap = await longestGap(async () => {
    created = await author('POST', '/cms/v2/posts', { json: { title, content, excerpt, status: 'publish' } });
  });
  assert.equal(created?.status, 201);
  const started = performance.now();
  const expected = { content: sanitizePostHtml(content), excerpt: sanitizePostHtml(excerpt), title: phpTrim(sanitizeTitleHtml(title)) };
  const inPlaceMs = performance.now() - started;
  const stored = await author('GET', `/cms/v2/posts/${created!.json.id}?context=edit`);
  assert.ok(stored.json.content.raw === expected.content, 'the content is stored as the main thread sanitises it');
  assert.ok(stored.json.excerpt.raw === expected.excerpt, 'the excerpt is stored as the main thread sanitises it');
  assert.ok(stored.json.title.raw === expected.title, 'the title is stored as the main thread sanitises it');
  // Sanitised in place, the write would hold the loop for at least the sanitising's time.
  assert.ok(gap < inPlaceMs / 2, `longest gap ${gap.toFixed(1)} ms, sanitising in place ${inPlaceMs.toFixed(1)} ms`);

  // An autosave of a published post is a revision of its own, sanitised the same way.
  const edited = mixed(WHOLE_TEXT_CHARS / 2 + 100);
  const autosave = await author('POST', `/cms/v2/posts/${created!.json.id}/autosaves`, { json: { content: edited } });
  assert.equal(autosave.status, 200);
  const saved = await author('GET', `/cms/v2/posts/${created!.json.id}/autosaves/${autosave.json.id}?context=edit`);
  assert.ok(saved.json.content.raw === sanitizePostHtml(edited), 'the autosave is stored as the main thread sanitises it');
});

test('a save finding the worker queue full is refused with 503 and Retry-After, and the post keeps its text', async () => {
  const html = mixed(SANITIZE_OFF_THREAD_CHARACTERS + 100);
  const expected = sanitizePostHtml(html);
  // More large texts at once than the pool's workers and queue hold.
  const outcomes = await Promise.allSettled(Array.from({ length: 48 }, () => sanitizePostHtmlWhereCheapest(html)));
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
  assert.ok(refused.length > 0 && refused.length < outcomes.length, `${refused.length} of ${outcomes.length} refused`);
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') {
      assert.ok(outcome.value === expected);
      continue;
    }
    const error = outcome.reason as CmsError;
    assert.ok(error instanceof CmsError);
    assert.equal(error.code, 'rest_render_busy');
    assert.equal(error.status, 503);
    assert.match(error.headers['Retry-After'] ?? '', /^[1-9]\d*$/);
  }

  const site = await makeSite();
  const author = site.as('author');
  const post = await site.create({ title: 'Kept', content: '<p>Kept.</p>', status: 'publish' }, { role: 'author' });
  // Texts that keep the queue full for a while (some tens of milliseconds each).
  const longer = mixed(8 * SANITIZE_OFF_THREAD_CHARACTERS);
  const busy = Array.from({ length: 48 }, () => sanitizePostHtmlWhereCheapest(longer));
  const update = await author('POST', `/cms/v2/posts/${post.id}`, { json: { content: html } });
  await Promise.allSettled(busy);
  assert.equal(update.status, 503);
  assert.equal(update.json.code, 'rest_render_busy');
  const kept = await author('GET', `/cms/v2/posts/${post.id}?context=edit`);
  assert.equal(kept.json.content.raw, '<p>Kept.</p>', 'a refused save changes nothing');
});
