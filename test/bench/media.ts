/**
 * Uploading a 4000×3000 JPEG to the standalone server (the `-scaled` 2560 main file and the six registered sizes),
 * side by side with sharp (libvips) making the same files in a process of its own:
 *
 * - `quire (image-js)`: `quire serve` with the default pure-JavaScript codec;
 * - `quire (sharp codec)`: `quire serve --image-codec sharp`;
 * - `sharp (libvips)`: sharp alone, no server, the same seven files.
 *
 * For each: upload time (median and every run), idle RSS before the first upload and peak RSS (VmHWM) of the
 * process, and for the servers the latency of cheap reads (`GET /cms/v2/posts?per_page=1`, one every 20 ms,
 * open loop) sent while the uploads were processed: p50, p99 and max; and how long the server's main thread ran
 * and waited for a core during the uploads (a loaded machine shows as long waits beside short runs).
 *
 *   npm run build && node --import tsx test/bench/media.ts [runs] [--sides=image-js,sharp-codec,sharp]
 *
 * The servers run from dist/ (build first; BENCH_CLI=path/to/cli.js runs another build). Uploaded files go to
 * a temporary folder, deleted at the end.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const WIDTH = 4000;
const HEIGHT = 3000;
const READ_EVERY_MS = 20;
const PASSWORD = 'benchbenchbenchbench';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The server's entry: the built CLI, or another build's (BENCH_CLI), to compare before and after a change. */
const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist/js/cli.js');
const SIZES = [
  { name: 'medium', width: 300, height: 300, crop: false },
  { name: 'large', width: 1024, height: 1024, crop: false },
  { name: 'thumbnail', width: 150, height: 150, crop: true },
  { name: 'medium_large', width: 768, height: 0, crop: false },
  { name: '1536x1536', width: 1536, height: 1536, crop: false },
  { name: '2048x2048', width: 2048, height: 2048, crop: false },
];

interface SideResult {
  side: string;
  milliseconds: number[];
  idleRssMb: number;
  peakRssMb: number;
  files: number;
  reads: number[];
  /** Main thread of the server during the uploads: time run and time waited for a core. */
  mainRunMs?: number;
  mainWaitMs?: number;
}

/** A photo-like test picture: smooth gradients with some grain, so JPEG works as hard as on a real photo. */
async function makePhoto(): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  let seed = 7;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const grain = (seed >> 16) & 15;
      const index = (y * WIDTH + x) * 3;
      raw[index] = (x * 255) / WIDTH + grain;
      raw[index + 1] = (y * 255) / HEIGHT + grain;
      raw[index + 2] = 128 + 100 * Math.sin((x + y) / 200);
    }
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

/**
 * Milliseconds the main thread of a process has run and has waited for a core (run queue), from
 * /proc/<pid>/task/<pid>/schedstat (Linux): slow reads with little main-thread run time were waits for a core.
 */
function mainThreadSchedule(pid: number): { runMs: number; waitMs: number } {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
  return { runMs: run! / 1e6, waitMs: wait! / 1e6 };
}

/** Resident and peak resident memory of a process, from /proc (Linux). */
function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(codec: string | null, uploads: string): Promise<{ child: ChildProcess; base: string }> {
  const args = [CLI, 'serve', '--storage', 'memory', '--uploads', uploads, '--port', '0', '--admin-app-password', PASSWORD];
  if (codec) args.push('--image-codec', codec);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = /quire listening: (\S+)/.exec(text);
      if (match) resolve(match[1]!.replace(/\/$/, ''));
    });
    child.once('exit', (code) => reject(new Error(`the server exited with code ${code}`)));
  });
  return { child, base };
}

/** Reads sent every READ_EVERY_MS until stopped, each timed from its sending to its last byte. */
function startReads(base: string): () => Promise<number[]> {
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const started = performance.now();
    const read = fetch(`${base}/cms/v2/posts?per_page=1`)
      .then((response) => response.arrayBuffer())
      .then(() => void latencies.push(performance.now() - started));
    pending.add(read);
    void read.finally(() => pending.delete(read));
  }, READ_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await Promise.all(pending);
    return latencies;
  };
}

async function runServer(side: string, codec: string | null, photo: Uint8Array, runs: number): Promise<SideResult> {
  const uploads = mkdtempSync(join(tmpdir(), 'quire-bench-media-'));
  const { child, base } = await startServer(codec, uploads);
  try {
    const authorization = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
    // One authenticated read first, so the password hash is remembered before any upload is timed.
    await (await fetch(`${base}/cms/v2/users/me`, { headers: { authorization } })).arrayBuffer();
    await sleep(1000);
    const idle = memoryOf(child.pid!);
    const milliseconds: number[] = [];
    const reads: number[] = [];
    let files = 0;
    const scheduleBefore = mainThreadSchedule(child.pid!);
    for (let run = 0; run < runs; run++) {
      const stopReads = startReads(base);
      const started = performance.now();
      const response = await fetch(`${base}/cms/v2/media`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'image/jpeg', 'content-disposition': `attachment; filename="photo-${run}.jpg"` },
        body: photo,
      });
      const body = (await response.json()) as { media_details?: { sizes?: Record<string, unknown>; original_image?: string } };
      milliseconds.push(performance.now() - started);
      reads.push(...(await stopReads()));
      if (response.status !== 201) throw new Error(`${side}: upload failed with ${response.status}: ${JSON.stringify(body)}`);
      // The response lists the main file as `full` among the sizes.
      const sizes = Object.keys(body.media_details?.sizes ?? {}).filter((name) => name !== 'full');
      files = 1 + (body.media_details?.original_image ? 1 : 0) + sizes.length;
    }
    const scheduleAfter = mainThreadSchedule(child.pid!);
    return {
      side, milliseconds, idleRssMb: idle.rssMb, peakRssMb: memoryOf(child.pid!).peakMb, files, reads,
      mainRunMs: scheduleAfter.runMs - scheduleBefore.runMs, mainWaitMs: scheduleAfter.waitMs - scheduleBefore.waitMs,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(uploads, { recursive: true, force: true });
  }
}

