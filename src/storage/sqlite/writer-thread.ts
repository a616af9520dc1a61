import { Worker } from 'node:worker_threads';
import type { ListResult, StorageError, StoredRecord, StoredWrite } from '../../ports/storage.js';
import { storageError } from '../errors.js';
import type { CheckedQuery } from '../query-check.js';
import type { RecordSession } from '../sql/session.js';
import { startWorker } from '../../format/worker-entry.js';
import { packInTurns, unpackInTurns, type Packed } from './thread-codec.js';

/** What the main thread asks of the writing thread (writer-worker.ts), one request at a time per call. */
export type WriterRequest =
  | { op: 'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo' | 'close' }
  | { op: 'get'; collection: string; id: number }
  | { op: 'list'; collection: string; query: CheckedQuery }
  | { op: 'insert'; collection: string; record: Packed; alone: boolean }
  | { op: 'update'; collection: string; id: number; patch: Packed; alone: boolean }
  | { op: 'remove'; collection: string; id: number; alone: boolean }
  | { op: 'read'; collection: string; ids: readonly number[] }
  | { op: 'select'; collection: string; query: CheckedQuery }
  | { op: 'backup'; destination: string };

/** A write with its own commit: its result, what it wrote, and how it moved the database (own-commits.ts). */
export interface AloneWrite<T> { value: T; written: StoredWrite[]; step: { from: string; to: string } | null }

/** A write inside the transaction the thread holds open: its result and what it wrote. */
export interface InsideWrite<T> { value: T; written: StoredWrite[] }

type Reply = { call: number; ok: true; value: Packed | undefined } | { call: number; ok: false; error: Record<string, unknown> };

/** Set by the bundled build (.ci/build.mjs): the worker module's path from any module of the build. */
declare const QUIRE_SQLITE_WRITER: string | undefined;

