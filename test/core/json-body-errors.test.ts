import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonFaultInTurns } from '../../src/core/json-body-errors.js';
import { decodeJsonInTurns } from '../../src/core/json-body-large.js';
import { decodeJson, hasLoneSurrogateEscape, loneSurrogateEscapeIn } from '../../src/core/json-body.js';
import { NO_TREE_LIMITS } from '../../src/core/safe-object.js';
import { PiecedText } from '../../src/format/json-pieces.js';
import { longestTurnCpu } from '../helpers/event-loop.js';

/** Bodies here hold more values than a request may (those limits are tested in json-limits.test.ts). */
const UNLIMITED = NO_TREE_LIMITS;

function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * below);
  };
}

/** What `JSON.parse` makes of a text: null when it is JSON, else the kind of its first error. */
function parseFault(text: string): 'control' | 'syntax' | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return /control character/i.test((error as Error).message) ? 'control' : 'syntax';
  }
}

const SAMPLES = [
  '{"a":[1,2.5e-3,-0,true,false,null,"x\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t"],"b":{},"c":[]}', '[]', '{}', '"\\ud83d"', '0', '-1.5E+10',
  '[[[]]]', ' 1 ', '{"":{"":[{"":null}]}}', '123.456e7', '"é😀\u2028"',
];
const ALPHABET = [
  '{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '9', '-', '+', '.', 'e', 'E', 't', 'r', 'n', 'a', 'f', 'l', 's', ' ', '\n', '\t', '\r',
  '\x00', '\x01', '\x1f', '\x7f', '\u2028', '\ufeff', 'x', '/', 'b', 'A',
];

/** A sample with a few characters inserted, removed or replaced at random places. */
function mutated(next: (below: number) => number): string {
  let text = SAMPLES[next(SAMPLES.length)]!;
  for (let edits = 1 + next(3); edits > 0; edits -= 1) {
    const at = next(text.length + 1);
    const character = ALPHABET[next(ALPHABET.length)]!;
    const kind = next(3);
    text = text.slice(0, at) + (kind === 1 ? '' : character) + text.slice(kind === 0 ? at : at + 1);
  }
  return text;
}

const noTurn = async () => {};

describe('the first fault of a JSON text', () => {
  it('is where JSON.parse stops, of the same kind, on random texts cut into pieces anywhere', async () => {
    const next = random(23);
    for (let round = 0; round < 60_000; round += 1) {
      const text = mutated(next);
      const cut = next(text.length + 1);
      const fault = await jsonFaultInTurns(new PiecedText([text.slice(0, cut), text.slice(cut)]), text.length, noTurn);
      assert.equal(fault === 'end' ? 'syntax' : fault, parseFault(text), JSON.stringify(text));
    }
  });

  it('tells a text that ends while a value is open from one that goes wrong', async () => {
    const fault = (text: string, end = text.length) => jsonFaultInTurns(new PiecedText([text]), end, noTurn);
    assert.equal(await fault('{"a":[1,{"b":['), 'end');
    assert.equal(await fault('{"a":[1,{"b" ['), 'syntax');
    assert.equal(await fault('["\u0001"'), 'control');
    assert.equal(await fault('[1]'), null);
    assert.equal(await fault('[1] x', 3), null);
    assert.equal(await fault('1e'), 'end');
  });

  it('finds a lone surrogate escape window by window where the whole text has one', () => {
    const tokens = ['\\', '\\u', 'u', 'd', 'D', '8', 'b', 'c', 'F', '0', '\\ud83d', '\\uDE00', '\\udc00', '\\uD800', '\\u00e9', 'x', '"'];
    const next = random(29);
    for (let round = 0; round < 3000; round += 1) {
      let text = '';
      for (let count = next(40); count > 0; count -= 1) text += tokens[next(tokens.length)];
      const size = 1 + next(8);
      let found = false;
      for (let start = 0; start < text.length; start += size) found ||= loneSurrogateEscapeIn(text, start, Math.min(text.length, start + size), text.length);
      assert.equal(found, hasLoneSurrogateEscape(text), JSON.stringify(text));
    }
  });
});

const SIZE = 8 * 1024 * 1024;
const fill = (unit: string, room: number) => unit.repeat(Math.floor((SIZE - room) / unit.length));

describe('large JSON bodies the pieces cannot follow', () => {
  it('are refused with the one-call error wherever it falls, and decoded when they are JSON', async () => {
    const next = random(31);
    const objects = `[${'{"a":1,"b":"x"},'.repeat(20_000)}1]`;
    const shapes = [
      () => `{"a":${objects}`,
      () => `${objects}]`,
      () => `${objects},1`,
      () => `${objects} x`,
      () => `{"a":${objects}${'['.repeat(515)}`,
      () => `"${'y'.repeat(300_000)}" 1`,
      () => `${' '.repeat(300_000)}${next(10)}e${next(300)}`,
      () => `${'1'.repeat(300_000)}`,
      () => ` ${' '.repeat(300_000)} `,
      () => `{"a":${objects},"b":"\\ud800"${'['.repeat(515)}`,
      () => `{"a":${objects}]]]${'['.repeat(600)}`,
      // Brackets that do not pair up, then nesting past the limit: the one-call decoding counts through to it.
      () => `{"a":${objects},"b":"\\udc00"]]]${'['.repeat(600)}`,
    ];
    for (let round = 0; round < 60; round += 1) {
      let text = shapes[round % shapes.length]!();
      // A character changed somewhere: an earlier error, or none.
      if (round >= shapes.length) {
        const at = next(text.length);
        text = text.slice(0, at) + ALPHABET[next(ALPHABET.length)] + text.slice(at + 1);
      }
      const atOnce = decodeJson(text, UNLIMITED);
      const cut = next(text.length);
      const inTurns = await decodeJsonInTurns([text.slice(0, cut), text.slice(cut)], UNLIMITED);
      if (atOnce.ok) assert.deepStrictEqual(inTurns, atOnce, `round ${round}`);
      else assert.equal(!inTurns.ok && inTurns.error.extra.json_error_code, atOnce.error.extra.json_error_code, `round ${round}`);
    }
  });

  it('hold the event loop briefly at 8 MiB', async () => {
    const objects = fill('{"a":1},', 2000);
    const bodies: Record<string, string> = {
      'too deep after 8 MiB': `{"content":[${objects}${'['.repeat(520)}`,
      'an open bracket': `{"content":[${objects}1]`,
      'a closing bracket too many': `{"content":[${objects}1]}]`,
      'text after the value': `{"content":[${objects}1]} x`,
      'a long number': fill('1', 10),
    };
    for (const [label, text] of Object.entries(bodies)) {
      const atOnce = decodeJson(text, UNLIMITED);
      let inTurns: Awaited<ReturnType<typeof decodeJsonInTurns>> | undefined;
      const turnCpu = await longestTurnCpu(async () => {
        inTurns = await decodeJsonInTurns(text, UNLIMITED);
      });
      assert.equal(inTurns!.ok, atOnce.ok, label);
      if (!atOnce.ok) assert.equal(!inTurns!.ok && inTurns!.error.extra.json_error_code, atOnce.error.extra.json_error_code, label);
      assert.ok(turnCpu < 40, `${label}: longest turn ${turnCpu.toFixed(1)} ms of CPU`);
    }
  });
});
