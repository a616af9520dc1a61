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
import { renderContent } from '../content.js';
import { renderExcerpt } from '../excerpt.js';

/** About 30 ms of rendering on the densest shapes on a free core; typical posts are a few kilobytes. */
export const OFF_THREAD_CHARACTERS = 32 * 1024;
const QUEUE = 32;
const IDLE_MS = 30_000;

export type RenderJob =
  | { kind: 'content'; raw: string }
  | { kind: 'excerpt'; excerpt: string; content: string; excerptLength: number | undefined };

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
    if (error instanceof PoolUnavailableError) return renderInPlace(job, renderTeaser);
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

function renderInPlace(job: RenderJob, renderTeaser: (text: string) => string): string {
  return job.kind === 'content'
    ? renderContent(job.raw)
    : renderExcerpt(job.excerpt, job.content, { excerptLength: job.excerptLength, renderTeaser });
}
