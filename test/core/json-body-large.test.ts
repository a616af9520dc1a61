import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJsonInTurns, LARGE_BODY_CHARS } from '../../src/core/json-body-large.js';
import { decodeJson } from '../../src/core/json-body.js';

/** Decodes `text` both ways: in pieces (it is large) and in one call, which must agree on the value or the error. */
async function agree(text: string, label: string): Promise<unknown> {
  assert.ok(text.length >= LARGE_BODY_CHARS, `${label}: large enough to be decoded in pieces`);
  const atOnce = decodeJson(text);
  // Given whole, and as the consecutive strings a body's slices decode to, cut anywhere (inside escapes too;
  // a slice may decode to nothing).
  const withEmpty = ['', ...cutInto(text, 5).flatMap((piece) => [piece, ''])];
  for (const source of [text, cutInto(text, 7), cutInto(text, 64 * 1024 + 1), withEmpty]) {
    const inTurns = await decodeJsonInTurns(source);
    const how = `${label} (${typeof source === 'string' ? 'whole' : `${source.length} pieces`})`;
    if (atOnce.ok) {
      assert.ok(inTurns.ok, `${how}: decodes`);
      assert.deepStrictEqual(inTurns.value, atOnce.value, how);
    } else {
      assert.equal(inTurns.ok, false, `${how}: refused`);
      assert.equal(!inTurns.ok && inTurns.error.extra.json_error_code, atOnce.error.extra.json_error_code, how);
    }
  }
  return atOnce.ok ? (await decodeJsonInTurns(text) as { value: unknown }).value : undefined;
}

/** `text` cut into `count` pieces of uneven lengths, or into pieces of `count` characters when it is larger. */
function cutInto(text: string, count: number): string[] {
  const size = count > 100 ? count : Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let start = 0, step = 0; start < text.length; step += 1) {
    const end = Math.min(text.length, start + size + (step % 3) * 13 - 13);
    pieces.push(text.slice(start, Math.max(end, start + 1)));
    start = Math.max(end, start + 1);
  }
  return pieces;
}

const many = (count: number, make: (index: number) => string) => Array.from({ length: count }, (_, index) => make(index)).join(',');

describe('large JSON bodies decoded in pieces', () => {
  it('gives the value JSON.parse gives, made safe', async () => {
    const post = await agree(JSON.stringify({ title: 'Dense', content: '"\'\\\u2028é😀'.repeat(200_000), status: 'publish' }), 'a long string');
    assert.equal(Object.getPrototypeOf(post), null);
    await agree(`[${many(200_000, (index) => String(index % 7 === 0 ? -index / 3 : index))}]`, 'many numbers');
    await agree(`{"list":[${many(40_000, (index) => `{"a":${index},"b":[true,false,null],"c":"x${index}"}`)}]}`, 'many small objects');
    await agree(`[${many(3, () => `[${many(30_000, (index) => `"${index}"`)}]`)}, 1, "${'y'.repeat(300_000)}"]`, 'large members among small ones');
    await agree(`{"${'k'.repeat(100_000)}": 1, "${'v'.repeat(70_000)}": "${'w'.repeat(70_000)}", "a": [${many(30_000, String)}]}`, 'large keys');
    // Later members win over earlier ones of the same name, in the place of the first.
    const merged = await agree(`{"a":1,${many(40_000, (index) => `"k${index % 50_000}":${index}`)},"a":2,"__proto__":{"x":1},"constructor":{"prototype":1}}`, 'repeated names') as Record<string, unknown>;
    assert.equal(Object.keys(merged)[0], 'a');
    assert.equal(merged.a, 2);
    assert.equal(Object.hasOwn(merged, '__proto__'), false);
    assert.equal(Object.hasOwn(merged, 'constructor'), false);
    await agree(`  \n[${many(100_000, () => '"\\ud83d\\ude00\\\\\\"\\u00e9"')}]\t `, 'escapes at every place a cut could fall');
    await agree(`"${'\\ud83d\\ude00'.repeat(30_000)}${'\\\\'.repeat(30_000)}${'\\u00e9'.repeat(30_000)}"`, 'escapes in a long string');
    await agree(`[${'['.repeat(400)}${many(100_000, String)}${']'.repeat(400)}]`, 'deep and large');
  });

  it('refuses what JSON.parse refuses, with the same codes', async () => {
    const numbers = many(100_000, String);
    for (const [text, label] of [
      [`[${numbers},]`, 'a trailing comma'],
      [`[${numbers},,1]`, 'two commas'],
      [`[,${numbers}]`, 'a leading comma'],
      [`[${numbers}}`, 'brackets that do not pair'],
      [`[${numbers}] 1`, 'two values'],
      [`[${numbers}`, 'an open bracket'],
      [`{"a":[${numbers}] "b":1}`, 'a missing comma'],
      [`{"a" [${numbers}]}`, 'a missing colon'],
      [`["${'x'.repeat(140_000)}\u0001${'x'.repeat(140_000)}"]`, 'a control character in a long string'],
      [`["${'x'.repeat(140_000)}\\ud800${'x'.repeat(140_000)}"]`, 'a lone surrogate in a long string'],
      [`[${numbers},"\\udc00"]`, 'a lone surrogate among small values'],
      [`[${numbers},tru]`, 'a bad literal'],
      [`[${numbers},${'['.repeat(600)}`, 'too deep after a long prefix'],
      [`{"${'k'.repeat(300_000)}" 1}`, 'a large key without a colon'],
    ] as const) await agree(text, label);
  });
});

describe('a large JSON body', () => {
  it('lets timers run while it is decoded', async () => {
    const text = `{"list":[${many(150_000, (index) => `{"a":${index},"b":"${'x'.repeat(20)}"}`)}]}`;
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 1);
    const started = performance.now();
    const decoded = await decodeJsonInTurns(text);
    const spent = performance.now() - started;
    clearInterval(timer);
    assert.ok(decoded.ok);
    assert.equal((decoded.value as { list: unknown[] }).list.length, 150_000);
    // Each turn comes after at most TURN_MS (10 ms) of work and a few milliseconds of one piece.
    assert.ok(ticks >= Math.floor(spent / 50), `${ticks} timer ticks in ${spent.toFixed(0)} ms`);
  });
});
