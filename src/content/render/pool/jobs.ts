/**
 * Rendering large content, and sanitising large HTML, off the main thread. Rendering is linear but costly on
 * dense text (smart quotes, primes, many short paragraphs): an 8 MiB post takes seconds, during which every other
 * request would wait; sanitising an author's 8 MiB of HTML takes about a second, in one call (the sanitiser keeps
 * its state across the document, so it cannot be split in turns). Texts over `OFF_THREAD_CHARACTERS` go to a
 * small pool of worker threads running the very same functions, so the result is byte-for-byte what the main
 * thread would make; smaller ones (all typical posts) are handled in place, where a worker's round trip would
 * cost more. Where worker threads are unavailable (some serverless runtimes), everything runs in place. A full
 * queue answers 503 `rest_render_busy`.
 */
import { availableParallelism } from 'node:os';
import { ChunkedText, chunkedTextOf, isTextBytes, textBytesInTurns, WHOLE_TEXT_CHARS } from '../../../core/chunked-text.js';
import { CmsError } from '../../../core/errors.js';
import { PoolBusyError, PoolUnavailableError, WorkerPool } from '../../../core/worker-pool.js';
import { sanitizePostHtml, sanitizeTitleHtml } from '../../../format/kses/sanitize.js';
import { renderJob, runJob, type PoolJob, type RenderJob } from './render-job.js';

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
 * The job as a message: texts longer than `WHOLE_TEXT_CHARS` travel as their bytes, encoded in turns and handed
 * over (copying an 8 MiB string into a message holds the loop for tens of milliseconds in one call).
 */
async function messageOf(job: PoolJob): Promise<{ message: Record<string, unknown>; transfer: ArrayBuffer[] }> {
  const message: Record<string, unknown> = {};
  const transfer: ArrayBuffer[] = [];
  for (const [name, value] of Object.entries(job)) {
    if (typeof value === 'string' && value.length > WHOLE_TEXT_CHARS) {
      const bytes = await textBytesInTurns(value);
      transfer.push(bytes.bytes.buffer as ArrayBuffer);
      message[name] = bytes;
    } else {
      message[name] = value;
    }
  }
  return { message, transfer };
}

/**
 * What `job` makes, computed where the main thread does not wait for it. A very long result (over
 * `WHOLE_TEXT_CHARS`) comes back as a `ChunkedText`, read from the worker's bytes in turns.
 */
async function runOffThread(job: PoolJob, renderTeaser: (text: string) => string): Promise<string | ChunkedText> {
  pool ??= new WorkerPool({ entry: workerEntry(), size: Math.max(1, Math.min(2, availableParallelism() - 1)), maxQueue: QUEUE, idleMs: IDLE_MS });
  let value: unknown;
  try {
    const { message, transfer } = await messageOf(job);
    value = await pool.run(message, transfer);
  } catch (error) {
    if (error instanceof PoolUnavailableError) return runJob(job, renderTeaser);
    if (error instanceof PoolBusyError) {
      const doing = job.kind === 'sanitize' ? 'checking' : 'rendering';
      const busy = new CmsError('rest_render_busy', `The server is busy ${doing} other large content. Please try again shortly.`, 503, {
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

/** What `job` renders to, computed where the main thread does not wait for it. */
export function renderOffThread(job: RenderJob, renderTeaser: (text: string) => string): Promise<string | ChunkedText> {
  return runOffThread(job, renderTeaser);
}

/** What `job` renders to: in place when small (every typical text), else on a worker thread. */
export function renderWhereCheapest(job: RenderJob, renderTeaser: (text: string) => string): string | Promise<string | ChunkedText> {
  const characters = job.kind === 'content' ? job.raw.length : job.excerpt.length + job.content.length;
  return characters <= OFF_THREAD_CHARACTERS ? renderJob(job, renderTeaser) : renderOffThread(job, renderTeaser);
}

/**
 * Sanitising costs up to about 15 ms per 32 Ki characters of the densest markup (comments, styles) on a loaded
 * core, and a save may sanitise content and excerpt in one turn.
 */
export const SANITIZE_OFF_THREAD_CHARACTERS = 16 * 1024;

/**
 * `sanitizePostHtml(html)`: in place when small, else on a worker thread. The sanitised text is stored as one
 * string; read back from the worker's bytes in turns, it is joined only then.
 */
export function sanitizePostHtmlWhereCheapest(html: string): string | Promise<string> {
  if (html.length <= SANITIZE_OFF_THREAD_CHARACTERS) return sanitizePostHtml(html);
  return runOffThread({ kind: 'sanitize', rules: 'post', html }, (text) => text).then(String);
}

/** `sanitizeTitleHtml(html)`: in place when small (every real title), else on a worker thread. */
export function sanitizeTitleHtmlWhereCheapest(html: string): string | Promise<string> {
  if (html.length <= SANITIZE_OFF_THREAD_CHARACTERS) return sanitizeTitleHtml(html);
  return runOffThread({ kind: 'sanitize', rules: 'title', html }, (text) => text).then(String);
}
