/**
 * Records the golden rendering fixtures (outputs.json): for every input, the length and a digest of each
 * function's output, in the order of `functions`. With a folder argument also writes the outputs themselves there, for comparing by eye.
 *
 *   node --import tsx test/content/render/golden/record.ts [folder]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { digest } from './digest.js';
import { GOLDEN_FUNCTIONS } from './functions.js';
import { goldenInputs } from './inputs.js';

const folder = process.argv[2];
if (folder !== undefined) mkdirSync(folder, { recursive: true });
const functions = Object.keys(GOLDEN_FUNCTIONS);
const outputs: Record<string, string> = {};
for (const [name, input] of goldenInputs()) {
  const digests: string[] = [];
  for (const fn of functions) {
    const output = GOLDEN_FUNCTIONS[fn]!(input);
    digests.push(digest(output));
    if (folder !== undefined) writeFileSync(join(folder, `${name} - ${fn}.txt`), output);
  }
  outputs[name] = digests.join(' ');
}
writeFileSync(new URL('outputs.json', import.meta.url), `${JSON.stringify({ functions, outputs }, null, 1)}\n`);
console.log(`${Object.keys(outputs).length} inputs × ${functions.length} functions`);
