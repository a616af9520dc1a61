/**
 * What the SQLite store's first write after its writing thread stopped costs (it starts the thread again), beside
 * a write to a running thread: `node .ci/build.mjs --js && node --import tsx test/bench/writer-restart.ts [rounds]`.
 *
 * Each round, on one file, inserts a small post in three ways, alternating: right after another write (the thread
 * running, caches warm); after `GAP_MS` with no work on a store that never stops its thread (`writerIdleMs:
 * Infinity`: what the gap alone costs); and after `GAP_MS` on a store whose thread stopped meanwhile
 * (`writerIdleMs: IDLE_MS`). Printed are the medians and ranges of the insert's wall time and of the main
 * thread's CPU time within it (Linux). Runs dist/ (BENCH_ENTRY=path/to/sqlite.js measures another build).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = process.env.BENCH_ENTRY ?? join(ROOT, 'dist/js/sqlite.js');
const ROUNDS = Number(process.argv[2] ?? 15);
const IDLE_MS = 100;
const GAP_MS = 400;

type Store = { insert(collection: string, record: Record<string, unknown>): Promise<unknown>; close(): Promise<void> };
const { sqliteStorage } = await import(pathToFileURL(ENTRY).href) as { sqliteStorage(options: Record<string, unknown>): Store };

function mainThreadCpuMs(): number {
  return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed(store: Store, round: number): Promise<{ wallMs: number; cpuMs: number }> {
  const wall = performance.now();
  const cpu = mainThreadCpuMs();
  await store.insert('posts', { type: 'post', status: 'publish', title: `Post ${round}`, content: '<p>A short post.</p>' });
  return { wallMs: performance.now() - wall, cpuMs: mainThreadCpuMs() - cpu };
}

const folder = mkdtempSync(join(tmpdir(), 'quire-writer-restart-'));
const kinds = ['running, after a write', `running, after ${GAP_MS} ms idle`, `stopped (idle ${IDLE_MS} ms), after ${GAP_MS} ms`] as const;
const samples = new Map<string, { wallMs: number; cpuMs: number }[]>(kinds.map((kind) => [kind, []]));
try {
  const kept = sqliteStorage({ path: join(folder, 'kept.db'), writerIdleMs: Infinity });
  const stopping = sqliteStorage({ path: join(folder, 'stopping.db'), writerIdleMs: IDLE_MS });
  for (let warm = 0; warm < 20; warm++) {
    await timed(kept, -1);
    await timed(stopping, -1);
  }
  for (let round = 0; round < ROUNDS; round++) {
    await timed(kept, round);
    samples.get(kinds[0])!.push(await timed(kept, round));
    await sleep(GAP_MS);
    samples.get(kinds[1])!.push(await timed(kept, round));
    await sleep(GAP_MS);
    samples.get(kinds[2])!.push(await timed(stopping, round));
  }
  await kept.close();
  await stopping.close();
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const range = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
console.log(`entry ${ENTRY}\n${ROUNDS} rounds; a small post's insert\n`);
for (const kind of kinds) {
  const values = samples.get(kind)!;
  const walls = values.map((value) => value.wallMs);
  const cpus = values.map((value) => value.cpuMs);
  console.log(`${kind.padEnd(42)} wall ${median(walls).toFixed(2).padStart(7)} ms (${range(walls)})   main-thread cpu ${median(cpus).toFixed(2).padStart(6)} ms (${range(cpus)})`);
}
