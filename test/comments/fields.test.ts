import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_SENT_AUTHOR_TEXT_LENGTH } from '../../src/comments/fields.js';
import { sanitizeTextField } from '../../src/format/text.js';
import { sanitizeUrl } from '../../src/format/url.js';
import { longestTurnCpu } from '../helpers/event-loop.js';
import { makeCommentSite } from './helpers.js';

const BIG = 16 * 2 ** 20;
const AUTHOR_FIELDS = ['author_name', 'author_email', 'author_url', 'author_user_agent', 'author_ip'];

const tooLong = (field: string) => {
  const message = `${field} must be at most ${MAX_SENT_AUTHOR_TEXT_LENGTH.toLocaleString('en-US')} characters long.`;
  return {
    code: 'rest_invalid_param', message: `Invalid parameter(s): ${field}`,
    data: { status: 400, params: { [field]: message }, details: { [field]: { code: 'rest_too_long', message, data: null } } },
  };
};

const visitor = { author_name: 'Visitor', author_email: 'visitor@example.test', author_url: 'http://visitor.test/' };

test(`an author's name, email, URL, user agent or address over ${MAX_SENT_AUTHOR_TEXT_LENGTH.toLocaleString('en-US')} characters is refused before it is cleaned, and stores nothing`, async () => {
  const site = await makeCommentSite('memory', {
    comments: { allowAnonymous: true, maxLinks: 0 }, maxParsedBodyBytes: 8 * BIG, maxAnonymousBodyBytes: 8 * BIG, maxBodyBytes: 8 * BIG,
  });
  const post = await site.create({ title: 'Discussed', status: 'publish' });
  const existing = await site.comment({ post: post.id, content: 'Edited later', ...visitor }, null);
  const long = 'a & b < c '.repeat(BIG / 10);
  const cleaningMs = await longestTurnCpu(async () => sanitizeUrl(long));
  const address = `${'a'.repeat(BIG)}@example.test`;
  for (const [field, text] of [...AUTHOR_FIELDS.map((name) => [name, long]), ['author_email', address]] as const) {
    for (const [label, send] of [
      ['a visitor\'s comment', () => site.anonymous('POST', '/cms/v2/comments', { json: JSON.stringify({ post: post.id, content: `About ${field}`, ...visitor, [field]: text }) })],
      ['a moderator\'s update', () => site.admin('POST', `/cms/v2/comments/${existing.id}`, { json: JSON.stringify({ [field]: text }) })],
    ] as const) {
      let refused: Awaited<ReturnType<typeof send>> | undefined;
      const turnCpu = await longestTurnCpu(async () => {
        refused = await send();
      });
      assert.deepEqual(refused!.json, tooLong(field), `${label}, ${field}`);
      assert.ok(turnCpu < cleaningMs / 2, `${label}, ${field}: longest turn ${turnCpu.toFixed(1)} ms of CPU, cleaning the text ${cleaningMs.toFixed(1)} ms`);
    }
  }
  const listed = await site.admin('GET', `/cms/v2/comments?post=${post.id}&status=all&context=edit`);
  assert.deepEqual(listed.json.map((comment: { id: number }) => comment.id), [existing.id], 'the refused comments stored nothing');
  assert.deepEqual(listed.json[0], (await site.admin('GET', `/cms/v2/comments/${existing.id}?context=edit`)).json);
  assert.equal(listed.json[0].author_name, 'Visitor', 'the refused updates changed nothing');
  const filtered = await site.admin('GET', `/cms/v2/comments?author_email=${'a'.repeat(MAX_SENT_AUTHOR_TEXT_LENGTH)}@example.test`);
  assert.deepEqual(filtered.json, tooLong('author_email'), 'a list filtered by such an address is refused too');
});

test('within the bound the reference\'s rules hold: texts are cleaned, then the column sizes apply', async () => {
  const site = await makeCommentSite('memory', { comments: { allowAnonymous: true, maxLinks: 0 } });
  const post = await site.create({ title: 'Discussed', status: 'publish' });
  // As long as may be sent, cleaned down to what the columns hold.
  const padded = `<b>Bob</b>${' '.repeat(MAX_SENT_AUTHOR_TEXT_LENGTH - 10)}`;
  const agent = `Mozilla/5.0 ${'x'.repeat(MAX_SENT_AUTHOR_TEXT_LENGTH - 12)}`;
  const created = await site.anonymous('POST', '/cms/v2/comments', {
    json: { post: post.id, content: 'Hello', ...visitor, author_name: padded, author_email: `  ${'\t'.repeat(MAX_SENT_AUTHOR_TEXT_LENGTH - 30)}v@example.test  `, author_user_agent: agent },
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const stored = (await site.admin('GET', `/cms/v2/comments/${created.json.id}?context=edit`)).json;
  assert.equal(stored.author_name, 'Bob');
  assert.equal(stored.author_email, 'v@example.test');
  assert.equal(stored.author_user_agent, sanitizeTextField(agent).slice(0, 254));
  const overColumn = await site.anonymous('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Hi', ...visitor, author_name: 'n'.repeat(MAX_SENT_AUTHOR_TEXT_LENGTH) } });
  assert.deepEqual([overColumn.status, overColumn.json.code], [400, 'comment_author_column_length']);
  const url = await site.anonymous('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Hey', ...visitor, author_url: `http://visitor.test/${'p'.repeat(200)}` } });
  assert.deepEqual([url.status, url.json.code], [400, 'comment_author_url_column_length']);
});

test('an update checks the column sizes on the fields as sent, before they are escaped, as a create does', async () => {
  const site = await makeCommentSite('memory');
  const post = await site.create({ title: 'Discussed', status: 'publish' });
  // 245 bytes as sent; escaped (`&amp;`) it would be 249.
  const name = `${'n'.repeat(244)}&`;
  const created = await site.comment({ post: post.id, content: 'First', author_name: name, author_email: 'v@example.test' });
  assert.equal(created.author_name, `${'n'.repeat(244)}&amp;`);
  const other = await site.comment({ post: post.id, content: 'Second', author_name: 'Sue', author_email: 'v@example.test' });
  const updated = await site.admin('POST', `/cms/v2/comments/${other.id}`, { json: { author_name: name } });
  assert.equal(updated.status, 200, JSON.stringify(updated.json));
  assert.equal(updated.json.author_name, created.author_name);
  const over = await site.admin('POST', `/cms/v2/comments/${other.id}`, { json: { author_name: `${name}n` } });
  assert.deepEqual([over.status, over.json.code], [400, 'comment_author_column_length']);
});

test('the route index shows the bound of each author text', async () => {
  const site = await makeCommentSite('memory');
  const index = await site.anonymous('GET', '/cms/v2');
  const [list, create] = index.json.routes['/cms/v2/comments'].endpoints;
  const [, update] = index.json.routes['/cms/v2/comments/(?P<id>[\\d]+)'].endpoints;
  assert.equal(list.args.author_email.maxLength, MAX_SENT_AUTHOR_TEXT_LENGTH);
  for (const field of AUTHOR_FIELDS) {
    assert.equal(create.args[field].maxLength, MAX_SENT_AUTHOR_TEXT_LENGTH, `create ${field}`);
    assert.equal(update.args[field].maxLength, MAX_SENT_AUTHOR_TEXT_LENGTH, `update ${field}`);
  }
});
