/**
 * Where image jobs run: a pool of worker threads by default, so decoding and encoding never hold up other
 * requests; on the main thread with `workers: 0` or where worker threads cannot start (edge runtimes, a
 * TypeScript entry without its loader). A full queue is answered with 503 `rest_upload_busy` and `Retry-After`.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { CmsError } from '../../core/errors.js';
import { loadCodec } from './codecs/index.js';
import { CODEC_NAMES, type CodecName } from './codecs/port.js';
import { PoolBusyError, PoolUnavailableError, WorkerPool } from '../../core/worker-pool.js';
import { render, type RenderJob, type RenderResult } from './render.js';
import { reviveError, type ImageJobMessage } from './work-protocol.js';

export interface ImageWorkOptions {
  /** `image-js` (pure JavaScript, the default) or `sharp` (libvips; install the `sharp` package). */
  codec?: CodecName;
  /** Worker threads for image work; default: the machine's cores less one, 1 to 4. 0 runs jobs on the main thread. */
  workers?: number;
  /** Jobs that may wait for a worker (default 8); more are refused with 503 `rest_upload_busy`. */
  queue?: number;
}

export interface ImageWork {
  readonly codec: CodecName;
  /** Worker threads at most; 0 when jobs run on the main thread. */
  readonly workers: number;
  render(job: RenderJob): Promise<RenderResult>;
  /** Starts a worker ahead of a job that is about to come (nothing when jobs run on the main thread). */
  warm(): void;
  /** Stops the workers (they also stop by themselves after a while without work). */
  close(): Promise<void>;
}

export const DEFAULT_IMAGE_QUEUE = 8;
/** Workers stop after this long without a job, handing their memory back. */
const IDLE_MS = 30_000;

/** The host asked for a codec that cannot be loaded here. */
export class ImageCodecUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageCodecUnavailableError';
  }
}

export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

function checkCodec(codec: unknown): CodecName {
  if (!CODEC_NAMES.includes(codec as CodecName)) {
    throw new ImageCodecUnavailableError(`images.codec must be one of ${CODEC_NAMES.join(', ')}, not ${JSON.stringify(codec)}.`);
  }
  if (codec === 'sharp') {
    try {
      createRequire(import.meta.url).resolve('sharp');
    } catch {
      throw new ImageCodecUnavailableError('The sharp image codec was asked for, but the sharp package is not installed (npm install sharp).');
    }
  }
  return codec as CodecName;
}

function count(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new ImageCodecUnavailableError(`images.${name} must be a whole number of at least 0.`);
  return value;
}

export function busyError(retryAfterSeconds: number): CmsError {
  const error = new CmsError('rest_upload_busy', 'The server is busy processing other images. Please try again shortly.', 503, {
    retry_after: retryAfterSeconds,
  });
  error.headers['Retry-After'] = String(retryAfterSeconds);
  return error;
}

/** Set by the bundled build (.ci/build.mjs): the worker module's path from any module of the build. */
declare const QUIRE_IMAGE_WORKER: string | undefined;

/**
 * The worker module: in the bundled build, where the build put it; from source, beside this module (`.ts` under
 * tsx, whose loader follows into workers; `.js` after a plain tsc build).
 */
function workerEntry(): URL {
  if (typeof QUIRE_IMAGE_WORKER === 'string') return new URL(QUIRE_IMAGE_WORKER, import.meta.url);
  return new URL(`./pool/worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
}

export function createImageWork(options: ImageWorkOptions = {}): ImageWork {
  const codec = checkCodec(options.codec ?? 'image-js');
  const workers = count(options.workers, defaultWorkerCount(), 'workers');
  const queue = count(options.queue, DEFAULT_IMAGE_QUEUE, 'queue');
  const pool = workers > 0 ? new WorkerPool({ entry: workerEntry(), size: workers, maxQueue: queue, idleMs: IDLE_MS }) : null;

  const inProcess = async (job: RenderJob) => render(job, await loadCodec(codec));

  return {
    codec,
    workers,
    async render(job) {
      if (!pool) return inProcess(job);
      // The worker gets its own copy of the bytes (a Buffer's `slice` would share them): the caller keeps using them.
      const message: ImageJobMessage = { codec, job: { ...job, bytes: new Uint8Array(job.bytes) } };
      try {
        return (await pool.run(message, [message.job.bytes.buffer as ArrayBuffer])) as RenderResult;
      } catch (error) {
        if (error instanceof PoolBusyError) throw busyError(error.retryAfterSeconds);
        if (error instanceof PoolUnavailableError) return inProcess(job);
        if (error instanceof Error) throw error;
        throw reviveError(error as Record<string, unknown>);
      }
    },
    warm: () => pool?.warm(),
    close: async () => pool?.close(),
  };
}
