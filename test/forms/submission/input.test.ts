import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ParsedBody } from '../../../src/core/body.js';
import { MAX_INPUT_NESTING, MAX_INPUT_VARS } from '../../../src/core/query.js';
import { cleanValue, readInput } from '../../../src/forms/submission/input.js';
import { phpString, stripWhitespaces } from '../../../src/forms/text.js';
import { longestTurnCpu } from '../../helpers/event-loop.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** The cleaning as the plugin's expressions spell it. */
const byExpressions = (value: string) => {
  const text = value.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '').replace(/\\+0+/g, '');
  return LONE_SURROGATE.test(text) ? '' : stripWhitespaces(text);
};

test('a posted value is cleaned as the expressions clean it', () => {
  const pieces = ['\\', '0', '00', 'a', '\x00', '\x01', '\x1f', '\t', '\n', '\r', ' ', '\u3000', '\ufeff', '\ud83d', '\ude00', '\ud83d\ude00'];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 100_000; round++) {
    let text = '';
    for (let length = Math.floor(random() * 12); length > 0; length--) text += pieces[Math.floor(random() * pieces.length)];
    assert.equal(cleanValue(text), byExpressions(text), JSON.stringify(text));
  }
  assert.deepEqual(JSON.parse(JSON.stringify(cleanValue({ a: ['x\\00y', ' \x01b '] }))), { a: ['xy', 'b'] });
});

test('a long posted value is cleaned in one pass, whatever it holds', async () => {
  // Millions of characters to remove: the expressions take one step each.
  const controls = '\x01a'.repeat(2 ** 20);
  const expressionsMs = await longestTurnCpu(async () => byExpressions(controls));
  let cleaned: unknown;
  const cleaningMs = await longestTurnCpu(async () => {
    cleaned = cleanValue(controls);
  });
  assert.equal(cleaned, 'a'.repeat(2 ** 20));
  assert.ok(cleaningMs < expressionsMs / 2, `${cleaningMs.toFixed(1)} ms of CPU, the expressions ${expressionsMs.toFixed(1)} ms`);
  // A run of backslashes no zero follows: `/\\+0+/g` reads the rest of the run again from each (40,000 took 3 s).
  const backslashes = `${'\\'.repeat(2 ** 21)}a`;
  const runMs = await longestTurnCpu(async () => {
    cleaned = cleanValue(backslashes);
  });
  assert.equal(cleaned, backslashes);
  assert.ok(runMs < 500, `${runMs.toFixed(1)} ms of CPU`);
  assert.equal(cleanValue(`${'\\'.repeat(2 ** 21)}0a`), 'a');
});

/** The reading before PHP's limits applied to JSON: every value, each scalar as a string, keys as PHP names them. */
function readWithoutLimits(json: Record<string, unknown>): Record<string, unknown> {
  const convert = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return phpString(value);
    if (Array.isArray(value)) return value.map(convert);
    const copy = Object.create(null) as Record<string, unknown>;
    for (const [key, child] of Object.entries(value)) if (!['__proto__', 'constructor', 'prototype'].includes(key)) copy[key] = convert(child);
    return copy;
  };
  const fields = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(json)) {
    const name = key.replace(/^ +/, '').replace(/[ .]/g, '_');
    if (name !== '' && !['__proto__', 'constructor', 'prototype'].includes(name)) fields[name] = convert(value);
  }
  return fields;
}

const jsonBody = (json: unknown) => ({ json, form: Object.create(null), files: [], mediaType: 'application/json' }) as unknown as ParsedBody;

test('a JSON submission within the input limits is read as before, whatever its shape', () => {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const names = ['a', 'b.c', ' d e', '', '0', '7', '__proto__', 'constructor', 'x[y]'];
  const scalar = () => [1, 0, -2.5, true, false, null, 'text', ''][Math.floor(random() * 8)];
  const value = (depth: number): unknown => {
    const pick = random();
    if (depth > 3 || pick < 0.5) return scalar();
    if (pick < 0.75) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    const map = Object.create(null) as Record<string, unknown>;
    for (let count = Math.floor(random() * 4); count > 0; count--) map[names[Math.floor(random() * names.length)]!] = value(depth + 1);
    return map;
  };
  for (let round = 0; round < 2_000; round++) {
    const json = value(0);
    if (json === null || typeof json !== 'object' || Array.isArray(json)) continue;
    assert.deepEqual(readInput(jsonBody(json)).fields, readWithoutLimits(json as Record<string, unknown>));
  }
});

test('a JSON submission reads at most 1,000 values, in the order sent, and no list nested past 64 levels', () => {
  const many = Object.create(null) as Record<string, unknown>;
  many._wpcf7 = '5';
  many.list = Array.from({ length: 2_000 }, (_, index) => index);
  many.after = 'dropped';
  const fields = readInput(jsonBody(many)).fields;
  assert.equal(fields._wpcf7, '5');
  // `_wpcf7`, the list itself and 998 of its items: 1,000 values.
  assert.deepEqual(fields.list, Array.from({ length: MAX_INPUT_VARS - 2 }, (_, index) => String(index)));
  assert.equal(Object.hasOwn(fields, 'after'), false);

  let deep: unknown = 'leaf';
  for (let level = 0; level < MAX_INPUT_NESTING + 1; level++) deep = [deep];
  const nested = readInput(jsonBody({ deep, kept: 'yes' })).fields;
  assert.equal(nested.kept, 'yes');
  let reached = nested.deep;
  let levels = 0;
  while (Array.isArray(reached) && reached.length > 0) {
    reached = reached[0];
    levels++;
  }
  assert.equal(levels, MAX_INPUT_NESTING - 1, 'the list past the limit is dropped, the ones above it kept');
});

test('a JSON submission of millions of values is read in a moment', async () => {
  const json = { _wpcf7: '5', 'your-message': Array.from({ length: 2_000_000 }, () => ({ a: 1 })) };
  let fields: Record<string, unknown> = {};
  const readMs = await longestTurnCpu(async () => {
    fields = readInput(jsonBody(json)).fields;
  });
  assert.equal((fields['your-message'] as unknown[]).length, (MAX_INPUT_VARS - 2) / 2);
  assert.ok(readMs < 20, `${readMs.toFixed(1)} ms of CPU`);
});
