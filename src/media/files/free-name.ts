/**
 * Writing a file under a free name when several processes share the store: the name chosen from the folder's
 * listing is reserved with a record whose id comes from the key, in a store transaction (transactions do not
 * interleave, across processes too), checked once more against the blob store, written, and released. A name
 * another writer holds or has just written makes the next number be tried, so two uploads of one name never
 * share a file. A reservation left by a process that died while writing is taken over once it is stale.
 */
import { createHash, randomUUID } from 'node:crypto';
import { BlobExistsError, type BlobStore } from '../../ports/blobs.js';
import { isStorageError, type StoragePort } from '../../ports/storage.js';
import { joinKey } from '../images/metadata.js';
import { uniqueFileName, type UniqueNameOptions } from './unique-name.js';

/** Names being written right now; a record lives only while its file is written. */
export const NAME_RESERVATIONS_COLLECTION = 'upload_name_reservations';
/** Names tried before giving up; each failed try means another writer took that name meanwhile. */
const MAX_TRIES = 50;
/** A reservation this old belongs to a writer that stopped: writing one file never takes this long. */
export const STALE_RESERVATION_MS = 15 * 60 * 1000;

const queues = new WeakMap<object, Promise<unknown>>();

/** Runs name choices one at a time per store, so two uploads of one name in one process do not contend. */
export function serially<T>(store: object, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(store) ?? Promise.resolve();
  const next = previous.then(work, work);
  queues.set(store, next.catch(() => undefined));
  return next;
}

/** A record id for a key: 48 bits of its SHA-256, so it stays a safe integer on every store. */
export function reservationId(key: string): number {
  return createHash('sha256').update(key).digest().readUIntBE(0, 6) + 1;
}

export interface FreeNameFile {
  folder: string;
  /** Already sanitised. */
  fileName: string;
  bytes: Uint8Array;
  contentType: string;
}

/** Writes `file` in its folder under a free name and resolves to the stored key (`YYYY/MM/name.ext`). */
export function writeUnderFreeName(
  deps: { storage: StoragePort; blobs: BlobStore }, file: FreeNameFile, options: UniqueNameOptions = {},
): Promise<string> {
  const { storage, blobs } = deps;
  return serially(blobs, async () => {
    const taken = new Set<string>(options.taken ?? []);
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const name = await uniqueFileName(blobs, file.folder, file.fileName, { ...options, taken });
      const key = joinKey(file.folder, name);
      const id = reservationId(key);
      const holder = randomUUID();
      if (!(await reserve(storage, { id, key, holder, at: Date.now() }))) {
        taken.add(name);
        continue;
      }
      try {
        // The listing may predate a file another writer finished and released since.
        if (await writeNew(blobs, key, file)) return key;
        taken.add(name);
      } finally {
        await release(storage, id, holder);
      }
    }
    throw new Error(`No free name for ${file.fileName} in ${file.folder} after ${MAX_TRIES} tries.`);
  });
}

/** Writes the file unless the key is taken, with the store's conditional create when it has one. */
async function writeNew(blobs: BlobStore, key: string, file: FreeNameFile): Promise<boolean> {
  const options = { contentType: file.contentType };
  if (blobs.create === undefined) {
    if (await blobs.exists(key)) return false;
    await blobs.put(key, file.bytes, options);
    return true;
  }
  try {
    await blobs.create(key, file.bytes, options);
    return true;
  } catch (error) {
    if (error instanceof BlobExistsError) return false;
    throw error;
  }
}

interface Reservation { id: number; key: string; holder: string; at: number }

/** Whether the name is now this writer's: it was free, or its reservation was stale. */
async function reserve(storage: StoragePort, reservation: Reservation): Promise<boolean> {
  try {
    return await storage.transaction(async (tx) => {
      const held = await tx.get(NAME_RESERVATIONS_COLLECTION, reservation.id);
      if (held === null) {
        await tx.insert(NAME_RESERVATIONS_COLLECTION, { ...reservation });
        return true;
      }
      if (typeof held.at === 'number' && reservation.at - held.at < STALE_RESERVATION_MS) return false;
      await tx.update(NAME_RESERVATIONS_COLLECTION, reservation.id, { key: reservation.key, holder: reservation.holder, at: reservation.at });
      return true;
    });
  } catch (error) {
    // A store whose transactions do interleave still refuses the second insert of an id.
    if (isStorageError(error, 'duplicate_id')) return false;
    throw error;
  }
}

/** Removes the reservation unless another writer has taken it over meanwhile. */
async function release(storage: StoragePort, id: number, holder: string): Promise<void> {
  await storage.transaction(async (tx) => {
    const held = await tx.get(NAME_RESERVATIONS_COLLECTION, id);
    if (held?.holder === holder) await tx.remove(NAME_RESERVATIONS_COLLECTION, id);
  });
}
