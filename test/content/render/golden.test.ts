import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { digest } from './golden/digest.js';
import { GOLDEN_FUNCTIONS } from './golden/functions.js';
import { goldenInputs } from './golden/inputs.js';

// Outputs recorded from the rendering code before it was reworked for speed (golden/record.ts); every stage
// must keep producing them byte for byte.
const RECORDED = JSON.parse(readFileSync(new URL('golden/outputs.json', import.meta.url), 'utf8')) as {
  functions: string[];
  outputs: Record<string, string>;
};

test('golden rendering outputs are reproduced for every input and function', () => {
  assert.deepEqual(Object.keys(GOLDEN_FUNCTIONS), RECORDED.functions);
  const inputs = goldenInputs();
  assert.deepEqual(inputs.map(([name]) => name), Object.keys(RECORDED.outputs), 'the recorded inputs are all generated');
  const mismatches: string[] = [];
  for (const [name, input] of inputs) {
    const expected = RECORDED.outputs[name]!.split(' ');
    RECORDED.functions.forEach((fn, index) => {
      if (digest(GOLDEN_FUNCTIONS[fn]!(input)) !== expected[index]) mismatches.push(`${name} | ${fn}`);
    });
  }
  assert.deepEqual(mismatches, []);
});
