/** Moved to `src/format/url.ts`; this path re-exports it for code written against the old one. */
export * from '../../format/url.js';
