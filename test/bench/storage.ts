/**
 * Memory-store latency at 10,000 and 100,000 records: a typical posts list (type=post, status=publish, newest
 * first, page 3 of 10 with a total), an insert, and an update that moves a record in the date order.
 *
 *   node --import tsx test/bench/storage.ts
 */
import { performance } from 'node:perf_hooks';
import type { ListQuery, StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { benchPost, nextDate } from './records.js';

const SIZES = [10_000, 100_000];
const LIST_RUNS = 2_000;
const SCAN_RUNS = 50;
const WRITE_RUNS = 2_000;

const typicalList: ListQuery = {
  where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }],
  orderBy: [{ field: 'date', direction: 'desc' }],
  offset: 20,
  limit: 10,
  withTotal: true,
};


async function filled(size: number, useIndexes: boolean): Promise<StoragePort> {
  const store = createMemoryStorage({ useIndexes });
  await store.transaction(async (tx) => {
    for (let index = 0; index < size; index++) await tx.insert('posts', benchPost(index));
  });
  return store;
}

/** Median and 95th percentile of `runs` timed calls, in microseconds. */
async function time(runs: number, operation: (run: number) => Promise<unknown>): Promise<{ median: number; p95: number }> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await operation(run);
    samples.push((performance.now() - start) * 1000);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(runs / 2)]!, p95: samples[Math.floor(runs * 0.95)]! };
}

const format = (timing: { median: number; p95: number }) => `${timing.median.toFixed(1)} µs (p95 ${timing.p95.toFixed(1)})`;

const rows = new Map<string, string[]>();
const note = (label: string, value: string) => rows.set(label, [...(rows.get(label) ?? []), value]);

for (const size of SIZES) {
  const store = await filled(size, true);
  const firstStart = performance.now();
  await store.list('posts', typicalList);
  note('first list (builds the index)', `${((performance.now() - firstStart) * 1000).toFixed(0)} µs`);
  note('list page 3, indexed', format(await time(LIST_RUNS, () => store.list('posts', typicalList))));

  const scanning = await filled(size, false);
  note('list page 3, full scan', format(await time(SCAN_RUNS, () => scanning.list('posts', typicalList))));

  note('insert', format(await time(WRITE_RUNS, (run) => store.insert('posts', benchPost(size + run)))));
  note('update (moves in date order)', format(await time(WRITE_RUNS, (run) => store.update('posts', 1 + ((run * 7919) % size), { date: nextDate() }))));
  note('update (title only)', format(await time(WRITE_RUNS, (run) => store.update('posts', 1 + ((run * 104_729) % size), { title: `Renamed ${run}` }))));
}

const labelWidth = Math.max(...[...rows.keys()].map((label) => label.length)) + 2;
const columnWidth = 28;
console.log(`${'memory store'.padEnd(labelWidth)}${SIZES.map((size) => `${size.toLocaleString('en')} records`.padEnd(columnWidth)).join('')}`);
for (const [label, values] of rows) {
  console.log(`${label.padEnd(labelWidth)}${values.map((value) => value.padEnd(columnWidth)).join('')}`);
}
