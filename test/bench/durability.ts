/**
 * Crash rounds of the standalone server on SQLite: `npm run durability -- --rounds 50 [--seed N] [--writers 4]`.
 * Prints, per round, the writes acknowledged and interrupted and what was checked after the restart; exits 1
 * when an acknowledged write was lost or a write was refused.
 */
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { durabilityRound, finalCheck, newLedger } from '../cli/durability.js';
import { caseSeed } from '../fuzz/random.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' }, seed: { type: 'string' }, writers: { type: 'string', default: '4' } } });
const rounds = Number(values.rounds);
const writers = Number(values.writers);
const seed = values.seed === undefined ? randomInt(2 ** 32) : Number(values.seed);
if (!Number.isSafeInteger(rounds) || rounds < 1 || !Number.isSafeInteger(writers) || writers < 1 || !Number.isSafeInteger(seed)) {
  process.stderr.write('durability: --rounds, --writers and --seed must be whole numbers\n');
  process.exit(2);
}

const folder = mkdtempSync(join(tmpdir(), 'quire-durability-'));
const ledger = newLedger();
let acknowledged = 0;
let failures = 0;
const started = performance.now();
process.stdout.write(`durability seed ${seed}, ${rounds} rounds, ${writers} writers, file ${join(folder, 'site.db')}\n`);
try {
  for (let round = 0; round < rounds; round++) {
    const result = await durabilityRound({ dataFile: join(folder, 'site.db'), ledger, round, seed: caseSeed(seed, round), writers });
    acknowledged += result.acknowledged;
    failures += result.lost.length + result.refused.length;
    process.stdout.write(`round ${round}: restarted, ${result.checked} earlier writes checked, ${result.lost.length} lost; then ${result.acknowledged} acknowledged and ${result.interrupted} interrupted by SIGKILL\n`);
    for (const line of [...result.lost, ...result.refused]) process.stdout.write(`  ${line}\n`);
  }
  const last = await finalCheck(join(folder, 'site.db'), ledger);
  failures += last.lost.length;
  process.stdout.write(`final restart: ${last.checked} writes checked, ${last.lost.length} lost\n`);
  for (const line of last.lost) process.stdout.write(`  ${line}\n`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
process.stdout.write(`${rounds} rounds in ${((performance.now() - started) / 1000).toFixed(1)} s: ${acknowledged} acknowledged writes, ${ledger.posts.size} posts and ${ledger.tags.size} tags written, ${failures} failures\n`);
process.exit(failures > 0 ? 1 : 0);
