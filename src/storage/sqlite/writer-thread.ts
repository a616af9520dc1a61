import { Worker } from 'node:worker_threads';
import type { ListResult, StoredRecord, StoredWrite } from '../../ports/storage.js';
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

/** The store's writing thread, where it runs: every write and every read inside a transaction. */
export class WriterThread {
  /** True once the thread has opened the database; false when it could not start. */
  readonly started: Promise<boolean>;
  /** Why the thread no longer answers (it stopped, or never started); null while it does. */
  stopped: Error | null = null;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  private nextId = 1;
  private readonly exited: Promise<void>;

  constructor(file: string, busyTimeoutMs: number, entry = workerEntry()) {
    this.worker = startWorker(Worker, entry, { file, busyTimeoutMs });
    this.worker.unref();
    let ready: (started: boolean) => void;
    this.started = new Promise((resolve) => { ready = resolve; });
    this.worker.on('message', (reply: Reply | { ready: true }) => {
      if ('ready' in reply) ready(true);
      else this.answer(reply);
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

  /** Closes the thread's connection and waits for the thread to end. */
  async close(): Promise<void> {
    if (!this.stopped) await this.call({ op: 'close' }).catch(() => {});
    await this.worker.terminate();
    await this.exited;
  }

  /** Stops the thread at once, as a crash would (for tests of what the store does then). */
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
 * The record operations the writing thread runs: inside the transaction it holds open or, given `alone` (which
 * hears what each wrote), each write with its own commit.
 */
export function threadSession(thread: WriterThread, alone?: (write: AloneWrite<unknown>) => void): RecordSession {
  const write = async <T>(request: WriterRequest, transfer?: ArrayBuffer[]): Promise<T> => {
    if (!alone) return thread.call<T>(request, transfer);
    const result = await thread.call<AloneWrite<T>>(request, transfer);
    alone(result);
    return result.value;
  };
  return {
    get: (collection, id) => thread.call<StoredRecord | null>({ op: 'get', collection, id }),
    list: (collection, query) => thread.call<ListResult>({ op: 'list', collection, query }),
    insert: async (collection, record) => {
      const { packed, transfer } = await packInTurns({ id: record.id, fields: record.fields });
      return write({ op: 'insert', collection, record: packed, alone: Boolean(alone) }, transfer);
    },
    update: async (collection, id, patch) => {
      const { packed, transfer } = await packInTurns(patch);
      return write({ op: 'update', collection, id, patch: packed, alone: Boolean(alone) }, transfer);
    },
    remove: (collection, id) => write({ op: 'remove', collection, id, alone: Boolean(alone) }),
    async savepoint(work) {
      await thread.call({ op: 'savepoint' });
      let result;
      try {
        result = await work();
      } catch (error) {
        await thread.call({ op: 'rollbackTo' }).catch(() => {});
        throw error;
      }
      await thread.call({ op: 'release' });
      return result;
    },
  };
}
