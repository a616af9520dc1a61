/**
 * The store's writing thread (see writer-thread.ts): its own connection to the store's file, on which every write
 * and every read inside a transaction runs, so that storing a record of long texts (its JSON, its binary JSON, its
 * text index) never holds the main thread. Requests arrive one at a time, each answered before the next is sent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { StoredWrite } from '../../ports/storage.js';
import type { CheckedQuery } from '../query-check.js';
import type { EncodedPatch } from '../sql/records.js';
import { registerFold } from './connections.js';
import { readRows } from './large-rows.js';
import { SqliteRecords } from './records.js';
import { pack, unpack, type Packed } from './thread-codec.js';
import { ownStep, WalHeader } from './wal-header.js';
import type { WriterRequest } from './writer-thread.js';

const OPTIMIZE_AFTER_CHANGES = 1000;

const { file, busyTimeoutMs, changesSinceOptimize } = workerData as { file: string; busyTimeoutMs: number; changesSinceOptimize: number };
const port = parentPort!;

const db = new Database(file, { timeout: busyTimeoutMs, fileMustExist: true });
db.pragma('synchronous = NORMAL');
db.pragma('analysis_limit = 1000');
registerFold(db);
const header = WalHeader.open(file);
const records = new SqliteRecords(db);
const totalChanges = db.prepare('SELECT total_changes()').pluck();
// Counted on from the thread's last run: a thread stopped when idle still optimizes every OPTIMIZE_AFTER_CHANGES rows.
let changesAtLastOptimize = (totalChanges.get() as number) - changesSinceOptimize;
/** The header once this connection held the write lock, and its changes then: told with the commit. */
let begun: { header: string | null; changes: number } | null = null;
const savepoints: { name: string; written: number }[] = [];
/**
 * A read-only connection for the main thread's large rows and its lists that meet long texts (committed data
 * only), opened when first needed.
 */
let reader: Database.Database | null = null;
let readerRecords: SqliteRecords | null = null;

function readingConnection(): Database.Database {
  if (!reader) {
    reader = new Database(file, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
    registerFold(reader);
  }
  return reader;
}

function begin(): void {
  db.exec('BEGIN IMMEDIATE');
  records.text.holding = true;
  records.written = [];
  begun = { header: header?.read() ?? null, changes: totalChanges.get() as number };
}

function commit(): { written: StoredWrite[]; step: { from: string; to: string } | null } {
  records.text.write();
  // Before the commit, so that the statistics it writes are part of it (own-commits.ts counts commits).
  const changes = totalChanges.get() as number;
  if (changes - changesAtLastOptimize >= OPTIMIZE_AFTER_CHANGES) {
    db.pragma('optimize=0x10002');
    changesAtLastOptimize = changes;
  }
  db.exec('COMMIT');
  const step = ownStep(begun!.header, header?.read() ?? null, changes !== begun!.changes);
  const written = records.written ?? [];
  ended();
  return { written, step };
}

function rollback(): void {
  records.text.discard();
  if (db.inTransaction) db.exec('ROLLBACK');
  records.cache.forget();
  ended();
}

function ended(): void {
  records.text.holding = false;
  records.written = null;
  begun = null;
  savepoints.length = 0;
}

/**
 * Refuses work of a transaction where none is open: the main thread sends a transaction's first requests without
 * waiting for its `BEGIN`, and where that failed they must not run on their own.
 */
function inTransaction(): void {
  if (begun === null) throw new Error('no transaction is open on the writing thread');
}

/** One write inside the transaction held open, with what it wrote (the main thread reads around it: writing.ts). */
function inside<T>(write: () => T): { value: T; written: StoredWrite[] } {
  inTransaction();
  const from = records.written?.length ?? 0;
  const value = write();
  return { value, written: records.written?.slice(from) ?? [] };
}

/** One write with its own commit, as the port's writes outside a transaction are. */
function alone<T>(write: () => T): { value: T; written: StoredWrite[]; step: { from: string; to: string } | null } {
  begin();
  try {
    const value = write();
    return { value, ...commit() };
  } catch (error) {
    rollback();
    throw error;
  }
}

function run(request: WriterRequest): unknown {
  switch (request.op) {
    case 'begin': return begin();
    case 'commit': inTransaction(); return commit();
    case 'rollback': return rollback();
    case 'get': return records.get(request.collection, request.id);
    case 'list': return records.list(request.collection, request.query as CheckedQuery);
    case 'insert': {
      const record = unpack(request.record as Packed) as { id: number | undefined; fields: Record<string, unknown> };
      const write = () => records.insert(request.collection, { ...record, json: JSON.stringify(record.fields) });
      return request.alone ? alone(write) : inside(write);
    }
    case 'update': {
      const write = () => records.update(request.collection, request.id, unpack(request.patch as Packed) as EncodedPatch);
      return request.alone ? alone(write) : inside(write);
    }
    case 'remove': {
      const write = () => records.remove(request.collection, request.id);
      return request.alone ? alone(write) : inside(write);
    }
    case 'savepoint': {
      inTransaction();
      // The savepoint starts with no text changes waiting, so rolling back to it forgets all that wait then.
      records.text.write();
      const name = `quire_savepoint_${savepoints.length + 1}`;
      db.exec(`SAVEPOINT ${name}`);
      savepoints.push({ name, written: records.written?.length ?? 0 });
      return undefined;
    }
    case 'release': {
      db.exec(`RELEASE ${savepoints.pop()!.name}`);
      return undefined;
    }
    case 'rollbackTo': {
      const { name, written } = savepoints.pop()!;
      db.exec(`ROLLBACK TO ${name}`);
      db.exec(`RELEASE ${name}`);
      if (records.written) records.written.length = written;
      records.text.discard();
      records.cache.forget();
      return undefined;
    }
    case 'read': return readRows(readingConnection(), request.collection, request.ids);
    case 'select': {
      readerRecords ??= new SqliteRecords(readingConnection());
      return readerRecords.selectIds(request.collection, request.query);
    }
    case 'backup': return db.backup(request.destination).then(() => undefined);
    case 'close': {
      if (db.inTransaction) rollback();
      const changes = (totalChanges.get() as number) - changesAtLastOptimize;
      header?.close();
      reader?.close();
      db.close();
      return changes;
    }
  }
}

port.on('message', ({ call, request }: { call: number; request: WriterRequest }) => {
  let result: unknown;
  try {
    result = run(request);
  } catch (error) {
    port.postMessage({ call, ok: false, error: describeError(error) });
    return;
  }
  if (result instanceof Promise) {
    result.then(
      () => port.postMessage({ call, ok: true, value: undefined }),
      (error) => port.postMessage({ call, ok: false, error: describeError(error) }),
    );
    return;
  }
  const { packed, transfer } = pack(result);
  port.postMessage({ call, ok: true, value: packed }, transfer);
  if (request.op === 'close') port.close();
});

port.postMessage({ ready: true });

function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  return { name: error.name, message: error.message, code: (error as { code?: unknown }).code };
}
