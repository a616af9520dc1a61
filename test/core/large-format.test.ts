import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EncodedJson } from '../../src/core/encode.js';
import { formattedLargeBody, reindented } from '../../src/core/large-format.js';
import { LARGE_JSON_CHARS } from '../../src/core/large-json.js';
import { formatBody } from '../../src/core/transport.js';

const query = (entries: Record<string, string>) => Object.assign(Object.create(null), entries);
const text = (bytes: Uint8Array | null) => new TextDecoder().decode(bytes!);
const filler = (characters: number) => 'Some "quoted" text, with [brackets] {braces}: commas, colons and \\ back\\slashes \u00e9\u{1F600} '.repeat(Math.ceil(characters / 80));

const values: Array<[string, unknown]> = [
  ['a large string', filler(LARGE_JSON_CHARS)],
  ['nested values with empty containers', {
    id: 7, empty: {}, none: [], nested: { list: [1, 2.5, -3e-7, true, false, null, [], {}, [[]], [{}], { a: [] }], deep: { deeper: { deepest: [{ x: '' }] } } },
    'key: with, [signs] {and} "quotes"': 'value', text: filler(LARGE_JSON_CHARS), after: [{}, [], ''],
  }],
  ['a list of records', Array.from({ length: 300 }, (_, index) => ({
    id: index, title: { rendered: `Post "${index}"` }, content: { rendered: filler(1200), protected: false }, tags: [], meta: {}, links: { self: [{ href: `/p/${index}` }] },
  }))],
];

test('_pretty on a large answer gives the bytes of JSON.stringify(value, null, 4), from a value or from encoded bytes', async () => {
  for (const [name, value] of values) {
    const expected = JSON.stringify(value, null, 4);
    assert.equal(text(await formattedLargeBody(value, query({ _pretty: '' }))), expected, name);
    const encoded = new EncodedJson(new TextEncoder().encode(JSON.stringify(value)));
    assert.equal(text(await formattedLargeBody(encoded, query({ _pretty: '1' }))), expected, `${name}, encoded`);
    assert.deepEqual(await formattedLargeBody(value, query({ _pretty: '' })), formatBody(value, query({ _pretty: '' })), `${name}: as formatBody makes it`);
  }
});

test('_jsonp on a large answer wraps the compact bytes as formatBody does', async () => {
  for (const [name, value] of values) {
    const expected = formatBody(value, query({ _jsonp: 'my.callback' }));
    assert.equal(text(await formattedLargeBody(value, query({ _jsonp: 'my.callback' }))), expected, name);
    const encoded = new EncodedJson(new TextEncoder().encode(JSON.stringify(value)));
    assert.equal(text(await formattedLargeBody(encoded, query({ _jsonp: 'my.callback', _pretty: '' }))), expected, `${name}, encoded: JSONP wins over _pretty`);
  }
});

test('small answers and answers without a switch are left to the one-call path', async () => {
  assert.equal(await formattedLargeBody({ id: 1 }, query({ _pretty: '' })), null);
  assert.equal(await formattedLargeBody(new EncodedJson(new TextEncoder().encode('{"id":1}')), query({ _jsonp: 'cb' })), null);
  assert.equal(await formattedLargeBody(values[1]![1], query({})), null);
  assert.equal(await formattedLargeBody(null, query({ _pretty: '' })), null);
});

test('re-indenting a large answer takes turns of the event loop', async () => {
  const value = Array.from({ length: 40 }, () => values[2]![1]);
  let turns = 0;
  const interval = setInterval(() => { turns += 1; }, 0);
  const encoded = new EncodedJson(new TextEncoder().encode(JSON.stringify(value)));
  const pretty = await formattedLargeBody(encoded, query({ _pretty: '' }));
  clearInterval(interval);
  assert.ok(pretty !== null && pretty.byteLength > 20 * 1024 * 1024);
  assert.ok(turns > 0, 'the loop turned');
});

test('a large post read with _pretty or _jsonp answers what the one-call path would', async () => {
  const { createCms, createMemoryStorage, encodeResponse } = await import('../../src/index.js');
  const cms = createCms({ storage: createMemoryStorage(), site: { url: 'http://example.test' } });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
  const created = await cms.handle({
    method: 'POST', path: '/cms/v2/posts', query: '', user: { id: admin.id }, headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Large', content: filler(2 * LARGE_JSON_CHARS), status: 'publish' }),
  });
  assert.equal(created.status, 201);
  const id = (created.body as { id: number }).id;
  const read = async (search: string) => encodeResponse(await cms.handle({ method: 'GET', path: `/cms/v2/posts/${id}`, query: search, headers: {} }));
  const plain = await read('');
  const value = JSON.parse(text(plain.body));
  assert.ok(plain.body!.byteLength > LARGE_JSON_CHARS);
  const pretty = await read('_pretty');
  assert.equal(pretty.status, 200);
  assert.equal(text(pretty.body), JSON.stringify(value, null, 4));
  const jsonp = await read('_jsonp=show');
  assert.equal(jsonp.headers['Content-Type'], 'application/javascript; charset=UTF-8');
  assert.equal(text(jsonp.body), `/**/show(${JSON.stringify(value)})`);
  const list = await read('');
  assert.deepEqual(list.body, plain.body, 'the plain answer is unchanged');
});

test('re-indenting gives JSON.stringify(value, null, 4) wherever the slices are cut', async () => {
  const value = { s: 'ab', id: 1, a: [], b: {}, c: 'x', d: [{}, [[]], 'q\\"', 'z', { e: [1, { f: {} }] }], 'g:,[]{}': '\u00e9\u{1F600}"', h: -1.5e-9, i: [true, false, null] };
  const compact = new TextEncoder().encode(JSON.stringify(value));
  for (let sliceBytes = 1; sliceBytes <= compact.byteLength + 1; sliceBytes += 1) {
    assert.equal(text(await reindented(compact, sliceBytes)), JSON.stringify(value, null, 4), `slices of ${sliceBytes} bytes`);
  }
});

test('a large answer printed pretty is kept with the tag of its bytes, and a caller changing its copy changes nothing kept', async () => {
  const { createCms, createMemoryStorage, encodeResponse } = await import('../../src/index.js');
  const { entityTag } = await import('../../src/core/cache/conditional.js');
  const cms = createCms({ storage: createMemoryStorage(), site: { url: 'http://example.test' } });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
  const created = await cms.handle({
    method: 'POST', path: '/cms/v2/posts', query: '', user: { id: admin.id }, headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Large', content: filler(2 * LARGE_JSON_CHARS), status: 'publish' }),
  });
  const id = (created.body as { id: number }).id;
  const read = () => cms.handle({ method: 'GET', path: `/cms/v2/posts/${id}`, query: '_pretty', headers: {} });
  const first = await read();
  const firstBytes = encodeResponse(first).body!;
  const original = Buffer.from(firstBytes).toString('utf8');
  assert.equal(first.headers.ETag, entityTag(firstBytes));
  const handed = first.body as Uint8Array;
  assert.ok(handed instanceof Uint8Array);
  handed.fill(0x20);
  const second = await read();
  assert.equal(second.headers.ETag, first.headers.ETag, 'answered from what was kept');
  assert.equal(Buffer.from(encodeResponse(second).body!).toString('utf8'), original);
  assert.equal(Buffer.from(second.body as Uint8Array).toString('utf8'), original);
});
