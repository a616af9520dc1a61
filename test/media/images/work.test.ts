import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CmsError } from '../../../src/core/errors.js';
import { PoolUnavailableError, WorkerPool } from '../../../src/core/worker-pool.js';
import { WORKER_NICE } from '../../../src/media/images/pool/priority.js';
import type { RenderJob } from '../../../src/media/images/render.js';
import { creationOrder, DEFAULT_IMAGE_SIZES } from '../../../src/media/images/sizes.js';
import { createImageWork, type ImageWork } from '../../../src/media/images/work.js';
import { jpeg, makeMediaSite, noise, png, quarters, uploadRaw } from '../helpers.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const big = jpeg(quarters(1600, 1200));

function job(bytes: Uint8Array, extra: Partial<RenderJob> = {}): RenderJob {
  return {
    bytes, type: 'image/jpeg', orientation: 1, main: true, sizes: creationOrder(DEFAULT_IMAGE_SIZES), bigImageThreshold: 1000,
    output: { type: 'image/jpeg', quality: 82 }, ...extra,
  };
}

/** Whether a 20 ms timer set when the job starts fires before the job ends: the event loop stayed free. */
async function loopRanDuring(work: ImageWork, input: RenderJob): Promise<boolean> {
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
  }, 20);
  const done = work.render(input).then(() => fired);
  const result = await done;
  clearTimeout(timer);
  return result;
}

// One worker for most cases: starting one from TypeScript sources takes a few seconds.
const threads = createImageWork({ workers: 1, queue: 0 });
after(() => threads.close());

