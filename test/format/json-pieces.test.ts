import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonInTurns } from '../../src/format/json-pieces.js';
import { isLongJson, jsonTextPieces } from '../../src/format/json-text.js';
import { nextTurn } from '../../src/format/turn.js';

/** `text` cut into pieces of the given lengths, in turn. */
function cut(text: string, lengths: readonly number[]): string[] {
  const pieces: string[] = [];
  for (let start = 0, index = 0; start < text.length; index += 1) {
    const length = lengths[index % lengths.length]!;
    pieces.push(text.slice(start, start + length));
    start += length;
  }
  return pieces;
}

const long = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

describe('JSON text in pieces', () => {
  const values: unknown[] = [
    { content: long('<p>"Quoted" — naïve 😀 \\ back\nslash\u0001</p>', 300_000), title: 'Short', n: [1, -2.5e-7, 1e21, null, true] },
    [long('😀', 200_001), { nested: { deeper: [long('"1\'', 150_000), 'x'] } }, ...Array.from({ length: 5000 }, (_, index) => ({ index }))],
    JSON.parse(`{"__proto__": {"polluted": true}, "constructor": "${long('c', 300_000)}", "list": []}`) as unknown,
    long('\ud83d\ude00 lone \ud800 end', 400_000),
  ];

  it('joins into what JSON.stringify writes', () => {
    for (const value of values) {
      assert.ok(isLongJson(value, 256 * 1024));
      assert.equal([...jsonTextPieces(value, { longChars: 256 * 1024, pieceChars: 64 * 1024 })].join(''), JSON.stringify(value));
    }
    assert.equal(isLongJson({ short: 'text' }, 256 * 1024), false);
  });

  it('parses, from pieces cut anywhere, into what JSON.parse gives, members in order and `__proto__` an ordinary member', async () => {
    for (const value of values) {
      const text = JSON.stringify(value);
      for (const lengths of [[text.length], [65_536], [1, 100_003, 7], [524_288]]) {
        const parsed = await parseJsonInTurns(cut(text, lengths), nextTurn);
        assert.deepStrictEqual(parsed, JSON.parse(text));
        assert.equal(JSON.stringify(parsed), text);
      }
    }
    const parsed = await parseJsonInTurns(cut(JSON.stringify(values[2]), [70_000]), nextTurn) as Record<string, unknown>;
    assert.ok(Object.hasOwn(parsed, '__proto__'));
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('throws what JSON.parse throws for a text that is not JSON', async () => {
    const text = `{"a": "${long('x', 300_000)}", }`;
    await assert.rejects(parseJsonInTurns(cut(text, [65_536]), nextTurn), SyntaxError);
  });
});
