/** Entity tags and conditional GETs (RFC 9110 §8.8.3, §13.1.2). */
import { createHash, type Hash } from 'node:crypto';

/** A strong entity tag of the encoded body: its SHA-1, base64url. Equal bytes, equal tags, whoever asked. */
export function entityTag(bytes: Uint8Array | null): string {
  return entityTagOf(createHash('sha1').update(bytes ?? new Uint8Array(0)));
}

/**
 * Tags of large bodies the core built for one answer and hashed in turns as it built them: keeping such bytes
 * neither hashes nor copies them in one call (no route holds them).
 */
const builtTags = new WeakMap<Uint8Array, string>();

/** Remembers the tag of bytes the core built for one answer, worked out in turns. */
export function knowBuiltBytes(bytes: Uint8Array, tag: string): void {
  builtTags.set(bytes, tag);
}

/** The tag of bytes the core built for one answer, when these are such bytes. */
export function builtBytesTag(bytes: Uint8Array): string | undefined {
  return builtTags.get(bytes);
}

/** The entity tag of bytes fed to a SHA-1 `hash` piece by piece (large bodies, in turns). */
export function entityTagOf(hash: Hash): string {
  return `"${hash.digest('base64url')}"`;
}

/** One list element: a tag, `*`, or nothing (empty elements are allowed), then a comma or the end. */
const LISTED_TAG = /\s*(?:(W\/)?("[^"]*")|(\*))?\s*(?:,|$)/y;

/**
 * Whether `If-None-Match` matches the current tag: `*`, or any listed tag equal to it under weak comparison (a
 * `W/` prefix is ignored, as GET and HEAD allow). A malformed list matches nothing, so the full answer is sent.
 */
export function noneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  LISTED_TAG.lastIndex = 0;
  while (LISTED_TAG.lastIndex < header.length) {
    const start = LISTED_TAG.lastIndex;
    const found = LISTED_TAG.exec(header);
    if (!found || LISTED_TAG.lastIndex === start) return false;
    if (found[3] !== undefined || found[2] === tag) return true;
  }
  return false;
}

/** Of a full answer's headers, those a 304 repeats: validators, caching, `Vary`, CORS and `nosniff`. */
export function notModifiedHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (KEPT.has(name) || name.startsWith('Access-Control-')) kept[name] = value;
  }
  return kept;
}

const KEPT = new Set(['ETag', 'Cache-Control', 'Expires', 'Vary', 'X-Content-Type-Options']);
