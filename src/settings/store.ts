/**
 * Stored site settings: one record of the values written through `/settings`, laid over the host's settings. The
 * merged settings are kept in memory while the store's change token stays the same, so the next read in any
 * process sharing the store sees a write; a store without a change token is read again after a write here, or
 * after `refreshMs`. Where the store tells what was written since a token, writes to other collections keep them.
 */
import { writtenBetween } from '../core/kept-facts.js';
import type { SiteSettings } from '../core/site.js';
import type { StoragePort } from '../ports/storage.js';
import { withStoredValues } from './definitions.js';

export const SETTINGS_COLLECTION = 'settings';
const RECORD_ID = 1;

export interface SiteSettingsStore {
  /**
   * The settings in effect: the host's with the stored values over them. The same object until something changes.
   * `changeToken`: the store's token, when the caller has just read it (so it is not read twice).
   */
  current(changeToken?: string): Promise<SiteSettings>;
  /** What `current(changeToken)` answers, when it is known without reading the store; else undefined. */
  known(changeToken: string): SiteSettings | undefined;
  /** The values written through `/settings`, by setting name. */
  stored(): Promise<Readonly<Record<string, unknown>>>;
  /** Writes values (null removes a stored value, so the host's or the default applies again). */
  update(changes: Readonly<Record<string, unknown>>): Promise<void>;
}

export interface SettingsStoreOptions {
  /**
   * For a store without a change token only: how long the merged settings are trusted before the store is read
   * again, in milliseconds (default 1000).
   */
  refreshMs?: number;
  /** Milliseconds of a monotonic clock; default `performance.now`. */
  now?: () => number;
}

function valuesOf(record: Record<string, unknown> | null): Record<string, unknown> {
  const values = record?.values;
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return {};
  return { ...(values as Record<string, unknown>) };
}

export function createSiteSettingsStore(storage: StoragePort, host: SiteSettings, options: SettingsStoreOptions = {}): SiteSettingsStore {
  const refreshMs = options.refreshMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  let cached: { stored: Record<string, unknown>; settings: SiteSettings; key: string; at: number; token: string | null } | null = null;

  async function load(given?: string): Promise<NonNullable<typeof cached>> {
    // The token is read before the record, so a write landing in between only makes the values newer than it.
    const token = given ?? (storage.changeToken ? await storage.changeToken() : null);
    if (cached && (token === null ? now() - cached.at < refreshMs : cached.token === token)) return cached;
    if (cached && token !== null && unwritten(cached.token, token)) {
      cached.token = token;
      return cached;
    }
    const stored = valuesOf(await storage.get(SETTINGS_COLLECTION, RECORD_ID));
    const key = JSON.stringify(stored);
    // Unchanged values keep the same settings object, so answers cached for it stay valid.
    const settings = cached && cached.key === key ? cached.settings : Object.freeze(withStoredValues(host, stored));
    cached = { stored, settings, key, at: now(), token };
    return cached;
  }

  /** Whether the store tells that nothing was written to the settings between the states `since` and `token`. */
  function unwritten(since: string | null, token: string): boolean {
    const writes = since === null ? null : writtenBetween(storage, since, token);
    return writes !== null && !writes.some((write) => write.collection === SETTINGS_COLLECTION);
  }

  return {
    current: async (changeToken) => (await load(changeToken)).settings,
    known(changeToken) {
      if (cached === null) return undefined;
      if (cached.token === changeToken) return cached.settings;
      // As `load`: after writes the store tells were to other records, the same settings, without waiting.
      if (!unwritten(cached.token, changeToken)) return undefined;
      cached.token = changeToken;
      return cached.settings;
    },
    stored: async () => (await load()).stored,
    async update(changes) {
      await storage.transaction(async (tx) => {
        const values = valuesOf(await tx.get(SETTINGS_COLLECTION, RECORD_ID));
        for (const [name, value] of Object.entries(changes)) {
          if (value === null) delete values[name];
          else values[name] = value;
        }
        if (await tx.get(SETTINGS_COLLECTION, RECORD_ID)) await tx.update(SETTINGS_COLLECTION, RECORD_ID, { values });
        else await tx.insert(SETTINGS_COLLECTION, { id: RECORD_ID, values });
      });
      if (cached) {
        cached.at = -Infinity;
        cached.token = null;
      }
    },
  };
}
