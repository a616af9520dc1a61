import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { BlobStore } from '../ports/blobs.js';
import type { StoragePort } from '../ports/storage.js';
import type { ThrottleStore } from '../ports/throttle.js';
import { createStoredThrottleStore } from '../storage/throttle/index.js';
import { createFilesystemBlobStore, createMemoryBlobStore } from '../storage/blobs/index.js';
import { createMemoryStorage } from '../storage/memory/index.js';
import type { StoreChoice, UploadsChoice } from './args.js';

export interface OpenedStores {
  storage: StoragePort;
  blobs: BlobStore;
  /** Where throttle counters live when processes share them (PostgreSQL, or SQLite with workers); absent: in memory. */
  throttleStore?: ThrottleStore;
  /** One line for the console: where content and files are kept. */
  description: string;
  close(): Promise<void>;
}

/** A store module failed to load because its optional driver is not installed. */
function missingDriver(error: unknown, driver: string): boolean {
  const code = (error as { code?: string }).code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(driver);
}

export class StoreSetupError extends Error {}

/** The schema of the throttle counters beside PostgreSQL content: apart, so counting never empties cached answers. */
export const THROTTLE_SCHEMA = 'quire_throttle';

/** The SQLite file of the throttle counters that server processes share, beside the content's file. */
export const throttleFileOf = (path: string): string => `${path}-throttle`;

/**
 * How a command uses the store: `read` (an export) only reads; `write` may create a new SQLite file; `existing`
 * (`quire users`) writes to a store that must already be there, so a mistyped path creates nothing.
 */
export type StoreAccess = 'read' | 'write' | 'existing';

async function openStorage(choice: StoreChoice, access: StoreAccess, sharedCounters: boolean): Promise<{ storage: StoragePort; description: string; counters?: StoragePort }> {
  if (choice.kind === 'memory') return { storage: createMemoryStorage(), description: 'memory (nothing is kept after exit)' };
  if (choice.kind === 'sqlite' && access === 'existing' && !existsSync(choice.path)) {
    throw new StoreSetupError(`there is no SQLite store at ${choice.path} (quire serve or quire import --data ${choice.path} creates one)`);
  }
  if (choice.kind === 'sqlite') {
    try {
      const { sqliteStorage } = await import('../storage/sqlite/index.js');
      try {
        const storage = sqliteStorage({ path: choice.path, readonly: access === 'read' });
        // Apart from the content's file, so counting never empties cached answers.
        const counters = sharedCounters ? { counters: sqliteStorage({ path: throttleFileOf(choice.path) }) } : {};
        return { storage, ...counters, description: `SQLite file ${choice.path}` };
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_READONLY_DIRECTORY') throw error;
        return await readCopy(choice.path, sqliteStorage);
      }
    } catch (error) {
      if (missingDriver(error, 'better-sqlite3')) {
        throw new StoreSetupError('the SQLite store needs better-sqlite3 (npm install better-sqlite3), or use --storage memory');
      }
      const { message } = error as Error;
      throw new StoreSetupError(message.includes(choice.path) ? message : `cannot open ${choice.path}: ${message}`);
    }
  }
  try {
    const { postgresStorage } = await import('../storage/postgres/index.js');
    const storage = await postgresStorage({ connectionString: choice.url });
    const counters = await postgresStorage({ connectionString: choice.url, schema: THROTTLE_SCHEMA, max: 2 });
    return { storage, counters, description: `PostgreSQL ${postgresPlace(choice.url)}` };
  } catch (error) {
    if (missingDriver(error, "'pg'")) throw new StoreSetupError('the PostgreSQL store needs pg (npm install pg)');
    throw new StoreSetupError(`cannot use PostgreSQL: ${(error as Error).message}`);
  }
}

/** A SQLite file in a folder this user may not write is read from a copy in a fresh temporary folder. */
async function readCopy(path: string, open: typeof import('../storage/sqlite/index.js').sqliteStorage): Promise<{ storage: StoragePort; description: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'quire-read-'));
  try {
    const copy = join(folder, basename(path));
    await copyFile(path, copy);
    await copyFile(`${path}-wal`, `${copy}-wal`).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    const storage = open({ path: copy, readonly: true });
    return {
      storage: { ...storage, close: async () => { await storage.close(); await rm(folder, { recursive: true, force: true }); } },
      description: `SQLite file ${path} (read from a copy: its folder is not writable)`,
    };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/** Host and database of a connection URL; one over a unix socket (`postgres://user@/db?host=/run/…`) has no host. */
function postgresPlace(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host || parsed.searchParams.get('host') || 'localhost'}${parsed.pathname}`;
  } catch {
    return `${url.match(/@\/?([^?]*)/)?.[1] ?? 'database'} (unix socket)`;
  }
}

async function openBlobs(choice: UploadsChoice | null, environment: NodeJS.ProcessEnv): Promise<{ blobs: BlobStore; where: string | null }> {
  if (choice === null) return { blobs: createMemoryBlobStore(), where: null };
  if (choice.kind === 'folder') return { blobs: createFilesystemBlobStore({ root: choice.path }), where: choice.path };
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = environment;
  if (!accessKeyId || !secretAccessKey) {
    throw new StoreSetupError('--blobs needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment');
  }
  // Loaded only for a bucket: the S3 client and its XML parser are not needed otherwise.
  const { s3BlobStore } = await import('../storage/blobs/s3.js');
  const blobs = s3BlobStore({
    bucket: choice.bucket,
    endpoint: choice.endpoint,
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
    ...(choice.region ? { region: choice.region } : {}),
    ...(choice.keyPrefix ? { keyPrefix: choice.keyPrefix } : {}),
  });
  return { blobs, where: `bucket ${choice.bucket} at ${choice.endpoint}` };
}

/**
 * Opens the content store and the uploads store the command line chose; for `read` (an export), a SQLite file
 * read-only, so a file or folder the process may not write can still be read; for `existing`, only a SQLite file
 * that is there. With `sharedCounters` (several
 * server processes), a SQLite store keeps throttle counters in a file beside it; PostgreSQL always shares them.
 */
export async function openStores(choice: StoreChoice, uploads: UploadsChoice | null, environment: NodeJS.ProcessEnv = {}, access: StoreAccess = 'write', sharedCounters = false): Promise<OpenedStores> {
  const { blobs, where } = await openBlobs(uploads, environment);
  const { storage, description, counters } = await openStorage(choice, access, sharedCounters);
  return {
    storage,
    blobs,
    ...(counters ? { throttleStore: createStoredThrottleStore(counters) } : {}),
    description: where === null ? description : `${description}, uploads in ${where}`,
    close: async () => {
      await storage.close?.();
      await counters?.close?.();
    },
  };
}