describe('image work', () => {
  it('runs jobs in a worker thread (from TypeScript sources too) while the event loop serves, and on it with workers: 0', async () => {
    await threads.render(job(png(quarters(20, 20)), { type: 'image/png' }));
    assert.equal(await loopRanDuring(threads, job(big)), true);
    const mainThread = createImageWork({ workers: 0 });
    await mainThread.render(job(png(quarters(20, 20)), { type: 'image/png' }));
    assert.equal(await loopRanDuring(mainThread, job(big)), false);
  });

  it('leaves the caller its bytes, Buffers included', async () => {
    const work = threads;
    const bytes = Buffer.from(jpeg(quarters(64, 48)));
    const copy = Buffer.from(bytes);
    const result = await work.render(job(bytes, { sizes: [['small', { width: 32, height: 32, crop: true }]] }));
    assert.deepEqual([result.sizes[0]?.width, result.sizes[0]?.height], [32, 32]);
    assert.ok(bytes.equals(copy));
  });

  it('reports decode and editor errors from the worker as their own kinds', async () => {
    const work = threads;
    await assert.rejects(work.render(job(big.slice(0, 2000))), { name: 'ImageDecodeError' });
    const edit = { modifiers: [{ type: 'crop' as const, args: { left: 0, top: 0, width: 0, height: 10 } }], type: 'image/png', quality: 82 };
    await assert.rejects(work.render(job(png(quarters(20, 20)), { type: 'image/png', edit })), { name: 'ModifierError', kind: 'crop' });
  });

  it('refuses a job when the queue is full with 503 rest_upload_busy and Retry-After', async () => {
    const work = threads;
    const first = work.render(job(big));
    const refused = await work.render(job(big)).then(() => null, (error: unknown) => error);
    assert.ok(refused instanceof CmsError);
    assert.equal(refused.code, 'rest_upload_busy');
    assert.equal(refused.status, 503);
    assert.match(refused.headers['Retry-After'] ?? '', /^[1-9]\d*$/);
    await first;
    // Room again once the running job is done.
    await work.render(job(png(quarters(20, 20)), { type: 'image/png' }));
  });

  it('answers an upload beyond the queue with the 503 and stores nothing for it', async () => {
    const site = await makeMediaSite({ images: { workers: 1, queue: 0 } });
    const photo = jpeg(noise(900, 600), 80);
    const [a, b] = await Promise.all([
      uploadRaw(site, { name: 'a.jpg', type: 'image/jpeg', bytes: photo }),
      uploadRaw(site, { name: 'b.jpg', type: 'image/jpeg', bytes: photo }),
    ]);
    const busy = a.status === 503 ? a : b;
    const made = a.status === 503 ? b : a;
    assert.equal(made.status, 201);
    assert.equal(busy.status, 503);
    assert.equal(busy.json.code, 'rest_upload_busy');
    assert.equal(busy.json.data.status, 503);
    assert.match(String(busy.headers['Retry-After']), /^[1-9]\d*$/);
    const stored = (await site.blobs.list('2026/11/')).map((blob) => blob.key);
    assert.ok(stored.length > 0 && stored.every((key) => !key.startsWith(`2026/11/${busy === a ? 'a' : 'b'}`)), stored.join(', '));
    await site.cms.deps.uploads.images.work.close();
  });

  it('tells the caller when workers cannot start, for the main-thread fallback', async () => {
    const pool = new WorkerPool({ entry: new URL('./no-such-worker.js', import.meta.url), size: 1, maxQueue: 1, idleMs: 1000 });
    await assert.rejects(pool.run({}), PoolUnavailableError);
    await assert.rejects(pool.run({}), PoolUnavailableError);
  });

  it('starts a worker ahead of the first job on warm(), and the job runs on it', async () => {
    const entry = new URL('../../../src/media/images/pool/worker.ts', import.meta.url);
    const pool = new WorkerPool({ entry, size: 2, maxQueue: 1, idleMs: 60_000 });
    try {
      pool.warm();
      pool.warm();
      for (let waited = 0; pool.workerCount === 0 && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(pool.workerCount, 1);
      const result = (await pool.run({ codec: 'image-js', job: job(png(quarters(20, 20)), { type: 'image/png', sizes: [] }) })) as { width: number };
      assert.equal(result.width, 20);
      assert.equal(pool.workerCount, 1);
    } finally {
      await pool.close();
    }
  });

  it('makes the unavailability known on warm() when workers cannot start', async () => {
    const pool = new WorkerPool({ entry: new URL('./no-such-worker.js', import.meta.url), size: 1, maxQueue: 1, idleMs: 1000 });
    pool.warm();
    await assert.rejects(pool.run({}), PoolUnavailableError);
    assert.equal(pool.workerCount, 0);
    pool.warm();
    assert.equal(pool.workerCount, 0);
  });

  it('runs image workers at a lower priority than the main thread (Linux)', async () => {
    await threads.render(job(png(quarters(20, 20)), { type: 'image/png' }));
    const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    // A thread may end between listing and reading (node's own helpers come and go).
    const nices = readdirSync('/proc/self/task').flatMap((tid) => {
      try {
        return [niceOf(tid)];
      } catch {
        return [];
      }
    });
    assert.equal(niceOf(String(process.pid)), 0);
    assert.ok(nices.includes(WORKER_NICE), `thread nice values: ${nices.join(' ')}`);
  });

  it('refuses an unknown codec, and the sharp codec clearly when sharp is not installed', async () => {
    assert.throws(() => createImageWork({ codec: 'vips' as never }), { name: 'ImageCodecUnavailableError' });
    assert.throws(() => createImageWork({ workers: -1 }), { name: 'ImageCodecUnavailableError' });
    // A process where `sharp` cannot be resolved.
    const hide = `import Module from 'node:module';
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'sharp') throw Object.assign(new Error("Cannot find module 'sharp'"), { code: 'MODULE_NOT_FOUND' });
  return resolve.call(this, request, ...rest);
};`;
    const script = `${hide}
const { createCms } = await import(${JSON.stringify(`${ROOT}src/index.ts`)});
try { createCms({ images: { codec: 'sharp' } }); console.log('created'); } catch (error) { console.log(error.name + ': ' + error.message); }
createCms({ images: { codec: 'image-js' } });
console.log('default ok');`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT });
    assert.match(stdout, /^ImageCodecUnavailableError: The sharp image codec was asked for, but the sharp package is not installed \(npm install sharp\)\.$/m);
    assert.match(stdout, /^default ok$/m);
  });

  it('runs its workers from the built package without a TypeScript loader', async () => {
    const entry = `${ROOT}dist/js/index.js`;
    assert.ok(existsSync(entry), 'dist/ is missing: run `npm run build` (npm test does) first');
    const script = `
const { createCms } = await import(${JSON.stringify(entry)});
const { encodeJpeg, Image } = await import('image-js');
const cms = createCms({ site: { url: 'http://example.test' }, images: { workers: 1 } });
const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
const image = new Image(2600, 1000, { colorModel: 'RGB' }).fill([200, 100, 50]);
const body = Buffer.from(encodeJpeg(image, { quality: 80 }));
let fired = false;
setTimeout(() => { fired = true; }, 20);
const response = await cms.handle({ method: 'POST', path: '/cms/v2/media', body, user: { id: admin.id },
  headers: { 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="built.jpg"' } });
const details = JSON.parse(new TextDecoder().decode(response.body instanceof Uint8Array ? response.body : new TextEncoder().encode(JSON.stringify(response.body)))).media_details;
console.log(JSON.stringify({ status: response.status, fired, file: details.file, sizes: Object.keys(details.sizes) }));
await cms.deps.uploads.images.work.close();`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    const outcome = JSON.parse(stdout.trim().split('\n').pop()!);
    assert.equal(outcome.status, 201);
    assert.equal(outcome.fired, true, 'the event loop was held up during the upload');
    assert.match(outcome.file, /built-scaled\.jpg$/);
    assert.deepEqual(outcome.sizes.sort(), ['1536x1536', '2048x2048', 'full', 'large', 'medium', 'medium_large', 'thumbnail']);
  });
});
