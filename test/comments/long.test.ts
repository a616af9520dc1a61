import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SANITIZE_OFF_THREAD_CHARACTERS, sanitizeTitleHtmlWhereCheapest } from '../../src/content/render/pool/jobs.js';
import { addUserGeneratedRel, renderCommentText } from '../../src/comments/text.js';
import { sanitizePostHtml, sanitizeTitleHtml } from '../../src/format/kses/sanitize.js';
import { makeCommentSite } from './helpers.js';

/** Dense markup, kept, removed and rewritten, near the longest a comment may be (65,525 bytes). */
const SHAPES = '<a href="http://elsewhere.test/" title="t" onclick="x()">link</a> <q cite="javascript:x">q</q> <p class="c">p</p> & '
  + '<b>b</b> <script>alert(1)</script> http://bare.test/ :) "quoted" \u00e9\n';
// Without trailing white space: a comment is trimmed before it is sanitised.
const long = (characters: number) => SHAPES.repeat(Math.ceil(characters / SHAPES.length)).trimEnd();

test('long comments are stored as the main thread sanitises them, by a visitor, an author and an editor', async () => {
  const site = await makeCommentSite('memory', { comments: { allowAnonymous: true, maxLinks: 0, approveKnownAuthors: false } });
  const post = await site.create({ title: 'Discussed', status: 'publish' });
  const content = long(60_000);
  assert.ok(content.length > SANITIZE_OFF_THREAD_CHARACTERS && Buffer.byteLength(content) <= 65_525);
  const expected = {
    filtered: addUserGeneratedRel(sanitizeTitleHtml(content), 'http://example.test'),
    unfiltered: addUserGeneratedRel(sanitizePostHtml(content), 'http://example.test'),
  };
  assert.ok(expected.filtered !== content && expected.unfiltered !== content, 'the comment has something to remove');
  const writers = [[null, 'filtered'], ['author', 'filtered'], ['editor', 'unfiltered']] as const;
  for (const [role, rules] of writers) {
    const visitor = role === null ? { author_name: 'Visitor', author_email: 'visitor@example.test' } : {};
    const created = await site.comment({ post: post.id, content, ...visitor }, role);
    const read = await site.as('administrator')('GET', `/cms/v2/comments/${created.id}?context=edit`);
    assert.ok(read.json.content.raw === expected[rules], `${role ?? 'a visitor'}: stored as the main thread sanitises it`);
    assert.ok(read.json.content.rendered === renderCommentText(expected[rules]), `${role ?? 'a visitor'}: rendered from the stored text`);
  }
  // An update is sanitised the same way (by the comment's author's rules: an author may not post unfiltered HTML).
  const first = await site.comment({ post: post.id, content: 'Short' }, 'author');
  const updated = await site.as('administrator')('POST', `/cms/v2/comments/${first.id}`, { json: { content } });
  assert.equal(updated.status, 200);
  assert.ok(updated.json.content.raw === expected.filtered);
  // A page of long comments reads the same as each comment alone.
  const page = await site.as(null)('GET', `/cms/v2/comments?post=${post.id}&per_page=100`);
  assert.equal(page.json.length, 4);
  for (const item of page.json) {
    const alone = await site.as(null)('GET', `/cms/v2/comments/${item.id}`);
    assert.deepEqual(item, alone.json);
  }
});

test('a comment finding the worker queue full is refused with 503 and Retry-After, and nothing is stored', async () => {
  const site = await makeCommentSite('memory');
  const post = await site.create({ title: 'Discussed', status: 'publish' });
  // Texts that keep the queue full for a while (some tens of milliseconds each).
  const busy = Array.from({ length: 48 }, () => sanitizeTitleHtmlWhereCheapest(long(8 * SANITIZE_OFF_THREAD_CHARACTERS)));
  const refused = await site.as('author')('POST', '/cms/v2/comments', { json: { post: post.id, content: long(SANITIZE_OFF_THREAD_CHARACTERS + 100) } });
  await Promise.allSettled(busy);
  assert.equal(refused.status, 503);
  assert.equal(refused.json.code, 'rest_render_busy');
  assert.match(refused.headers['Retry-After'] ?? refused.headers['retry-after'] ?? '', /^[1-9]\d*$/);
  const list = await site.as('administrator')('GET', `/cms/v2/comments?post=${post.id}&status=all`);
  assert.equal(list.json.length, 0, 'nothing was stored');
});
