import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collection } from '../../src/ports/collection.js';
import type { StoredRecord } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';

type Thing = StoredRecord & { name: string };

describe('typed collection handles', () => {
  it('each storage handle reads its own records, a transaction its own writes', async () => {
    const thingsIn = collection<Thing>('things', (record) => (typeof record.name === 'string' ? record as Thing : null));
    const first = createMemoryStorage();
    const second = createMemoryStorage();
    await thingsIn(first).insert({ name: 'one' });
    await thingsIn(second).insert({ name: 'two' });
    assert.deepEqual((await thingsIn(first).list()).items.map((thing) => thing.name), ['one']);
    assert.deepEqual((await thingsIn(second).list()).items.map((thing) => thing.name), ['two']);
    assert.equal(thingsIn(first), thingsIn(first), 'one handle per storage');
    await first.transaction(async (tx) => {
      await thingsIn(tx).insert({ name: 'three' });
      assert.deepEqual((await thingsIn(tx).list()).items.map((thing) => thing.name), ['one', 'three']);
      assert.deepEqual((await thingsIn(first).list()).items.map((thing) => thing.name), ['one'], 'outside sees committed data only');
    });
    assert.deepEqual((await thingsIn(first).list()).items.map((thing) => thing.name), ['one', 'three']);
  });

  it('lists decoded records, leaving out refused ones, with the total as the store gave it', async () => {
    const store = createMemoryStorage();
    const raw = collection<StoredRecord>('things', (record) => record);
    for (const name of ['a', 7, 'b', null, 'c']) await raw(store).insert({ name });
    const named = collection<Thing>('things', (record) => (typeof record.name === 'string' ? { ...record, name: record.name.toUpperCase() } as Thing : null));
    const listed = await named(store).list({ withTotal: true });
    assert.deepEqual(listed.items.map((thing) => thing.name), ['A', 'B', 'C']);
    assert.equal(listed.total, 5);
    const onlyStrings = collection<Thing>('things', (record) => (typeof record.name === 'string' ? record as Thing : null));
    const kept = await onlyStrings(store).list();
    assert.deepEqual(kept.items.map((thing) => thing.name), ['a', 'b', 'c']);
    assert.equal(kept.total, undefined);
    const all = await raw(store).list({ shared: true, withTotal: true });
    assert.deepEqual(all.items.map((thing) => thing.name), ['a', 7, 'b', null, 'c']);
    const again = await raw(store).list({ shared: true });
    assert.notEqual(all.items, again.items, 'every list answers an array of its own');
  });
});
