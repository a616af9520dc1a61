import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJsonMediaType, parseBody } from '../../src/core/body.js';

const post = (body: string | Uint8Array) => ({ method: 'POST', path: '/', body });

describe('body parsing', () => {
  it('recognises JSON-like media types', () => {
    for (const type of ['application/json', 'application/vnd.api+json', 'application/json+oembed']) assert.ok(isJsonMediaType(type), type);
    for (const type of ['text/json', 'application/jsonx', 'text/plain']) assert.ok(!isJsonMediaType(type), type);
  });

  it('reports JSON errors with the reference codes', () => {
    const cases: [string | Uint8Array, number][] = [
      ['{"a":', 4],
      ['{"a":"\u0001"}', 3],
      [new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]), 5],
      ['"\\ud800"', 10],
      ['['.repeat(600) + ']'.repeat(600), 1],
    ];
    for (const [body, code] of cases) {
      const parsed = parseBody(post(body), 'application/json; charset=utf-8');
      assert.equal(parsed.jsonError?.extra.json_error_code, code, String(body).slice(0, 20));
    }
    assert.equal(parseBody(post('"\\ud83d\\ude00"'), 'application/json').jsonError, null);
    assert.equal(parseBody(post('0'), 'application/json').json, undefined, 'a PHP-empty body is skipped');
  });

  it('parses urlencoded bodies PHP-style, and on non-POST methods only without or with that exact type', () => {
    assert.deepEqual(parseBody(post('a[]=1&a[]=2&b=x+y'), 'application/x-www-form-urlencoded; charset=UTF-8').form, { a: ['1', '2'], b: 'x y' });
    assert.deepEqual(parseBody({ method: 'PUT', path: '/', body: 'a=1' }, undefined).form, { a: '1' });
    assert.deepEqual(parseBody({ method: 'PUT', path: '/', body: 'a=1' }, 'text/plain').form, {});
  });

  it('parses multipart fields and files on POST', () => {
    const boundary = 'XyZ';
    const body = [
      `--${boundary}`, 'Content-Disposition: form-data; name="title"', '', 'Hello', 
      `--${boundary}`, 'Content-Disposition: form-data; name="tags[]"', '', 'a',
      `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="a b.png"', 'Content-Type: image/png', '', 'PNGDATA',
      `--${boundary}--`, '',
    ].join('\r\n');
    const parsed = parseBody(post(body), `multipart/form-data; boundary=${boundary}`);
    assert.deepEqual(parsed.form, { title: 'Hello', tags: ['a'] });
    assert.equal(parsed.files.length, 1);
    assert.equal(parsed.files[0]!.filename, 'a b.png');
    assert.equal(parsed.files[0]!.contentType, 'image/png');
    assert.equal(new TextDecoder().decode(parsed.files[0]!.bytes), 'PNGDATA');
  });

  it('takes a body a framework already parsed', () => {
    assert.deepEqual(parseBody({ method: 'POST', path: '/', parsedBody: { a: 1 } }, 'application/json').json, { a: 1 });
    assert.deepEqual(parseBody({ method: 'POST', path: '/', parsedBody: { a: '1' } }, 'application/x-www-form-urlencoded').form, { a: '1' });
  });
});
