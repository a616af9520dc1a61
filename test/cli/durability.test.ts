import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { durabilityRound, finalCheck, newLedger, QUIRE_BIN } from './durability.js';

const ROUNDS = 2;

test('a SQLite-backed server killed with SIGKILL during concurrent writes keeps every write it acknowledged', async () => {
  assert.ok(existsSync(QUIRE_BIN), 'dist/ is missing: run `npm run build` first');
  const folder = mkdtempSync(join(tmpdir(), 'quire-durability-'));
  const dataFile = join(folder, 'site.db');
  const ledger = newLedger();
  try {
    let acknowledged = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const result = await durabilityRound({ dataFile, ledger, round, seed: 7919 * (round + 1) });
      assert.deepEqual(result.refused, [], 'the running server refused no write');
      assert.deepEqual(result.lost, [], `round ${round}: acknowledged writes of earlier rounds are all there`);
      assert.ok(result.acknowledged >= 3, `round ${round} acknowledged writes before the kill (${result.acknowledged})`);
      acknowledged += result.acknowledged;
    }
    // A write the server never saw, entered as acknowledged: the check must find it missing, and only it.
    ledger.posts.set(999_999_999, { titles: new Set(['never written']), deleted: 'no' });
    const final = await finalCheck(dataFile, ledger);
    assert.deepEqual(final.lost, ['post 999999999 (acknowledged as "never written") is missing']);
    assert.ok(final.checked >= ledger.posts.size, `every post and tag was checked (${final.checked} for ${acknowledged} acknowledged writes)`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
