/** The options, the running state and the summary of one WXR import. */
import type { IdMap, WxrIdMaps } from './id-map.js';
import type { FilePort, ImportPort } from './ports.js';
import type { WxrLimits } from './reader.js';
import type { WxrSite } from './records.js';

export interface WxrImportOptions extends WxrLimits {
  /**
   * Fetch attachment files through the host's HTTP client (the safe one by default: no private or loopback
   * addresses) into the blob store. Default false: attachments keep pointing at their remote address.
   */
  fetchAttachments?: boolean;
  /** Role of the users made for the file's authors; default `subscriber` (the reference's default role). */
  authorRole?: string;
  /** User id for records whose author is unknown or could not be made; default 0 (none). */
  defaultAuthor?: number;
  /** Called as the import goes (after each record, and once the links are set); keep it cheap. */
  onProgress?: (progress: WxrProgress) => void;
}

export interface WxrProgress {
  phase: 'reading' | 'linking' | 'done';
  /** Bytes of the file read so far. */
  bytes: number;
  /** Items (posts, pages, attachments and skipped ones) read so far. */
  items: number;
  authors: number;
  terms: number;
  comments: number;
  files: number;
}

export interface WxrCounts {
  users: number;
  categories: number;
  tags: number;
  posts: number;
  pages: number;
  attachments: number;
  comments: number;
}

export interface WxrImportSummary {
  /** The file's channel: title, address, WXR version. */
  site: WxrSite;
  /** Records made. */
  created: WxrCounts;
  /** Records of the file that already were in the store (same login, term slug, or post type, title and date). */
  existing: WxrCounts;
  /** Records left out, by reason: `type:nav_menu_item`, `status:auto-draft`, `taxonomy:nav_menu`, `duplicate-id`. */
  skipped: Record<string, number>;
  /** Attachment files fetched into the blob store. */
  filesFetched: number;
  /**
   * What did not go as the file asked, at most 100: a field dropped or given a default (an unknown author or
   * status, post meta with no field here, a link to a record not in the file), an author that could not be
   * made, a file that could not be fetched.
   */
  warnings: string[];
  ids: WxrIdMaps;
}

/** What the steps of one import share. */
export interface ImportRun {
  port: ImportPort;
  files: FilePort;
  ids: IdMap;
  site: WxrSite;
  options: Required<Pick<WxrImportOptions, 'fetchAttachments' | 'authorRole' | 'defaultAuthor'>>;
  summary: WxrImportSummary;
  /** Highest post id before the import: only posts up to it count as already there. */
  lastPostBefore: number;
  /** Blob keys of fetched files, removed again if the import fails. */
  storedFiles: string[];
  progress: WxrProgress;
  /** Post and comment meta keys with nowhere to go → how many records had them; one warning each at the end. */
  droppedMeta: Map<string, number>;
}

const MAX_WARNINGS = 100;

export function warn(run: ImportRun, message: string): void {
  if (run.summary.warnings.length < MAX_WARNINGS) run.summary.warnings.push(message);
}

/** Meta the reference writes for its own bookkeeping (edit locks, old slugs, ping queues, oEmbed caches): not content. */
const BOOKKEEPING_META = /^(_edit_last|_edit_lock|_encloseme|_pingme|_wp_old_slug|_wp_old_date|_oembed_.*)$/;

export function dropMeta(run: ImportRun, key: string): void {
  if (!BOOKKEEPING_META.test(key)) run.droppedMeta.set(key, (run.droppedMeta.get(key) ?? 0) + 1);
}

/** One warning per dropped meta key, once the whole file has been read. */
export function warnDroppedMeta(run: ImportRun): void {
  for (const [key, count] of run.droppedMeta) warn(run, `meta "${key.slice(0, 60)}" has no field here and was not kept (${count} ${count === 1 ? 'record' : 'records'})`);
}

export function skip(run: ImportRun, reason: string): void {
  run.summary.skipped[reason] = (run.summary.skipped[reason] ?? 0) + 1;
}

export function emptyCounts(): WxrCounts {
  return { users: 0, categories: 0, tags: 0, posts: 0, pages: 0, attachments: 0, comments: 0 };
}