function workerEntry(): URL {
  if (typeof QUIRE_SQLITE_WRITER === 'string') return new URL(QUIRE_SQLITE_WRITER, import.meta.url);
  return new URL(`./writer-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
}

/** The writing thread of each store that has one. */
export const writerThreads = new WeakMap<object, WriterThread>();

/** The writing thread of a store, if it has one (for tests and diagnostics). */
export function writerThreadOf(store: object): WriterThread | null {
  return writerThreads.get(store) ?? null;
}

/** How long the writing thread stays with no work before it stops, unless the store is told otherwise. */
export const DEFAULT_WRITER_IDLE_MS = 300_000;
/** The longest delay a timer takes; `Infinity` stands for never stopping. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** `writerIdleMs` as given to `sqliteStorage`, checked. */
export function writerIdleMsOf(value: unknown): number {
  if (value === undefined) return DEFAULT_WRITER_IDLE_MS;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (value > LONGEST_TIMER_MS && value !== Infinity)) {
    throw new RangeError(`sqliteStorage: writerIdleMs must be a number of milliseconds from 0 to ${LONGEST_TIMER_MS}, or Infinity, not ${typeof value === 'number' ? value : typeof value}.`);
  }
  return value;
}

export type WriterState = 'idle' | 'starting' | 'running' | 'stopping' | 'unavailable' | 'closed';

/**
 * The store's writing thread, where it runs: every write and every read inside a transaction. It starts with the
 * first work given to it and stops once it has had none for `idleMs`; work given while it starts or stops waits
 * for that, and it never stops while work runs (a transaction holds it from its `BEGIN` to its end). Where it
 * cannot start, or once it stopped without being asked to, it is unavailable and the work runs elsewhere.
 */
export class WriterThread {
  /** Why the thread cannot be used (it could not start, or stopped unasked); null while it can. */
  unavailable: StorageError | null = null;
  /** How many times it has started, and stopped when idle; told each change of state (tests and diagnostics). */
  starts = 0;
  stops = 0;
  onState: ((state: WriterState) => void) | null = null;
  private now: WriterState = 'idle';
  private run: WriterRun | null = null;
  /** The start or stop under way. */
  private change: Promise<void> | null = null;
  /** Work given and not yet settled, those waiting for a start included. */
  private busy = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Rows changed since the last `PRAGMA optimize`, carried from one run to the next (writer-worker.ts). */
  private changesSinceOptimize = 0;
  private readonly idleMs: number;
  private readonly entry: URL;

  constructor(private readonly file: string, private readonly busyTimeoutMs: number, options: { idleMs?: number; entry?: URL } = {}) {
    this.idleMs = options.idleMs ?? DEFAULT_WRITER_IDLE_MS;
    this.entry = options.entry ?? workerEntry();
  }

  get state(): WriterState {
    return this.now;
  }

  /** `work` on the running thread, started for it where it is not; `otherwise` where the thread cannot run. */
  async with<T>(work: (run: WriterRun) => Promise<T>, otherwise: () => Promise<T>): Promise<T> {
    this.busy++;
    const run = await this.running();
    if (!run) {
      this.release();
      return otherwise();
    }
    try {
      return await work(run);
    } finally {
      this.release();
    }
  }

  private async running(): Promise<WriterRun | null> {
    for (;;) {
      if (this.now === 'closed' || this.now === 'unavailable') return null;
      if (this.change) {
        await this.change;
      } else if (this.run) {
        if (!this.run.stopped) return this.run;
        this.ended(this.run);
      } else {
        this.change = this.start().finally(() => { this.change = null; });
      }
    }
  }

  private release(): void {
    this.busy--;
    if (this.busy === 0 && this.run && this.idleMs !== Infinity) {
      if (this.idleTimer) this.idleTimer.refresh();
      else this.idleTimer = setTimeout(() => this.whenIdle(), this.idleMs).unref();
    }
  }

  private moveTo(state: WriterState): void {
    if (this.now === 'closed') return;
    this.now = state;
    this.onState?.(state);
  }

  private async start(): Promise<void> {
    this.moveTo('starting');
    let run: WriterRun | null = null;
    try {
      run = new WriterRun(this.file, this.busyTimeoutMs, this.changesSinceOptimize, this.entry);
    } catch (error) {
      this.unavailable = storageError('store_unavailable', `The store's writing thread could not start (${(error as Error).message}).`);
    }
    if (!run || !await run.started) {
      this.unavailable ??= run?.stopped ?? storageError('store_unavailable', "The store's writing thread could not start.");
      this.moveTo('unavailable');
      return;
    }
    this.run = run;
    this.starts++;
    void run.exited.then(() => this.ended(run));
    this.moveTo('running');
  }

  /** The thread stopped unasked (a crash, or ended from outside): it is not started again. */
  private ended(run: WriterRun): void {
    if (this.run !== run) return;
    this.run = null;
    this.unavailable ??= run.stopped;
    this.moveTo('unavailable');
  }

  private whenIdle(): void {
    const run = this.run;
    if (!run || this.busy > 0 || this.change || this.now !== 'running') return;
    this.run = null;
    this.moveTo('stopping');
    this.change = run.close().catch(() => 0).then((changes) => {
      this.changesSinceOptimize = changes;
      this.stops++;
      this.moveTo('idle');
    }).finally(() => { this.change = null; });
  }

  /** Ends the thread (after a start or stop under way) and never starts it again. */
  async close(): Promise<void> {
    this.moveTo('closed');
    if (this.idleTimer) clearTimeout(this.idleTimer);
    while (this.change) await this.change;
    const run = this.run;
    this.run = null;
    await run?.close();
  }

  /** Stops the running thread at once, as a crash would (for tests of what the store does then). */
  async terminate(): Promise<void> {
    await this.run?.terminate();
  }
}

/** One run of the writing thread, from its start to its stop: a worker with its own connection to the file. */
export class WriterRun {
  /** True once the thread has opened the database; false when it could not start. */
  readonly started: Promise<boolean>;
  /** Why the thread no longer answers (it stopped, or never started); null while it does. */
  stopped: StorageError | null = null;
  readonly exited: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  private nextId = 1;

  constructor(file: string, busyTimeoutMs: number, changesSinceOptimize: number, entry: URL) {
    // Held (keeping the process alive) only while the work that started it waits, and while a call is answered.
    this.worker = startWorker(Worker, entry, { file, busyTimeoutMs, changesSinceOptimize });
    let ready: (started: boolean) => void;
    this.started = new Promise((resolve) => { ready = resolve; });
    this.worker.on('message', (reply: Reply | { ready: true }) => {
      if (!('ready' in reply)) return this.answer(reply);
      if (this.pending.size === 0) this.worker.unref();
      ready(true);
    });
    const stop = (reason: string) => {
      ready(false);
      this.stopped ??= storageError('store_unavailable', `The store's writing thread stopped (${reason}).`);
      for (const { reject } of this.pending.values()) reject(this.stopped);
      this.pending.clear();
      this.worker.unref();
    };
    this.worker.on('error', (error) => stop(error.message));
    this.exited = new Promise((resolve) => this.worker.once('exit', (code) => {
      stop(`exit code ${code}`);
      resolve();
    }));
  }

