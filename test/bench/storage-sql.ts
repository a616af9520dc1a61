/**
 * The posts-and-pages storage figures at 100,000 posts for the memory, SQLite and PostgreSQL stores, side by
 * side: a typical posts list (type=post, status=publish, newest first, page 3 of 10 with a total), the same for
 * several statuses, an author's posts, a deep page, a text search, the change token, an insert, and updates.
 *
 *   node --import tsx test/bench/storage-sql.ts [posts] [--stores=memory,sqlite,postgres]
 *
 * The posts are loaded in transactions of 1,000. SQLite uses a file in a temporary folder. PostgreSQL uses
 * QUIRE_TEST_POSTGRES_URL, or a private server started from the Debian packages; without either its column is
 * left out.
 */
import { performance } from 'node:perf_hooks';
import type { ListQuery, StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { startTestPostgres } from '../storage/postgres-server.js';
import { benchPost, loadPosts, nextDate, onSqliteFile } from './records.js';

const POSTS = Number(process.argv.slice(2).find((argument) => /^\d+$/.test(argument)) ?? 100_000);
const STORES = (process.argv.find((argument) => argument.startsWith('--stores='))?.slice('--stores='.length) ?? 'memory,sqlite,postgres').split(',');
const RUNS = 500;
const SEARCH_RUNS = 20;

const typicalList: ListQuery = {
  where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }],
  orderBy: [{ field: 'date', direction: 'desc' }],
  offset: 20,
  limit: 10,
  withTotal: true,
};

const severalStatuses: ListQuery = {
  ...typicalList,
  where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'in', values: ['publish', 'draft', 'private', 'future'] }],
};

const byAuthor: ListQuery = {
  ...typicalList,
  where: [...typicalList.where!, { field: 'author', op: 'eq', value: 3 }],
};

const deepPage: ListQuery = { ...typicalList, offset: 5000 };

const search: ListQuery = {
  where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }],
  search: { fields: ['title', 'excerpt', 'content'], terms: ['number 4242'] },
  orderBy: [{ field: 'date', direction: 'desc' }],
  limit: 10,
  withTotal: true,
};


/** Median and 95th percentile of `runs` timed calls, in microseconds. */
async function time(runs: number, operation: (run: number) => Promise<unknown>): Promise<string> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await operation(run);
    samples.push((performance.now() - start) * 1000);
  }
  samples.sort((a, b) => a - b);
  return `${samples[Math.floor(runs / 2)]!.toFixed(0)} µs (p95 ${samples[Math.floor(runs * 0.95)]!.toFixed(0)})`;
}

/** Loads the posts, lets the store's own upkeep run (as it would soon after a bulk load), then times. */
async function measure(store: StoragePort, upkeep: () => Promise<unknown>): Promise<Map<string, string>> {
  const figures = new Map<string, string>();
  let start = performance.now();
  await loadPosts(store, POSTS);
  figures.set(`load ${POSTS.toLocaleString('en')} posts`, `${((performance.now() - start) / 1000).toFixed(1)} s`);
  await upkeep();
  start = performance.now();
  await store.list('posts', typicalList);
  figures.set('first list', `${((performance.now() - start) * 1000).toFixed(0)} µs`);
  figures.set('list page 3 with total', await time(RUNS, () => store.list('posts', typicalList)));
  figures.set('list page 3 without total', await time(RUNS, () => store.list('posts', { ...typicalList, withTotal: false })));
  figures.set('total only (limit 0)', await time(RUNS, () => store.list('posts', { ...typicalList, limit: 0 })));
  figures.set('four statuses, page 3 with total', await time(RUNS, () => store.list('posts', severalStatuses)));
  figures.set('one author, page 3 with total', await time(RUNS, () => store.list('posts', byAuthor)));
  figures.set('page 501 with total', await time(Math.min(RUNS, 100), () => store.list('posts', deepPage)));
  figures.set('change token', store.changeToken ? await time(RUNS, () => store.changeToken!()) : 'none');
  figures.set('search "number 4242" with total', await time(SEARCH_RUNS, () => store.list('posts', search)));
  figures.set('get by id', await time(RUNS, (run) => store.get('posts', 1 + ((run * 7919) % POSTS))));
  figures.set('insert', await time(RUNS, (run) => store.insert('posts', benchPost(POSTS + run))));
  figures.set('update (moves in date order)', await time(RUNS, (run) => store.update('posts', 1 + ((run * 7919) % POSTS), { date: nextDate() })));
  figures.set('update (title only)', await time(RUNS, (run) => store.update('posts', 1 + ((run * 104_729) % POSTS), { title: `Renamed ${run}` })));
  return figures;
}

const columns = new Map<string, Map<string, string>>();

if (STORES.includes('memory')) columns.set('memory', await measure(createMemoryStorage(), async () => {}));

if (STORES.includes('sqlite')) {
  columns.set('sqlite (file, WAL)', await onSqliteFile((sqlite) => measure(sqlite, async () => sqlite.database.pragma('optimize'))));
}

const postgres = STORES.includes('postgres')
  ? await startTestPostgres().catch((error: Error) => ({ skip: error.message }))
  : { skip: 'not asked for' };
if ('server' in postgres) {
  try {
    const store = await postgresStorage({ connectionString: postgres.server.connectionString, schema: 'bench' });
    // What autovacuum does shortly after a bulk load: statistics for the planner, and a visibility map so counts
    // read only the index (VACUUM can set it only once the load's commit is durable, hence the retries).
    const upkeep = async () => {
      for (let attempt = 0; attempt < 10; attempt++) {
        await store.pool.query('VACUUM ANALYZE bench.quire_records');
        const { rows } = await store.pool.query<{ visible: boolean }>(
          "SELECT relallvisible >= relpages AS visible FROM pg_class WHERE oid = 'bench.quire_records'::regclass");
        if (rows[0]?.visible) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    columns.set('postgresql (local socket)', await measure(store, upkeep));
    await store.close();
  } finally {
    await postgres.server.stop();
  }
} else {
  console.log(`PostgreSQL left out: ${postgres.skip}`);
}

const labels = [...columns.values().next().value!.keys()];
const labelWidth = Math.max(...labels.map((label) => label.length)) + 2;
const columnWidth = 28;
console.log(`${`${POSTS.toLocaleString('en')} posts`.padEnd(labelWidth)}${[...columns.keys()].map((name) => name.padEnd(columnWidth)).join('')}`);
for (const label of labels) {
  console.log(`${label.padEnd(labelWidth)}${[...columns.values()].map((figures) => (figures.get(label) ?? '').padEnd(columnWidth)).join('')}`);
}
