import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBody } from '../../src/core/body.js';
import { decodeInTurns, LARGE_FORM_BYTES, parseQueryStringInTurns } from '../../src/core/query-large.js';
import { decodeComponent, MAX_INPUT_NESTING, MAX_INPUT_VARS, parseQueryString } from '../../src/core/query.js';
import { turnTaker } from '../../src/format/turn.js';
import { longestTurnCpu } from '../helpers/event-loop.js';

/** A small deterministic generator, so a failure can be replayed. */
function randomOf(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

// Escapes valid and broken, UTF-8 leads and continuations, the characters a name treats specially, hostile keys.
const TOKENS = [
  'a', 'Z', '0', '7', 'f', 'B', '%41', '%C3%A9', '%E2%82%AC', '%F0%9F%98%80', '%80', '%C3', '%E2%82', '%ZZ', '%4', '%', '%%41',
  '+', '.', ' ', '[', ']', '[]', '[x]', '=', '\0', '__proto__', 'constructor', 'prototype', '%5B', '%5D', '\u00e9', '\ud83d\ude00', '\udc00',
];
const SEPARATORS = ['&', '=', '&&', '[', ']'];

/** A component of random tokens, at times repeated past the slice length so it is decoded in slices. */
function component(random: () => number, long: boolean): string {
  const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
  let unit = '';
  for (let count = 1 + Math.floor(random() * 12); count > 0; count--) unit += pick(TOKENS);
  if (!long) return unit;
  let text = '';
  while (text.length < 40 * 1024) text += unit;
  for (let count = Math.floor(random() * 4); count > 0; count--) text += pick(TOKENS);
  return text;
}

function randomBody(random: () => number): string {
  let text = '';
  for (let pairs = 1 + Math.floor(random() * 30); pairs > 0; pairs--) {
    text += component(random, random() < 0.2);
    if (random() < 0.8) text += `=${component(random, random() < 0.4)}`;
    text += random() < 0.9 ? '&' : SEPARATORS[Math.floor(random() * SEPARATORS.length)];
  }
  return text;
}

async function agree(text: string, label: string): Promise<void> {
  const inTurns = await parseQueryStringInTurns(text, turnTaker());
  assert.deepStrictEqual(inTurns, parseQueryString(text), label);
}

describe('a large urlencoded body parsed in turns', () => {
  it('decodes long components slice by slice to what one call gives, escapes broken or not', async () => {
    const random = randomOf(7);
    for (let round = 0; round < 300; round++) {
      const text = component(random, true);
      assert.equal(await decodeInTurns(text, turnTaker()), decodeComponent(text), `component ${round}: ${JSON.stringify(text.slice(0, 60))}`);
    }
    // Continuation bytes past what UTF-8 allows, where no slice could end: read byte by byte.
    for (const text of ['%80'.repeat(50_000), `${'a'.repeat(32 * 1024 - 1)}${'%80'.repeat(20)}b`, `${'%C3%A9'.repeat(20_000)}%ZZ`]) {
      assert.equal(await decodeInTurns(text, turnTaker()), decodeComponent(text));
    }
  });

  it('gives the parameters of the one-call parse on random bodies, hostile keys and odd names included', async () => {
    const random = randomOf(11);
    for (let round = 0; round < 150; round++) await agree(randomBody(random), `body ${round}`);
  });

  it('keeps the variable and nesting limits, and drops keys that could reach a prototype', async () => {
    const many = Array.from({ length: MAX_INPUT_VARS + 50 }, (_, index) => `v${index}=${index % 7 === 0 ? 'x'.repeat(40_000) : index}`).join('&');
    await agree(many, 'past the variable limit');
    assert.equal(Object.keys(await parseQueryStringInTurns(many, turnTaker())).length, MAX_INPUT_VARS);
    const deep = `a${'[b]'.repeat(MAX_INPUT_NESTING + 1)}=1&c${'[d]'.repeat(MAX_INPUT_NESTING)}=2&a=${'y'.repeat(40_000)}`;
    await agree(deep, 'nesting');
    const long = 'n'.repeat(40_000);
    const hostile = [
      `__proto__[x]=1`, `a[__proto__]=2`, `constructor=3`, `b[prototype][c]=4`, `${long}[constructor]=5`, `  ${long}. [x]=6`,
      `.${long}[unclosed=7`, `${long}%00tail=8`, `%5F_proto__=9`, `ok=${long}`,
    ].join('&');
    await agree(hostile, 'hostile keys');
    const parsed = await parseQueryStringInTurns(hostile, turnTaker());
    assert.equal(Object.getPrototypeOf(parsed), null);
    assert.equal(parsed.ok, long);
    assert.equal(parsed[`_${long}_unclosed`], '7');
    assert.equal(parsed[long], '8');
    for (const key of ['__proto__', 'constructor', '_proto__']) assert.equal(Object.hasOwn(parsed, key), false, key);
  });

  it('holds the event loop briefly on the worst 8 MiB bodies', async () => {
    const size = 8 * 1024 * 1024;
    const bodies: Record<string, string> = {
      'escaped characters': `a=${'%C3%A9'.repeat(size / 6 - 1)}`,
      pluses: `a=${'a+'.repeat(size / 2 - 1)}`,
      'escapes that are not UTF-8': `a=${'%C3%A9'.repeat(size / 6 - 2)}%ZZ`,
      'a name of dots': `${'.'.repeat(size - 2)}=1`,
      'an unclosed name of brackets': `a[${'.['.repeat(size / 2 - 2)}=1`,
      separators: '&'.repeat(size),
    };
    for (const [label, text] of Object.entries(bodies)) {
      const raw = new TextEncoder().encode(text);
      assert.ok(raw.length >= LARGE_FORM_BYTES && raw.length <= size, label);
      let form: unknown;
      const turnCpu = await longestTurnCpu(async () => {
        form = (await parseBody({ method: 'POST', path: '/', query: '', headers: {}, body: raw }, 'application/x-www-form-urlencoded')).form;
      });
      assert.deepStrictEqual(form, parseQueryString(text), label);
      assert.ok(turnCpu < 35, `${label}: longest turn ${turnCpu.toFixed(1)} ms of CPU`);
    }
  });
});
