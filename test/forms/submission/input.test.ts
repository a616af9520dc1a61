import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanValue } from '../../../src/forms/submission/input.js';
import { stripWhitespaces } from '../../../src/forms/text.js';
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
