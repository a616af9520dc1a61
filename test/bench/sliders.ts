/**
 * Slider read benchmark: `node --import tsx test/bench/sliders.ts` (or `npm run bench:sliders`).
 * Stores one slider of 200 slides with 50 layers each, then times `GET /slider/sliders/{id}` in-process
 * (`cms.handle()`), on memory and on an SQLite file in a temporary folder: the first read (which prepares the
 * slides), then the median and 95th percentile of later reads, with and without encoding the answer to bytes.
 * BENCH_READS (default 200) sets how many reads are timed; BENCH_SLIDES and BENCH_LAYERS change the slider.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCms, createMemoryStorage, encodeResponse, type StoragePort } from '../../src/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { sliderLayer as layer } from './slider-layer.js';

const READS = Number(process.env.BENCH_READS ?? 200);
const SLIDES = Number(process.env.BENCH_SLIDES ?? 200);
const LAYERS = Number(process.env.BENCH_LAYERS ?? 50);


let createMs = 0;

async function fill(storage: StoragePort): Promise<ReturnType<typeof createCms>> {
  const cms = createCms({ storage, site: { url: 'http://bench.test' } });
  const slides = Array.from({ length: SLIDES }, (_, slide) => ({
    slide: { title: `Slide ${slide}`, publish: { state: 'published', from: '', to: '' }, timeline: { duration: [700], easeIn: ['default'] } },
    layers: Array.from({ length: LAYERS }, (_, index) => layer(slide, index)),
  }));
  const start = performance.now();
  await cms.sliders.create({ alias: 'bench', title: 'Bench', settings: { general: { lazyLoad: 'none' }, source: { type: 'gallery' } }, slides });
  createMs = performance.now() - start;
  return cms;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

async function measure(label: string, storage: StoragePort): Promise<void> {
  const cms = await fill(storage);
  const request = { method: 'GET', path: '/slider/sliders/bench', query: '' };
  const firstStart = performance.now();
  const first = await cms.handle(request);
  const firstMs = performance.now() - firstStart;
  const bytes = encodeResponse(first).body?.byteLength ?? 0;
  const reads: number[] = [];
  const encoded: number[] = [];
  for (let index = 0; index < READS; index++) {
    const start = performance.now();
    const response = await cms.handle(request);
    const answered = performance.now();
    encodeResponse(response);
    const done = performance.now();
    reads.push(answered - start);
    encoded.push(done - start);
  }
  reads.sort((a, b) => a - b);
  encoded.sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  console.log(`${label}: ${SLIDES} slides x ${LAYERS} layers, answer ${(bytes / 1024 / 1024).toFixed(2)} MiB`);
  console.log(`  create (cms.sliders.create): ${ms(createMs)}`);
  console.log(`  first read (prepares the slides): ${ms(firstMs)}`);
  console.log(`  read (cms.handle): median ${ms(percentile(reads, 0.5))}, p95 ${ms(percentile(reads, 0.95))}`);
  console.log(`  read and encode to bytes: median ${ms(percentile(encoded, 0.5))}, p95 ${ms(percentile(encoded, 0.95))}`);
  await storage.close?.();
}

await measure('memory', createMemoryStorage());
const folder = mkdtempSync(path.join(tmpdir(), 'quire-sliders-bench-'));
try {
  await measure('SQLite file', sqliteStorage({ path: path.join(folder, 'bench.db') }));
} finally {
  rmSync(folder, { recursive: true, force: true });
}
