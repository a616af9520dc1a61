/**
 * A posts list through the whole interface at scale: `GET /cms/v2/posts?per_page=10&page=3` answered in-process
 * (no response cache, so every call reads the store and shapes the answer) over 100,000 posts, on the memory,
 * SQLite and PostgreSQL stores side by side, with the anonymous total in `X-WP-Total`.
 *
 *   node --import tsx test/bench/list-scale.ts [posts] [--stores=memory,sqlite,postgres]
 *
 * The posts are loaded straight into the store in transactions of 1,000. PostgreSQL uses
 * QUIRE_TEST_POSTGRES_URL, or a private server started from the Debian packages; without either its column is
 * left out. PostgreSQL is measured twice: right after the load, and after `VACUUM ANALYZE` (what autovacuum
 * does soon after an import; index-only scans then skip the table).
 */
import { performance } from 'node:perf_hooks';
import { createCms } from '../../src/index.js';
import type { StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { startTestPostgres } from '../storage/postgres-server.js';
import { loadPosts, onSqliteFile } from './records.js';

const POSTS = Number(process.argv.slice(2).find((argument) => /^\d+$/.test(argument)) ?? 100_000);
const STORES = (process.argv.find((argument) => argument.startsWith('--stores='))?.slice('--stores='.length) ?? 'memory,sqlite,postgres').split(',');
const RUNS = 300;

const REQUESTS = [
  ['posts page 3', '/cms/v2/posts', { per_page: '10', page: '3' }],
  ['one author, page 3', '/cms/v2/posts', { per_page: '10', page: '3', author: '3' }],
  ['one category', '/cms/v2/posts', { per_page: '10', categories: '2' }],
  ['page 100', '/cms/v2/posts', { per_page: '10', page: '100' }],
] as const;

async function measure(store: StoragePort, loaded = false): Promise<Map<string, string>> {
  const figures = new Map<string, string>();
  if (!loaded) {
    const start = performance.now();
    await loadPosts(store, POSTS);
    figures.set('load', `${((performance.now() - start) / 1000).toFixed(1)} s`);
  }
  const cms = createCms({ storage: store, responseCache: false });
  for (const [label, routePath, query] of REQUESTS) {
    const samples: number[] = [];
    let total = '';
    for (let run = 0; run < RUNS; run++) {
      const began = performance.now();
      const answer = await cms.handle({ method: 'GET', path: routePath, query: { ...query }, headers: {} });
      samples.push(performance.now() - began);
      if (answer.status !== 200) throw new Error(`${label}: ${answer.status} ${JSON.stringify(answer.body)}`);
      total = String(answer.headers['X-WP-Total']);
    }
    samples.sort((a, b) => a - b);
    figures.set(label, `${samples[RUNS >> 1]!.toFixed(2)} ms (p95 ${samples[Math.floor(RUNS * 0.95)]!.toFixed(2)}; total ${total})`);
  }
  return figures;
}

const columns = new Map<string, Map<string, string>>();
if (STORES.includes('memory')) columns.set('memory', await measure(createMemoryStorage()));
if (STORES.includes('sqlite')) columns.set('sqlite (file, WAL)', await onSqliteFile(measure));
const postgres = STORES.includes('postgres')
  ? await startTestPostgres().catch((error: Error) => ({ skip: error.message }))
  : { skip: 'not asked for' };
if ('server' in postgres) {
  try {
    const store = await postgresStorage({ connectionString: postgres.server.connectionString, schema: 'bench' });
    columns.set('postgresql (local socket)', await measure(store));
    await store.pool.query(`VACUUM ANALYZE "${store.schema}".quire_records, "${store.schema}".quire_members`);
    columns.set('postgresql, vacuumed', await measure(store, true));
    await store.close();
  } finally {
    await postgres.server.stop();
  }
} else {
  console.log(`PostgreSQL left out: ${postgres.skip}`);
}

console.log(`GET through createCms().handle, ${POSTS.toLocaleString('en')} posts, no response cache, median of ${RUNS}`);
for (const [store, figures] of columns) {
  console.log(`\n${store}`);
  for (const [label, figure] of figures) console.log(`  ${label.padEnd(22)} ${figure}`);
}
