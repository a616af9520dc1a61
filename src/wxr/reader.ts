/**
 * Reading a WXR file as a stream of records: the site header first (once the channel's own fields are read),
 * then authors, terms and items in the file's order. One channel child is in memory at a time.
 */
import { WxrError } from './errors.js';
import { textChunks, type InputMeter, type WxrSource } from './input.js';
import { readAuthor, readItem, readSiteField, readTerm, type WxrAuthor, type WxrItem, type WxrSite, type WxrTerm } from './records.js';
import { ChannelScanner, type Fragment } from './scanner.js';
import { MAX_FRAGMENT_DEPTH, parseFragment } from './xml-tree.js';

export interface WxrLimits {
  /** Largest file, in bytes (default 1 GiB). */
  maxBytes?: number;
  /** Largest single item (with its comments) or other channel entry, in characters (default 16 MiB). */
  maxItemLength?: number;
  /** Most items, and most authors plus terms (default 1,000,000 each). */
  maxItems?: number;
  /** Deepest element nesting in the file (default 18: the envelope and 16 levels inside an item). */
  maxDepth?: number;
}

export const DEFAULT_LIMITS: Required<WxrLimits> = {
  maxBytes: 1024 * 1024 * 1024,
  maxItemLength: 16 * 1024 * 1024,
  maxItems: 1_000_000,
  maxDepth: MAX_FRAGMENT_DEPTH + 2,
};

export type WxrRecord =
  | { kind: 'site'; site: WxrSite }
  | { kind: 'author'; author: WxrAuthor }
  | { kind: 'term'; term: WxrTerm }
  | { kind: 'item'; item: WxrItem };

const HEADER_FIELDS = new Set(['title', 'link', 'description', 'language', 'wp:wxr_version', 'wp:base_site_url', 'wp:base_blog_url']);
const TERM_ELEMENTS = new Set(['wp:category', 'wp:tag', 'wp:term']);

async function* fragments(source: WxrSource, limits: Required<WxrLimits>, meter: InputMeter): AsyncGenerator<Fragment> {
  const scanner = new ChannelScanner({ maxFragmentLength: limits.maxItemLength, maxDepth: limits.maxDepth });
  for await (const text of textChunks(source, limits.maxBytes, meter)) yield* scanner.push(text);
  yield* scanner.end();
}

/**
 * The records of a WXR file, in order. Fails with a `WxrError` (naming the line) on malformed XML, a file
 * that is not a WordPress export, a missing or impossible value the import needs, or a passed limit; the
 * records before the failure have then already been yielded, so a caller that writes must be able to undo.
 */
export async function* readWxr(source: WxrSource, options: WxrLimits = {}, meter: InputMeter = { bytes: 0 }): AsyncGenerator<WxrRecord> {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof WxrLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`WXR limit ${key} must be a positive whole number`);
    limits[key] = value;
  }
  const site: WxrSite = { title: '', link: '', description: '', language: '', version: '', baseSiteUrl: '', baseBlogUrl: '' };
  let headerDone = false;
  let items = 0;
  let entries = 0;
  const finishHeader = (line: number): WxrRecord => {
    if (site.version === '') {
      throw new WxrError('wxr_invalid', '<wp:wxr_version> is missing from the channel: not a WordPress export', line);
    }
    headerDone = true;
    site.baseSiteUrl ||= site.link;
    site.baseBlogUrl ||= site.baseSiteUrl;
    return { kind: 'site', site };
  };

  for await (const fragment of fragments(source, limits, meter)) {
    const known = HEADER_FIELDS.has(fragment.name) || TERM_ELEMENTS.has(fragment.name) || fragment.name === 'item' || fragment.name === 'wp:author';
    if (!known) continue;
    const element = parseFragment(fragment);
    if (!element) continue;
    if (HEADER_FIELDS.has(element.name)) {
      if (!headerDone) readSiteField(site, element);
      continue;
    }
    if (!headerDone) yield finishHeader(fragment.line);
    if (element.name === 'item') {
      if (++items > limits.maxItems) throw new WxrError('wxr_too_large', `the file has more than ${limits.maxItems} items`, fragment.line);
      yield { kind: 'item', item: readItem(element) };
      continue;
    }
    if (++entries > limits.maxItems) throw new WxrError('wxr_too_large', `the file has more than ${limits.maxItems} authors and terms`, fragment.line);
    if (element.name === 'wp:author') yield { kind: 'author', author: readAuthor(element) };
    else yield { kind: 'term', term: readTerm(element) };
  }
  if (!headerDone) yield finishHeader(0);
}
