/**
 * A small pool of worker threads for CPU-heavy jobs: at most `size` workers, started on demand and stopped after
 * `idleMs` without work (so an idle host holds no worker memory), a queue of at most `maxQueue` waiting jobs
 * beyond which `run` refuses at once with `PoolBusyError`. Idle workers do not keep the process alive.
 * Written on `node:worker_threads` directly: the needs are small and a library would add its own worker entry
 * between us and the TypeScript loader.
 */
import type { Worker as NodeWorker } from 'node:worker_threads';
import { startWorker } from '../format/worker-entry.js';

export interface PoolOptions {
  /** The worker's module. */
  entry: URL;
  size: number;
  maxQueue: number;
  idleMs: number;
  /** Loads `Worker` (a function so that runtimes without worker threads fail at the first job, not at import). */
  loadWorker?: () => Promise<typeof NodeWorker>;
}

/** The queue is full: the caller should answer "try again later". */
export class PoolBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many jobs are waiting.');
    this.name = 'PoolBusyError';
  }
}

/** Workers could not be started here (no worker threads, or the entry cannot be loaded). */
export class PoolUnavailableError extends Error {
  constructor(readonly reason: unknown) {
    super(`Worker threads are unavailable: ${reason instanceof Error ? reason.message : String(reason)}`);
    this.name = 'PoolUnavailableError';
  }
}

/**
 * What a worker says: `{ready: true}` once its module is loaded, then per job `{id, ok: true, value}` or
 * `{id, ok: false, error: {name, message, ...}}`.
 */
export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: Record<string, unknown> };

interface Job {
  id: number;
  message: unknown;
  transfer: ArrayBuffer[];
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

interface Slot {
  worker: NodeWorker;
  job: Job | null;
  /** Whether the worker said it is ready (a failure before that means workers cannot start here). */
  started: boolean;
  idleTimer: NodeJS.Timeout | null;
}

export class WorkerPool {
  readonly #options: PoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  #nextId = 1;
  #unavailable: PoolUnavailableError | null = null;
  #workerClass: Promise<typeof NodeWorker> | null = null;
  /** Recent job durations (ms), for the `Retry-After` estimate. */
  #averageMs = 2000;

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  /** Workers running or starting. */
  get workerCount(): number {
    return this.#slots.size;
  }

  get pending(): number {
    return this.#queue.length + [...this.#slots].filter((slot) => slot.job).length;
  }

  /** Runs one job; `transfer` lists buffers of `message` handed over to the worker (unusable here afterwards). */
  run(message: unknown, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.#unavailable) return Promise.reject(this.#unavailable);
    if (this.#queue.length >= this.#options.maxQueue + this.#room()) {
      return Promise.reject(new PoolBusyError(this.retryAfterSeconds()));
    }
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const job: Job = {
        id: this.#nextId++, message, transfer,
        resolve: (value) => {
          this.#averageMs = this.#averageMs * 0.7 + (performance.now() - started) * 0.3;
          resolve(value);
        },
        reject,
      };
      this.#queue.push(job);
      void this.#dispatch();
    });
  }

  /**
   * Starts a worker ahead of the first job when none is running or starting, so that its start (some tens of
   * milliseconds on its own thread) overlaps what the caller still does before `run`. It idles like any other.
   */
  warm(): void {
    if (this.#unavailable || this.#slots.size > 0) return;
    void this.#loadWorkerClass().then((Worker) => {
      if (!Worker || this.#unavailable || this.#slots.size > 0) return;
      try {
        this.#idle(this.#spawn(Worker));
      } catch (error) {
        this.#fail(new PoolUnavailableError(error));
      }
    });
  }

  /** Seconds until a refused caller could expect room: the queue's worth of average jobs per worker. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.pending * this.#averageMs) / this.#options.size / 1000));
  }

  /** Stops every worker; queued and running jobs fail. */
  async close(): Promise<void> {
    const closed = new Error('The worker pool was closed.');
    for (const job of this.#queue.splice(0)) job.reject(closed);
    await Promise.all([...this.#slots].map((slot) => this.#stop(slot, closed)));
  }

  /** Jobs that could start now: idle workers and workers not yet started. */
  #room(): number {
    return [...this.#slots].filter((slot) => !slot.job).length + this.#options.size - this.#slots.size;
  }

  /** The `Worker` class, or null once loading it failed (the pool is then unavailable). */
  async #loadWorkerClass(): Promise<typeof NodeWorker | null> {
    try {
      this.#workerClass ??= this.#options.loadWorker?.() ?? import('node:worker_threads').then((module) => module.Worker);
      return await this.#workerClass;
    } catch (error) {
      this.#fail(new PoolUnavailableError(error));
      return null;
    }
  }

  async #dispatch(): Promise<void> {
    const Worker = await this.#loadWorkerClass();
    if (!Worker) return;
    while (this.#queue.length > 0 && !this.#unavailable) {
      let slot = [...this.#slots].find((candidate) => !candidate.job);
      if (!slot) {
        if (this.#slots.size >= this.#options.size) return;
        try {
          slot = this.#spawn(Worker);
        } catch (error) {
          this.#fail(new PoolUnavailableError(error));
          return;
        }
      }
      const job = this.#queue.shift()!;
      slot.job = job;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, message: job.message }, job.transfer);
    }
  }

  #spawn(Worker: typeof NodeWorker): Slot {
    const { entry } = this.#options;
    const worker = startWorker(Worker, entry);
    const slot: Slot = { worker, job: null, started: false, idleTimer: null };
    this.#slots.add(slot);
    worker.on('message', (reply: WorkerReply | { ready: true }) => {
      if ('ready' in reply) slot.started = true;
      else this.#answer(slot, reply);
    });
    worker.on('error', (error) => this.#crash(slot, error));
    worker.on('exit', (code) => this.#crash(slot, new Error(`The image worker stopped (exit code ${code}).`)));
    return slot;
  }

  #answer(slot: Slot, reply: WorkerReply): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    slot.job = null;
    if (reply.ok) job.resolve(reply.value);
    else job.reject(reply.error);
    this.#idle(slot);
    void this.#dispatch();
  }

  #idle(slot: Slot): void {
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => void this.#stop(slot, null), this.#options.idleMs);
    slot.idleTimer.unref();
  }

  /** A worker failed: before its first answer the pool is unavailable; later, its job fails and it is replaced. */
  #crash(slot: Slot, error: Error): void {
    if (!this.#slots.delete(slot)) return;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    if (!slot.started) {
      // The job goes back in front of the queue, for the caller's fallback.
      if (slot.job) this.#queue.unshift(slot.job);
      this.#fail(new PoolUnavailableError(error));
      return;
    }
    slot.job?.reject(error);
    void this.#dispatch();
  }

  #fail(error: PoolUnavailableError): void {
    this.#unavailable = error;
    for (const job of this.#queue.splice(0)) job.reject(error);
  }

  async #stop(slot: Slot, reason: Error | null): Promise<void> {
    if (!this.#slots.delete(slot)) return;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    if (reason) slot.job?.reject(reason);
    await slot.worker.terminate();
  }
}
