import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entityTag } from '../../src/core/cache/conditional.js';
import { createHash } from 'node:crypto';
import { ChunkedText } from '../../src/core/chunked-text.js';
import { encodedIfLarge, encodeLargeJson, entityTagInTurns, isLargeJson, jsonDigestInTurns, LARGE_JSON_CHARS } from '../../src/core/large-json.js';
import { EncodedJson } from '../../src/core/encode.js';

const decoder = new TextDecoder();

describe('large JSON answers encoded in turns', () => {
  it('gives the bytes of JSON.stringify and their entity tag', async () => {
    const surrogates = '😀'.repeat(40_000);
    const values: unknown[] = [
      { id: 1, content: { rendered: '<p>&#8220;quoted&#8221;</p>\n'.repeat(30_000), protected: false }, meta: { a: undefined, f: () => 1 } },
      // A pair of surrogates falls on every place a slice could end.
      { text: `x${surrogates}`, other: `${surrogates}y`, lone: '\ud800'.repeat(140_000) },
      Array.from({ length: 30_000 }, (_, index) => ({ index, name: `item ${index}`, skip: undefined, list: [undefined, null, index] })),
      { date: new Date(0), nested: [{ deep: { deeper: ['"\\\u0001'.repeat(100_000)] } }], encoded: new EncodedJson(new TextEncoder().encode('[1]')) },
      'z'.repeat(LARGE_JSON_CHARS),
    ];
    for (const value of values) {
      assert.ok(isLargeJson(value));
      const encoded = await encodeLargeJson(value);
      const expected = JSON.stringify(value);
      assert.ok(encoded);
      assert.equal(decoder.decode(encoded.bytes), expected);
      assert.equal(encoded.etag, entityTag(new TextEncoder().encode(expected)));
    }
  });

  it('encodes chunked texts as the strings they stand for', async () => {
    const chunks = ['<p>&#8220;"a"\n', '\u0001\ud83d\ude00'.repeat(50_000), 'b\\'.repeat(100_000), '', '\u2019</p>'];
    const value = { content: { raw: 'x', rendered: new ChunkedText(chunks) }, list: [new ChunkedText(['a', 'b'])] };
    const plain = { content: { raw: 'x', rendered: chunks.join('') }, list: ['ab'] };
    assert.ok(isLargeJson(value));
    assert.ok(isLargeJson(new ChunkedText(['y'.repeat(LARGE_JSON_CHARS)])));
    const encoded = await encodeLargeJson(value);
    assert.ok(encoded);
    assert.equal(decoder.decode(encoded.bytes), JSON.stringify(plain));
    assert.equal(JSON.stringify(value), JSON.stringify(plain));
  });

  it('digests the JSON text in pieces as in one call', async () => {
    const large = [{ id: 1, content: '"\'\ud83d\ude00'.repeat(200_000), rendered: new ChunkedText(['<p>', 'z'.repeat(300_000)]) }, 3, null];
    const small = [{ id: 2, content: 'short' }, 0, null];
    for (const value of [large, small]) {
      const expected = createHash('sha256').update(JSON.stringify(value)).digest('base64');
      assert.equal(await jsonDigestInTurns(value, 'sha256'), expected);
    }
  });

  it('leaves small values to the one-call path', async () => {
    const small = { id: 1, title: 'A post', content: 'x'.repeat(1000), list: Array.from({ length: 100 }, (_, index) => index) };
    assert.equal(isLargeJson(small), false);
    assert.equal(await encodeLargeJson(small), null);
    assert.equal(await encodedIfLarge(small), small);
    const large = { content: 'x'.repeat(LARGE_JSON_CHARS) };
    assert.ok(await encodedIfLarge(large) instanceof EncodedJson);
  });

  it('tags large bytes in slices, as in one call', async () => {
    const bytes = new TextEncoder().encode('abc'.repeat(1_000_000));
    assert.equal(await entityTagInTurns(bytes), entityTag(bytes));
  });

  it('lets timers run while it encodes', async () => {
    const value = { content: '<p>&#8220;q&#8221;</p>'.repeat(400_000), list: Array.from({ length: 50_000 }, (_, index) => ({ index })) };
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 1);
    const started = performance.now();
    await encodeLargeJson(value);
    const spent = performance.now() - started;
    clearInterval(timer);
    assert.ok(ticks >= Math.floor(spent / 50), `${ticks} timer ticks in ${spent.toFixed(0)} ms`);
  });
});
