import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJsonInTurns, LARGE_BODY_CHARS } from '../../src/core/json-body-large.js';
import { decodeJson, hasLoneSurrogateEscape } from '../../src/core/json-body.js';
import { NO_TREE_LIMITS } from '../../src/core/safe-object.js';
import { longestTurnCpu } from '../helpers/event-loop.js';

/** Bodies here hold more values than a request may (those limits are tested in json-limits.test.ts). */
const UNLIMITED = NO_TREE_LIMITS;

/** Decodes `text` both ways: in pieces (it is large) and in one call, which must agree on the value or the error. */
async function agree(text: string, label: string): Promise<unknown> {
  assert.ok(text.length >= LARGE_BODY_CHARS, `${label}: large enough to be decoded in pieces`);
  const atOnce = decodeJson(text, UNLIMITED);
  // Given whole, and as the consecutive strings a body's slices decode to, cut anywhere (inside escapes too;
  // a slice may decode to nothing).
  const withEmpty = ['', ...cutInto(text, 5).flatMap((piece) => [piece, ''])];
  for (const source of [text, cutInto(text, 7), cutInto(text, 64 * 1024 + 1), withEmpty]) {
    const inTurns = await decodeJsonInTurns(source, UNLIMITED);
    const how = `${label} (${typeof source === 'string' ? 'whole' : `${source.length} pieces`})`;
    if (atOnce.ok) {
      assert.ok(inTurns.ok, `${how}: decodes`);
      assert.deepStrictEqual(inTurns.value, atOnce.value, how);
    } else {
      assert.equal(inTurns.ok, false, `${how}: refused`);
      assert.equal(!inTurns.ok && inTurns.error.extra.json_error_code, atOnce.error.extra.json_error_code, how);
    }
  }
  return atOnce.ok ? (await decodeJsonInTurns(text, UNLIMITED) as { value: unknown }).value : undefined;
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
    const decoded = await decodeJsonInTurns(text, UNLIMITED);
    const spent = performance.now() - started;
    clearInterval(timer);
    assert.ok(decoded.ok);
    assert.equal((decoded.value as { list: unknown[] }).list.length, 150_000);
    // Each turn comes after at most TURN_MS (10 ms) of work and a few milliseconds of one piece.
    assert.ok(ticks >= Math.floor(spent / 50), `${ticks} timer ticks in ${spent.toFixed(0)} ms`);
  });
});

/** The lone-surrogate check as it was first written, whose answers the quicker one must keep. */
function loneSurrogateAsFirstWritten(text: string): boolean {
  if (!text.includes('\\u')) return false;
  return /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])/.test(text) || /(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F]/.test(text);
}

describe('backslashes and surrogate escapes', () => {
  it('finds a lone surrogate escape where the first check did, on random escapes', () => {
    const tokens = ['\\', '\\u', 'u', 'd', 'D', '8', 'b', 'c', 'F', '0', '\\ud83d', '\\uDE00', '\\udc00', '\\uD800', '\\u00e9', 'x', '"'];
    let state = 5;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 3000; round++) {
      let text = '';
      for (let count = Math.floor(random() * 16); count > 0; count--) text += tokens[Math.floor(random() * tokens.length)];
      assert.equal(hasLoneSurrogateEscape(text), loneSurrogateAsFirstWritten(text), JSON.stringify(text));
    }
  });

  it('decodes 5 MiB strings of backslashes and escapes as one call does, holding the loop briefly', async () => {
    const size = 5 * 1024 * 1024;
    const bodies: Record<string, string> = {
      backslashes: JSON.stringify({ content: '\\'.repeat(size / 2) }),
      'escaped backslashes before a u': `{"content":"${'\\\\u'.repeat(size / 3)}"}`,
      'escaped pairs': `{"content":"${'\\ud83d\\ude00'.repeat(size / 12)}"}`,
      'a lone surrogate at the end': `{"content":"${'\\\\'.repeat(size / 2)}\\ud83d"}`,
    };
    for (const [label, text] of Object.entries(bodies)) {
      const atOnce = decodeJson(text, UNLIMITED);
      let inTurns: Awaited<ReturnType<typeof decodeJsonInTurns>> | undefined;
      const turnCpu = await longestTurnCpu(async () => {
        inTurns = await decodeJsonInTurns(text);
      });
      assert.equal(inTurns!.ok, atOnce.ok, label);
      if (atOnce.ok) assert.deepStrictEqual(inTurns!.ok && inTurns!.value, atOnce.value, label);
      else assert.deepEqual(!inTurns!.ok && inTurns!.error.extra, atOnce.error.extra, label);
      assert.ok(turnCpu < 35, `${label}: longest turn ${turnCpu.toFixed(1)} ms of CPU`);
    }
    assert.equal(decodeJson(bodies['a lone surrogate at the end']!).ok, false);
  });
});
