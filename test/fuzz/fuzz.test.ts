import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatReport, runFuzz } from './runner.js';
import type { StoreKind } from './site.js';

/**
 * A bounded, seeded fuzz run on each store; the long run is `npm run fuzz`. QUIRE_FUZZ_SEED picks another seed
 * (a failure prints the command that replays it).
 */
const SEED = process.env.QUIRE_FUZZ_SEED === undefined ? 20_261_121 : Number(process.env.QUIRE_FUZZ_SEED);
const RUNS: readonly [StoreKind, number][] = [['memory', 2500], ['sqlite', 2000]];

describe('fuzzing every route of the index', () => {
  for (const [store, requests] of RUNS) {
    test(`${requests} seeded requests on ${store}: no 5xx, well-formed errors, prototypes untouched, none over 2 s`, async () => {
      const report = await runFuzz({ seed: SEED, to: requests, store, freshEvery: 1000 });
      assert.equal(report.requests, requests);
      // The run reached handlers and the store, not only the validators.
      const count = (low: number, high: number) => Object.entries(report.statuses)
        .filter(([status]) => Number(status) >= low && Number(status) < high).reduce((sum, [, n]) => sum + n, 0);
      assert.ok(count(200, 300) > requests / 10, `successes: ${JSON.stringify(report.statuses)}`);
      assert.ok((report.statuses[201] ?? 0) > 0, 'some writes were accepted');
      assert.ok(count(400, 500) > requests / 10, `refusals: ${JSON.stringify(report.statuses)}`);
      assert.equal(report.failures.length, 0, formatReport(report));
    });
  }
});
