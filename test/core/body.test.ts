import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJsonMediaType, parseBody } from '../../src/core/body.js';
import { MAX_FILE_UPLOADS, MAX_MULTIPART_PARTS } from '../../src/core/multipart.js';
import { MAX_INPUT_VARS } from '../../src/core/query.js';

const post = (body: string | Uint8Array) => ({ method: 'POST', path: '/', body });

/** A multipart body from [header lines, content] parts. */
function multipart(boundary: string, parts: [string[], string][], closed = true): string {
  const lines: string[] = [];
  for (const [headers, content] of parts) lines.push(`--${boundary}`, ...headers, '', content);
  if (closed) lines.push(`--${boundary}--`, '');
  return lines.join('\r\n');
}

const field = (name: string, value: string): [string[], string] => [[`Content-Disposition: form-data; name="${name}"`], value];
const file = (name: string, filename: string, content: string): [string[], string] =>
  [[`Content-Disposition: form-data; name="${name}"; filename="${filename}"`, 'Content-Type: text/plain'], content];

describe('body parsing', () => {
  it('recognises JSON-like media types', () => {
    for (const type of ['application/json', 'application/vnd.api+json', 'application/json+oembed']) assert.ok(isJsonMediaType(type), type);
    for (const type of ['text/json', 'application/jsonx', 'text/plain']) assert.ok(!isJsonMediaType(type), type);
  });

  it('reports JSON errors with the reference codes', async () => {
    // Checked against PHP 8.2's json_decode($body, true): its 512th open bracket is the depth error, and the
    // first error in the text wins.
    const cases: [string | Uint8Array, number][] = [
      ['{"a":', 4],
      ['{"a":"\u0001"}', 3],
      [new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]), 5],
      ['"\\ud800"', 10],
      ['['.repeat(600) + ']'.repeat(600), 1],
      ['['.repeat(512) + ']'.repeat(512), 1],
      ['['.repeat(512) + 'tru', 1],
      ['['.repeat(511) + 'tru', 4],
      ['{"a":'.repeat(513) + '1' + '}'.repeat(513), 1],
      ['{"a":tru,' + '['.repeat(600), 4],
      ['["\\ud800",' + '['.repeat(600), 10],
      ['{' + '{'.repeat(600), 4],
      ['{"x":"[[[[' + '['.repeat(600) + '"}', 0],
    ];
    for (const [body, code] of cases) {
      const parsed = await parseBody(post(body), 'application/json; charset=utf-8');
      assert.equal(parsed.jsonError?.extra.json_error_code ?? 0, code, String(body).slice(0, 20));
    }
    assert.equal((await parseBody(post('['.repeat(511) + ']'.repeat(511)), 'application/json')).jsonError, null);
    assert.equal((await parseBody(post('"\\ud83d\\ude00"'), 'application/json')).jsonError, null);
    assert.equal((await parseBody(post('0'), 'application/json')).json, undefined, 'a PHP-empty body is skipped');
  });

  it('gives JSON maps without a prototype and without keys that could reach one', async () => {
    const body = '{"__proto__":{"_method":"DELETE"},"meta":{"constructor":{"prototype":{"p":1}},"k":"v"},"list":[{"prototype":1,"a":2}]}';
    const { json } = await parseBody(post(body), 'application/json');
    assert.equal(Object.getPrototypeOf(json), null);
    assert.deepEqual(structuredClone(json), { meta: { k: 'v' }, list: [{ a: 2 }] });
    assert.equal(Object.getPrototypeOf((json as { meta: object }).meta), null);
    assert.equal(({} as Record<string, unknown>)._method, undefined);
  });

  it('parses urlencoded bodies PHP-style, and on non-POST methods only without or with that exact type', async () => {
    assert.deepEqual(structuredClone((await parseBody(post('a[]=1&a[]=2&b=x+y'), 'application/x-www-form-urlencoded; charset=UTF-8')).form), { a: ['1', '2'], b: 'x y' });
    assert.deepEqual(structuredClone((await parseBody({ method: 'PUT', path: '/', body: 'a=1' }, undefined)).form), { a: '1' });
    assert.deepEqual(structuredClone((await parseBody({ method: 'PUT', path: '/', body: 'a=1' }, 'text/plain')).form), {});
  });

  it('parses multipart fields and files on POST', async () => {
    const body = multipart('XyZ', [field('title', 'Hello'), field('tags[]', 'a'), file('file', 'a b.png', 'PNGDATA')]);
    const parsed = await parseBody(post(body), 'multipart/form-data; boundary=XyZ');
    assert.deepEqual(structuredClone(parsed.form), { title: 'Hello', tags: ['a'] });
    assert.equal(parsed.files.length, 1);
    assert.equal(parsed.files[0]!.filename, 'a b.png');
    assert.equal(parsed.files[0]!.contentType, 'text/plain');
    assert.equal(new TextDecoder().decode(parsed.files[0]!.bytes), 'PNGDATA');
  });

  it('answers a multipart body whose part header holds a bare line feed, however long the part', async () => {
    // The parser stopped reading such a part's data past 16 KiB, with no error, and the request never ended.
    for (const length of [3, 17_000, 70_000]) {
      const body = multipart('x', [[['Content-Disposition: form-data; name="\nv1"'], 'a'.repeat(length)], field('after', 'kept'), file('file', 'f.txt', 'FILE')]);
      const parsed = await parseBody(post(body), 'multipart/form-data; boundary=x');
      assert.equal(parsed.form.after, 'kept', `part of ${length} bytes`);
    }
    const large = multipart('x', [field('big', 'b'.repeat(3_000_000)), file('file', 'f.txt', 'c'.repeat(2_500_000))]);
    const parsed = await parseBody(post(large), 'multipart/form-data; boundary=x');
    assert.equal((parsed.form.big as string).length, 3_000_000, 'a large body is read whole, not taken for a stuck one');
    assert.equal(parsed.files[0]!.bytes.length, 2_500_000);
  });

  it('skips multipart parts without a name, text or file, instead of failing', async () => {
    const nameless: [string[], string] = [['Content-Disposition: form-data'], 'no name'];
    const namelessFile: [string[], string] = [['Content-Disposition: form-data; filename="x.txt"', 'Content-Type: text/plain'], 'data'];
    const body = multipart('b', [field('first', '1'), nameless, namelessFile, field('last', '2')]);
    const parsed = await parseBody(post(body), 'multipart/form-data; boundary=b');
    assert.deepEqual(structuredClone(parsed.form), { first: '1', last: '2' });
    assert.equal(parsed.files.length, 0);
  });

  it('reads multipart field names within the same limits, and keeps prototypes untouched', async () => {
    const deepName = `x${'[a]'.repeat(64000)}`;
    const parts = [field(deepName, '1'), field('__proto__[_method]', 'DELETE'), field('constructor[prototype][p]', '1'), field('ok[a]', '2')];
    const parsed = await parseBody(post(multipart('b', parts)), 'multipart/form-data; boundary=b');
    assert.deepEqual(structuredClone(parsed.form), { ok: { a: '2' } });
    assert.equal(Object.getPrototypeOf(parsed.form), null);
    assert.equal(({} as Record<string, unknown>)._method, undefined);
  });

  it(`keeps ${MAX_INPUT_VARS} multipart fields, ${MAX_FILE_UPLOADS} files and ${MAX_MULTIPART_PARTS} parts, dropping the rest`, async () => {
    const fields = (count: number) => Array.from({ length: count }, (_, index) => field(`f${index}`, 'v'));
    const files = (count: number) => Array.from({ length: count }, (_, index) => file(`u${index}`, `${index}.txt`, 'x'));
    const read = (parts: [string[], string][]) => parseBody(post(multipart('b', parts)), 'multipart/form-data; boundary=b');
    assert.equal(Object.keys((await read(fields(MAX_INPUT_VARS + 10))).form).length, MAX_INPUT_VARS);
    const uploads = await read(files(MAX_FILE_UPLOADS + 3));
    assert.deepEqual(uploads.files.map((entry) => entry.field), Array.from({ length: MAX_FILE_UPLOADS }, (_, index) => `u${index}`));
    // Dropped files still count as parts: 23 file parts leave room for 997 fields.
    const both = await read([...files(MAX_FILE_UPLOADS + 3), ...fields(MAX_INPUT_VARS)]);
    assert.equal(both.files.length, MAX_FILE_UPLOADS);
    assert.equal(Object.keys(both.form).length, MAX_MULTIPART_PARTS - MAX_FILE_UPLOADS - 3);
  });

  it('bounds part headers and keeps what was complete in a truncated body', async () => {
    const huge: [string[], string] = [['Content-Disposition: form-data; name="h"', ...Array.from({ length: 5000 }, (_, index) => `X-${index}: ${'y'.repeat(50)}`)], 'v'];
    const parsed = await parseBody(post(multipart('b', [huge, field('after', '1')])), 'multipart/form-data; boundary=b');
    assert.equal(parsed.form.after, '1');
    const cut = multipart('b', [field('done', '1'), file('f', 'f.txt', 'partial')], false).slice(0, -4);
    const truncated = await parseBody(post(cut), 'multipart/form-data; boundary=b');
    assert.equal(truncated.form.done, '1');
    assert.equal(truncated.files.length, 0);
  });

  it('refuses JSON, urlencoded and multipart text past the parsed-body limit, but not files', async () => {
    await assert.rejects(parseBody(post('{"a":"' + 'x'.repeat(100) + '"}'), 'application/json', 100), { code: 'rest_request_too_large', status: 413 });
    await assert.rejects(parseBody({ method: 'PUT', path: '/', body: 'a='.padEnd(101, 'x') }, undefined, 100), { code: 'rest_request_too_large' });
    const text = multipart('b', [field('a', 'x'.repeat(60)), field('b', 'y'.repeat(60))]);
    await assert.rejects(parseBody(post(text), 'multipart/form-data; boundary=b', 100), { code: 'rest_request_too_large' });
    const upload = await parseBody(post(multipart('b', [field('a', 'x'), file('f', 'f.txt', 'z'.repeat(500))])), 'multipart/form-data; boundary=b', 100);
    assert.equal(upload.files[0]!.bytes.length, 500);
    assert.equal(upload.form.a, 'x');
  });

  it('refuses a multipart body without a boundary', async () => {
    await assert.rejects(parseBody(post('x'), 'multipart/form-data'), { code: 'rest_invalid_multipart', status: 400 });
  });

  it('takes a body a framework already parsed, copied into safe maps', async () => {
    assert.deepEqual(structuredClone((await parseBody({ method: 'POST', path: '/', parsedBody: { a: 1 } }, 'application/json')).json), { a: 1 });
    assert.deepEqual(structuredClone((await parseBody({ method: 'POST', path: '/', parsedBody: { a: '1' } }, 'application/x-www-form-urlencoded')).form), { a: '1' });
    const hostile = JSON.parse('{"__proto__":{"x":1},"a":{"constructor":{"prototype":{"y":1}}}}') as unknown;
    const { json } = await parseBody({ method: 'POST', path: '/', parsedBody: hostile }, 'application/json');
    assert.deepEqual(structuredClone(json), { a: {} });
  });
});
