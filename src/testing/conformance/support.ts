import type { NewRecord, StoragePort, StoredRecord } from '../../ports/storage.js';

export type MakeStore = () => Promise<StoragePort>;

/** Runs `body` against a fresh store and closes it afterwards. */
export async function withStore(makeStore: MakeStore, body: (store: StoragePort) => Promise<void>): Promise<void> {
  const store = await makeStore();
  try {
    await body(store);
  } finally {
    await store.close?.();
  }
}

/** Inserts records in order (in one transaction) and returns them as stored. */
export async function seed(store: StoragePort, collection: string, records: NewRecord[]): Promise<StoredRecord[]> {
  return store.transaction(async (tx) => {
    const stored: StoredRecord[] = [];
    for (const record of records) stored.push(await tx.insert(collection, record));
    return stored;
  });
}

export function idsOf(result: { items: StoredRecord[] }): number[] {
  return result.items.map((item) => item.id);
}

/** A small deterministic generator (mulberry32), so randomised tests repeat exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
