import type pg from 'pg';
import type { StorageError } from '../../ports/storage.js';
import { storageError } from '../errors.js';
import type { Queryable } from './long-records.js';

/**
 * SQLSTATEs that mean "not now" rather than "wrong": a lost or refused connection (class 08), a server shutting
 * down or starting up (57P01–57P03), no connection slot left (53300), a lock not taken in time (55P03), a
 * transaction the server ended for idling or running too long (25P03, 25P04).
 */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300|55P03|25P0[34])$/;
/** Socket errors of a connection that broke or could not be made (ENOENT: a unix socket gone with its server). */
const UNAVAILABLE_SOCKET = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ENOENT', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
]);
/** node-postgres's own words for a connection that ended, broke, or timed out while being made. */
const UNAVAILABLE_MESSAGE = /^Connection terminated|is not queryable|timeout exceeded when trying to connect|^Query read timeout/;

/** Whether a driver error says the database is out of reach (or its lock busy) rather than the statement wrong. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || error.name === 'StorageError') return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_STATE.test(code) || UNAVAILABLE_SOCKET.has(code))) return true;
  return UNAVAILABLE_MESSAGE.test(error.message);
}

export function unavailableError(cause: unknown): StorageError {
  const error = storageError('store_unavailable', `PostgreSQL is unavailable: ${cause instanceof Error ? cause.message || (cause as { code?: string }).code : String(cause)}`);
  (error as Error & { cause?: unknown }).cause = cause;
  return error;
}

/** The error to pass on: a driver error meaning "out of reach" becomes `store_unavailable`, anything else is kept. */
export function classified(error: unknown): unknown {
  return isUnavailable(error) ? unavailableError(error) : error;
}

/** A pool or client whose failed queries reject with classified errors. */
export function classifying(db: Queryable): Queryable {
  return {
    query: ((text: string, values?: unknown[]) => db.query(text, values).catch((error: unknown) => { throw classified(error); })) as Queryable['query'],
  };
}

/** Connects from the pool; a connection that cannot be made is `store_unavailable`. */
export async function connectClient(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw classified(error);
  }
}

/** The break a held connection had, if any; the work notes one it finds itself (a failed rollback) here too. */
export interface HeldConnection { broken: Error | undefined }

/**
 * Runs `work` on a connection checked out of the pool, then releases it. A connection that breaks meanwhile (a
 * terminated backend, a restarting server) reports it as an event, which unheard would end the process: it is
 * noted instead, the next query fails, and the connection goes back with it, so the pool discards it.
 */
export async function holding<T>(client: pg.PoolClient, work: (held: HeldConnection) => Promise<T>): Promise<T> {
  const held: HeldConnection = { broken: undefined };
  const onError = (error: Error) => { held.broken ??= error; };
  client.on('error', onError);
  try {
    return await work(held);
  } finally {
    client.off('error', onError);
    client.release(held.broken);
  }
}

/**
 * Begins a write transaction on `client` and takes the schema's advisory lock, waiting at most `waitMs` for it
 * (PostgreSQL's `lock_timeout`, for this statement only: it fails with 55P03, hence `store_unavailable`;
 * Infinity waits without limit).
 * `idleMs` (when above 0) lets the server end the transaction if its process stops sending statements that long,
 * so a frozen process cannot hold the lock forever.
 */
export async function beginLocked(client: Queryable, lockKeys: readonly [number, number], waitMs: number, idleMs: number): Promise<void> {
  if (waitMs <= 0) throw unavailableError(new Error('The write lock was not free in time.'));
  const wait = Number.isFinite(waitMs) ? Math.ceil(waitMs) : 0;
  const idle = idleMs > 0 ? `SET LOCAL idle_in_transaction_session_timeout = ${Math.ceil(idleMs)}; ` : '';
  await client.query(`BEGIN; ${idle}SET LOCAL lock_timeout = ${wait}; `
    + `SELECT pg_advisory_xact_lock(${lockKeys[0]}, ${lockKeys[1]}); SET LOCAL lock_timeout TO DEFAULT`);
}

/**
 * Runs `task` through `queue` (the process's writes, one at a time) unless it has not started within `waitMs`:
 * then the call fails with `store_unavailable`, and the task, when its turn comes, is skipped. `task` receives a
 * function telling the time left (Infinity when `waitMs` is).
 */
export function runWithin<T>(queue: { run<R>(task: () => Promise<R>): Promise<R> }, waitMs: number, task: (leftMs: () => number) => Promise<T>): Promise<T> {
  const started = performance.now();
  return new Promise<T>((resolve, reject) => {
    let abandoned = false;
    const timer = Number.isFinite(waitMs) ? setTimeout(() => {
      abandoned = true;
      reject(unavailableError(new Error('The write lock was not free in time.')));
    }, waitMs) : undefined;
    queue.run(async () => {
      clearTimeout(timer);
      if (abandoned) return;
      try {
        resolve(await task(() => waitMs - (performance.now() - started)));
      } catch (error) {
        reject(error);
      }
    }).catch(reject);
  });
}
