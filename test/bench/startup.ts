/**
 * What a host pays before the first request, each figure from fresh processes:
 *
 * - `import('quire')`: wall and CPU milliseconds, median of several processes, and the process's RSS after it;
 * - `createCms()` with no options (memory store): wall and CPU milliseconds, and RSS after it;
 * - the idle standalone server (`quire serve` on the embedded default store, SQLite, uploads in a folder): the
 *   wall time from its spawn until it listens and the process's CPU time then (all threads, in clock ticks of
 *   10 ms), and RSS 3 s and 12 s after it listens, with no request made (V8 gives back young-generation memory
 *   after some 10 s idle); on a new store (it creates the administrator) and again on the same store;
 * - beside bare node: `node -e ''`'s wall time and RSS, and the RSS of a plain node HTTP server after one garbage
 *   collection (the floor under any idle node server).
 *
 *   npm run bench:startup [-- runs]
 *
 * Runs dist/ (`npm run bench:startup` builds first). BENCH_ENTRY=path/to/index.js and BENCH_CLI=path/to/cli.js
 * measure another build, to compare before and after a change. CPU time is the steadier figure on a busy machine.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = process.env.BENCH_ENTRY ?? join(ROOT, 'dist/js/index.js');
const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist/js/cli.js');
const RUNS = Number(process.argv[2] ?? 9);
/** When the idle server's RSS is read, after it listens. */
const IDLE_READINGS_MS = [3000, 12000];
const SERVER_RUNS = 3;

interface Sample {
  importMs: number;
  importCpuMs: number;
  importRssMb: number;
  createMs: number;
  createCpuMs: number;
  createRssMb: number;
}

const PROBE = `
const cpu = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; };
const rss = () => process.memoryUsage().rss / 1e6;
let wall = performance.now(), used = cpu();
const { createCms } = await import(${JSON.stringify(pathToFileURL(ENTRY).href)});
const importMs = performance.now() - wall, importCpuMs = cpu() - used, importRssMb = rss();
wall = performance.now(); used = cpu();
createCms();
console.log(JSON.stringify({ importMs, importCpuMs, importRssMb, createMs: performance.now() - wall, createCpuMs: cpu() - used, createRssMb: rss() }));`;

const run = promisify(execFile);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function bareNode(): Promise<{ ms: number; rssMb: number }> {
  const times: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const { stdout } = await run(process.execPath, ['-e', 'console.log(process.memoryUsage().rss / 1e6)']);
    times.push(performance.now() - started);
    sizes.push(Number(stdout));
  }
  return { ms: median(times), rssMb: median(sizes) };
}

/**
 * A plain node HTTP server after one garbage collection, 3 s idle: the floor under any idle node server here.
 * `node -e ''` never collects or compiles optimised code; the first of either maps some megabytes more of the
 * node binary's code.
 */
const PLAIN_SERVER = `require('node:http').createServer().listen(0, '127.0.0.1', () => {
  globalThis.gc();
  setTimeout(() => { console.log(process.memoryUsage().rss / 1e6); process.exit(0); }, ${IDLE_READINGS_MS[0]});
});`;

async function plainServerRss(): Promise<number> {
  const sizes: number[] = [];
  for (let i = 0; i < SERVER_RUNS; i++) {
    const { stdout } = await run(process.execPath, ['--expose-gc', '-e', PLAIN_SERVER]);
    sizes.push(Number(stdout));
  }
  return median(sizes);
}

async function importSamples(): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROBE], { cwd: ROOT });
    samples.push(JSON.parse(stdout) as Sample);
  }
  return samples;
}

/** The CPU time of process `pid` so far, all its threads, in milliseconds (Linux, clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]) / 1024;
}

interface ServerSample { listenMs: number; listenCpuMs: number; rssMb: number[] }

/** Starts `quire serve` in `folder`, waits until it listens, and measures it then and at each idle reading. */
async function idleServer(folder: string): Promise<ServerSample> {
  const spawned = performance.now();
  const server = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { cwd: folder, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      let output = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('quire listening:')) resolve();
      });
      server.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${output}`)));
    });
    const listening = performance.now();
    const listenCpuMs = cpuMsOf(server.pid!);
    const readings: number[] = [];
    for (const at of IDLE_READINGS_MS) {
      await new Promise((resolve) => setTimeout(resolve, at - (performance.now() - listening)));
      readings.push(rssOf(server.pid!));
    }
    return { listenMs: listening - spawned, listenCpuMs, rssMb: readings };
  } finally {
    server.kill();
    await new Promise((resolve) => server.once('exit', resolve));
  }
}

async function serverSamples(): Promise<{ fresh: ServerSample[]; existing: ServerSample[] }> {
  const fresh: ServerSample[] = [];
  const existing: ServerSample[] = [];
  for (let i = 0; i < SERVER_RUNS; i++) {
    const folder = mkdtempSync(join(tmpdir(), 'quire-startup-'));
    try {
      fresh.push(await idleServer(folder));
      existing.push(await idleServer(folder));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return { fresh, existing };
}

const format = (value: number) => value.toFixed(1).padStart(7);

console.log(`entry ${ENTRY}\ncli   ${CLI}\n${RUNS} fresh processes each; medians\n`);
const bare = await bareNode();
console.log(`bare node -e ''          ${format(bare.ms)} ms wall                      rss ${format(bare.rssMb)} MB`);
console.log(`${`plain node http server, one GC, idle ${IDLE_READINGS_MS[0]! / 1000} s`.padEnd(58)}rss ${format(await plainServerRss())} MB`);
const samples = await importSamples();
const pick = (key: keyof Sample) => median(samples.map((sample) => sample[key]));
console.log(`import('quire')          ${format(pick('importMs'))} ms wall ${format(pick('importCpuMs'))} ms cpu   rss ${format(pick('importRssMb'))} MB`);
console.log(`createCms()              ${format(pick('createMs'))} ms wall ${format(pick('createCpuMs'))} ms cpu   rss ${format(pick('createRssMb'))} MB`);
const server = await serverSamples();
for (const [label, samples] of [['new store', server.fresh], ['same store again', server.existing]] as const) {
  const listenMs = samples.map((sample) => sample.listenMs);
  const listenCpuMs = samples.map((sample) => sample.listenCpuMs);
  const listed = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
  console.log(`${`quire serve, ${label}, until it listens`.padEnd(42)}${format(median(listenMs))} ms wall ${format(median(listenCpuMs))} ms cpu   (${listed(listenMs)}; ${listed(listenCpuMs)})`);
  IDLE_READINGS_MS.forEach((at, index) => {
    const values = samples.map((sample) => sample.rssMb[index]!);
    const name = `quire serve, ${label}, idle ${at / 1000} s`.padEnd(58);
    console.log(`${name}rss ${format(median(values))} MB  (${values.map((value) => value.toFixed(1)).join(', ')})`);
  });
}
