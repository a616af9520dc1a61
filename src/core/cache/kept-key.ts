/**
 * The keys of kept answers, remembered by path and query string: spelling a key anew (a long string joined from
 * its parts, then hashed by the cache's map) costs more than the rest of a cache hit, while looking the parts up
 * costs little. A remembered key is used only when every part it was made of is the same again.
 */
import type { Principal } from '../context.js';
import type { Varies } from '../registry.js';
import type { ParamMap } from '../types.js';
import { answerKey, callerIdentity } from './policy.js';

export interface KeptKeyParts {
  varies: Varies;
  apiUrl: string;
  gmtOffset: number;
  /** The resolved route path. */
  path: string;
  /** The query string exactly as sent; parameters a host parsed itself are not remembered. */
  query: string | ParamMap | undefined;
  user: Principal | null;
}

interface Remembered {
  varies: Varies;
  apiUrl: string;
  gmtOffset: number;
  identity: string;
  key: string;
}

/** Path → query string → the keys made for them (one per caller, site address and offset seen). */
const remembered = new Map<string, Map<string, Remembered[]>>();
let rememberedCount = 0;
const MAX_REMEMBERED = 1_000;
const MAX_PER_REQUEST = 4;
const MAX_REMEMBERED_LENGTH = 1_000;

/** `answerKey` of these parts (null when the caller cannot be told apart reliably), remembered where it can be. */
export function keptKey(parts: KeptKeyParts): string | null {
  const { varies, apiUrl, gmtOffset, path, query } = parts;
  if (typeof query !== 'string') return answerKey(varies, parts);
  const identity = callerIdentity(varies, parts.user);
  if (identity === null) return null;
  const known = remembered.get(path)?.get(query);
  if (known !== undefined) {
    for (const entry of known) {
      if (entry.varies === varies && entry.apiUrl === apiUrl && entry.gmtOffset === gmtOffset && entry.identity === identity) return entry.key;
    }
  }
  const key = answerKey(varies, parts);
  if (key !== null && path.length + query.length <= MAX_REMEMBERED_LENGTH) remember(path, query, { varies, apiUrl, gmtOffset, identity, key });
  return key;
}

function remember(path: string, query: string, entry: Remembered): void {
  if (rememberedCount >= MAX_REMEMBERED) {
    remembered.clear();
    rememberedCount = 0;
  }
  let byQuery = remembered.get(path);
  if (byQuery === undefined) remembered.set(path, (byQuery = new Map()));
  let entries = byQuery.get(query);
  if (entries === undefined) byQuery.set(query, (entries = []));
  if (entries.length >= MAX_PER_REQUEST) entries.shift();
  else rememberedCount += 1;
  entries.push(entry);
}