  /** Sends one request; the answer's long texts are read in turns. */
  async call<T>(request: WriterRequest, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.stopped) throw this.stopped;
    const id = this.nextId++;
    const packed = await new Promise<unknown>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ call: id, request }, transfer);
    });
    return (packed === undefined ? undefined : await unpackInTurns(packed as Packed)) as T;
  }

  private answer(reply: Reply): void {
    const waiting = this.pending.get(reply.call);
    if (!waiting) return;
    this.pending.delete(reply.call);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(errorOf(reply.error));
  }

  /**
   * Closes the thread's connection and waits for the thread to end; answers the rows it changed since its last
   * `PRAGMA optimize` (0 where it cannot tell).
   */
  async close(): Promise<number> {
    let changesSinceOptimize = 0;
    if (!this.stopped) changesSinceOptimize = await this.call<number>({ op: 'close' }).catch(() => 0);
    await this.worker.terminate();
    await this.exited;
    return changesSinceOptimize;
  }

  /** Stops the thread at once, as a crash would. */
  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/** The error the thread described, as the main thread would have thrown it. */
function errorOf(described: Record<string, unknown>): Error {
  const message = String(described.message);
  if (described.name === 'StorageError') return storageError(described.code as Parameters<typeof storageError>[0], message);
  const error = new Error(message) as Error & { code?: unknown };
  error.name = String(described.name);
  if (described.code !== undefined) error.code = described.code;
  return error;
}

/**
 * The record operations the writing thread runs: inside the transaction it holds open (`inside` hears what each
 * write wrote) or, given `alone` (which hears what each wrote and how it moved the database), each write with its
 * own commit. Requests are posted in the order they are asked for, as
 * the thread then runs them (reads made elsewhere count on it, transaction-reads in writing.ts): one whose value is
 * still packed in turns holds back those asked after it.
 */
export function threadSession(
  thread: Pick<WriterRun, 'call'>, alone?: (write: AloneWrite<unknown>) => void, inside?: (written: StoredWrite[]) => void,
): RecordSession {
  /** Settles once the last request held back is posted. */
  let held: Promise<void> | null = null;
  const call = <T>(ready: Ready | Promise<Ready>): Promise<T> => {
    if (held === null && !(ready instanceof Promise)) return thread.call<T>(ready.request, ready.transfer);
    const before = held;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => { release = resolve; });
    held = mine;
    void mine.then(() => { if (held === mine) held = null; });
    return (async () => {
      try {
        await before;
        const { request, transfer } = await ready;
        // Posted within this call, before anything waiting for the release runs.
        release();
        return await thread.call<T>(request, transfer);
      } finally {
        release();
      }
    })();
  };
  const write = async <T>(ready: Ready | Promise<Ready>): Promise<T> => {
    if (!alone) {
      const result = await call<InsideWrite<T>>(ready);
      inside?.(result.written);
      return result.value;
    }
    const result = await call<AloneWrite<T>>(ready);
    alone(result);
    return result.value;
  };
  return {
    get: (collection, id) => call<StoredRecord | null>({ request: { op: 'get', collection, id } }),
    list: (collection, query) => call<ListResult>({ request: { op: 'list', collection, query } }),
    insert: async (collection, record) => write(packedInto({ id: record.id, fields: record.fields }, (packed) => ({ op: 'insert', collection, record: packed, alone: Boolean(alone) }))),
    update: async (collection, id, patch) => write(packedInto(patch, (packed) => ({ op: 'update', collection, id, patch: packed, alone: Boolean(alone) }))),
    remove: async (collection, id) => write({ request: { op: 'remove', collection, id, alone: Boolean(alone) } }),
    async savepoint(work) {
      await call({ request: { op: 'savepoint' } });
      let result;
      try {
        result = await work();
      } catch (error) {
        await call({ request: { op: 'rollbackTo' } }).catch(() => {});
        throw error;
      }
      await call({ request: { op: 'release' } });
      return result;
    },
  };
}

/** A request ready to post, with the buffers it hands over. */
interface Ready { request: WriterRequest; transfer?: ArrayBuffer[] }

/** The request `make` builds around `value` packed (`packInTurns`): at once, or once packed in turns. */
function packedInto(value: unknown, make: (packed: Packed) => WriterRequest): Ready | Promise<Ready> {
  const message = packInTurns(value);
  if (!(message instanceof Promise)) return { request: make(message.packed), transfer: message.transfer };
  return message.then(({ packed, transfer }) => ({ request: make(packed), transfer }));
}