/** Child process: sharp alone makes the same seven files from the photo at `path`. */
async function sharpChild(path: string, runs: number): Promise<void> {
  const sharp = (await import('sharp')).default;
  const photo = readFileSync(path);
  await sleep(200);
  const idle = memoryOf(process.pid);
  const milliseconds: number[] = [];
  let files = 0;
  for (let run = 0; run < runs; run++) {
    const stored = new Map<string, Buffer>();
    const started = performance.now();
    stored.set('photo.jpg', Buffer.from(photo));
    stored.set('photo-scaled.jpg', await sharp(photo).rotate().resize(2560, 2560, { fit: 'inside' }).jpeg({ quality: 82 }).toBuffer());
    for (const size of SIZES) {
      const pipeline = size.crop
        ? sharp(photo).rotate().resize(size.width, size.height, { fit: 'cover', position: 'centre' })
        : sharp(photo).rotate().resize(size.width || undefined, size.height || undefined, { fit: 'inside' });
      stored.set(`photo-${size.name}.jpg`, await pipeline.jpeg({ quality: 82 }).toBuffer());
    }
    milliseconds.push(performance.now() - started);
    files = stored.size;
  }
  const result: SideResult = { side: 'sharp (libvips)', milliseconds, idleRssMb: idle.rssMb, peakRssMb: memoryOf(process.pid).peakMb, files, reads: [] };
  process.send!(result);
}

function runSharp(path: string, runs: number): Promise<SideResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--sharp-child', path, String(runs)], { execArgv: ['--import', 'tsx'] });
    child.once('message', (message) => resolve(message as SideResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the sharp run exited with ${code}`));
    });
  });
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const percentile = (values: number[], p: number) => (values.length === 0 ? NaN : sorted(values)[Math.min(values.length - 1, Math.floor(values.length * p))]!);
const round = (value: number) => (Number.isNaN(value) ? '—' : Math.round(value));

async function main(): Promise<void> {
  const childIndex = process.argv.indexOf('--sharp-child');
  if (childIndex !== -1) {
    await sharpChild(process.argv[childIndex + 1]!, Number(process.argv[childIndex + 2]));
    return;
  }
  const runs = Math.max(1, Number(process.argv.slice(2).find((argument) => /^\d+$/.test(argument)) ?? 3));
  const sides = (process.argv.find((argument) => argument.startsWith('--sides='))?.slice('--sides='.length) ?? 'image-js,sharp-codec,sharp').split(',');
  if (sides.some((side) => side !== 'sharp') && !existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first');

  const photo = await makePhoto();
  const folder = mkdtempSync(join(tmpdir(), 'quire-bench-photo-'));
  const path = join(folder, 'photo.jpg');
  writeFileSync(path, photo);
  console.log(`Upload of a ${WIDTH}×${HEIGHT} JPEG (${(photo.byteLength / 1048576).toFixed(2)} MB) with a -scaled copy and ${SIZES.length} sizes, ${runs} run(s) each\n`);

  const results: SideResult[] = [];
  try {
    for (const side of sides) {
      if (side === 'image-js') results.push(await runServer('quire (image-js)', null, new Uint8Array(photo), runs));
      else if (side === 'sharp-codec') results.push(await runServer('quire (sharp codec)', 'sharp', new Uint8Array(photo), runs));
      else if (side === 'sharp') results.push(await runSharp(path, runs));
      else throw new Error(`unknown side ${side}`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const sharpTime = results.find((result) => result.side.startsWith('sharp'));
  console.table(results.map((result) => ({
    side: result.side,
    'median ms': round(percentile(result.milliseconds, 0.5)),
    'all runs ms': result.milliseconds.map((value) => Math.round(value)).join(' / '),
    '× sharp': sharpTime ? (percentile(result.milliseconds, 0.5) / percentile(sharpTime.milliseconds, 0.5)).toFixed(1) : '—',
    'idle RSS MB': round(result.idleRssMb),
    'peak RSS MB': round(result.peakRssMb),
    files: result.files,
    'reads p50 ms': round(percentile(result.reads, 0.5)),
    'reads p99 ms': round(percentile(result.reads, 0.99)),
    'reads max ms': round(percentile(result.reads, 1)),
    reads: result.reads.length,
    'main run/wait ms': result.mainRunMs === undefined ? '—' : `${Math.round(result.mainRunMs)} / ${Math.round(result.mainWaitMs!)}`,
  })));
  console.log(`load average at the end: ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
}

await main();
