/**
 * Rendering large content off the main thread. Rendering is linear but costly on dense text (smart quotes,
 * primes, many short paragraphs): an 8 MiB post takes seconds, during which every other request would wait.
 * Texts over `OFF_THREAD_CHARACTERS` render in a small pool of worker threads running the very same functions,
 * so the answer is byte-for-byte what the main thread would make; smaller ones (all typical posts) render in
 * place, where a worker's round trip would cost more than the rendering. Where worker threads are unavailable
 * (some serverless runtimes), everything renders in place. A full queue answers 503 `rest_render_busy`.
 */
import { availableParallelism } from 'node:os';
import { ChunkedText, chunkedTextOf, isTextBytes } from '../../../core/chunked-text.js';
import { CmsError } from '../../../core/errors.js';
import { PoolBusyError, PoolUnavailableError, WorkerPool } from '../../../core/worker-pool.js';
import { renderJob, type RenderJob } from './render-job.js';

export type { RenderJob } from './render-job.js';

/** About 30 ms of rendering on the densest shapes on a free core; typical posts are a few kilobytes. */
export const OFF_THREAD_CHARACTERS = 32 * 1024;
const QUEUE = 32;
const IDLE_MS = 30_000;

/** Set by the bundled build (.ci/build.mjs): the worker module's path from any module of the build. */
declare const QUIRE_RENDER_WORKER: string | undefined;

function workerEntry(): URL {
  if (typeof QUIRE_RENDER_WORKER === 'string') return new URL(QUIRE_RENDER_WORKER, import.meta.url);
  return new URL(`./worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
}

let pool: WorkerPool | null = null;

/**
 * What `job` renders to, computed where the main thread does not wait for it. A very long rendering (over
 * `WHOLE_TEXT_CHARS`) comes back as a `ChunkedText`, read from the worker's bytes in turns.
 */
export async function renderOffThread(job: RenderJob, renderTeaser: (text: string) => string): Promise<string | ChunkedText> {
  pool ??= new WorkerPool({ entry: workerEntry(), size: Math.max(1, Math.min(2, availableParallelism() - 1)), maxQueue: QUEUE, idleMs: IDLE_MS });
  let value: unknown;
  try {
    value = await pool.run(job);
  } catch (error) {
    if (error instanceof PoolUnavailableError) return renderJob(job, renderTeaser);
    if (error instanceof PoolBusyError) {
      const busy = new CmsError('rest_render_busy', 'The server is busy rendering other large content. Please try again shortly.', 503, {
        retry_after: error.retryAfterSeconds,
      });
      busy.headers['Retry-After'] = String(error.retryAfterSeconds);
      throw busy;
    }
    if (error instanceof Error) throw error;
    throw new Error(`Rendering failed: ${(error as { message?: unknown })?.message}`);
  }
  return isTextBytes(value) ? chunkedTextOf(value) : value as string;
}

/** What `job` renders to: in place when small (every typical text), else on a worker thread. */
export function renderWhereCheapest(job: RenderJob, renderTeaser: (text: string) => string): string | Promise<string | ChunkedText> {
  const characters = job.kind === 'content' ? job.raw.length : job.excerpt.length + job.content.length;
  return characters <= OFF_THREAD_CHARACTERS ? renderJob(job, renderTeaser) : renderOffThread(job, renderTeaser);
}
