/**
 * A store with a change token for the cache tests. The memory store gets its own token from the storage branch;
 * until then this wrapper counts writes made through it (and through its transaction handles).
 */
import type { StoragePort } from '../../../src/ports/storage.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';

export type TokenStore = StoragePort & { changeToken(): Promise<string> };

export function tokenStore(inner: StoragePort = createMemoryStorage()): TokenStore {
  if (typeof (inner as Partial<TokenStore>).changeToken === 'function') return inner as TokenStore;
  let changes = 0;
  const counted = async <T>(write: () => Promise<T>): Promise<T> => {
    changes += 1;
    try {
      return await write();
    } finally {
      changes += 1;
    }
  };
  const wrap = (port: StoragePort): StoragePort => ({
    get: (collection, id) => port.get(collection, id),
    list: (collection, query) => port.list(collection, query),
    insert: (collection, record) => counted(() => port.insert(collection, record)),
    update: (collection, id, patch) => counted(() => port.update(collection, id, patch)),
    remove: (collection, id) => counted(() => port.remove(collection, id)),
    transaction: (work) => counted(() => port.transaction((tx) => work(wrap(tx)))),
  });
  return { ...wrap(inner), changeToken: async () => String(changes) };
}
