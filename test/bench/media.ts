/**
 * Uploading a 4000×3000 JPEG and making all its files (the 2560 `-scaled` main file and the six registered
 * sizes), measured twice: through quire (image-js, pure JavaScript) and with sharp (libvips) doing the same work
 * on the same picture. Each side runs in its own process so its peak memory is its own.
 *
 *   node --import tsx test/bench/media.ts [runs]
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const WIDTH = 4000;
const HEIGHT = 3000;
const SIZES = [
  { name: 'medium', width: 300, height: 300, crop: false },
  { name: 'large', width: 1024, height: 1024, crop: false },
  { name: 'thumbnail', width: 150, height: 150, crop: true },
  { name: 'medium_large', width: 768, height: 0, crop: false },
  { name: '1536x1536', width: 1536, height: 1536, crop: false },
  { name: '2048x2048', width: 2048, height: 2048, crop: false },
];

interface Result {
  side: string;
  milliseconds: number[];
  peakRssMb: number;
  files: number;
}

/** A photo-like test picture: smooth gradients with some texture, so JPEG works as hard as on a real photo. */
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

async function runQuire(photo: Uint8Array, runs: number): Promise<Omit<Result, 'peakRssMb'>> {
  const { createCms } = await import('../../src/cms.js');
  const { createMemoryBlobStore } = await import('../../src/storage/blobs/memory.js');
  const milliseconds: number[] = [];
  let files = 0;
  for (let run = 0; run < runs; run++) {
    const blobs = createMemoryBlobStore();
    const cms = createCms({ blobs, site: { url: 'http://example.test' } });
    const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
    const started = performance.now();
    const response = await cms.handle({
      method: 'POST',
      path: '/cms/v2/media',
      headers: { 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="photo.jpg"' },
      body: photo,
      user: { id: admin.id },
    });
    milliseconds.push(performance.now() - started);
    if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.body)}`);
    files = blobs.size;
  }
  return { side: 'quire (image-js)', milliseconds, files };
}

async function runSharp(photo: Uint8Array, runs: number): Promise<Omit<Result, 'peakRssMb'>> {
  const sharp = (await import('sharp')).default;
  const milliseconds: number[] = [];
  let files = 0;
  for (let run = 0; run < runs; run++) {
    const stored = new Map<string, Buffer>();
    const started = performance.now();
    stored.set('photo.jpg', Buffer.from(photo));
    stored.set('photo-scaled.jpg', await sharp(photo).resize(2560, 2560, { fit: 'inside' }).jpeg({ quality: 82 }).toBuffer());
    for (const size of SIZES) {
      const pipeline = size.crop
        ? sharp(photo).resize(size.width, size.height, { fit: 'cover', position: 'centre' })
        : sharp(photo).resize(size.width || undefined, size.height || undefined, { fit: 'inside' });
      stored.set(`photo-${size.name}.jpg`, await pipeline.jpeg({ quality: 82 }).toBuffer());
    }
    milliseconds.push(performance.now() - started);
    files = stored.size;
  }
  return { side: 'sharp (libvips)', milliseconds, files };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function child(side: string, runs: number): Promise<void> {
  const photo = new Uint8Array(await makePhoto());
  const baseline = process.resourceUsage().maxRSS;
  const result = side === 'quire' ? await runQuire(photo, runs) : await runSharp(photo, runs);
  const peak = process.resourceUsage().maxRSS;
  process.send!({ ...result, peakRssMb: peak / 1024, baselineRssMb: baseline / 1024, photoBytes: photo.byteLength });
}

function inChild(side: string, runs: number): Promise<Result & { baselineRssMb: number; photoBytes: number }> {
  return new Promise((resolve, reject) => {
    const worker = fork(fileURLToPath(import.meta.url), [`--side=${side}`, String(runs)], { execArgv: ['--import', 'tsx'] });
    worker.once('message', (message) => resolve(message as Result & { baselineRssMb: number; photoBytes: number }));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${side} run exited with ${code}`));
    });
  });
}

async function main(): Promise<void> {
  const sideArgument = process.argv.find((argument) => argument.startsWith('--side='));
  const runs = Math.max(1, Number(process.argv.find((argument) => /^\d+$/.test(argument)) ?? 3));
  if (sideArgument) {
    await child(sideArgument.slice('--side='.length), runs);
    return;
  }
  console.log(`Upload of a ${WIDTH}×${HEIGHT} JPEG with a -scaled copy and ${SIZES.length} sizes, ${runs} run(s) each\n`);
  const rows = [];
  for (const side of ['quire', 'sharp']) {
    const result = await inChild(side, runs);
    rows.push({
      side: result.side,
      'median ms': Math.round(median(result.milliseconds)),
      'all runs ms': result.milliseconds.map((value) => Math.round(value)).join(' / '),
      'peak RSS MB': Math.round(result.peakRssMb),
      'RSS before MB': Math.round(result.baselineRssMb),
      files: result.files,
    });
    if (side === 'quire') console.log(`source JPEG: ${(result.photoBytes / 1024 / 1024).toFixed(2)} MB`);
  }
  console.table(rows);
}

await main();
