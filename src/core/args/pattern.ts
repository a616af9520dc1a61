/** Moved to `src/format/pcre.ts`; this path re-exports it for code written against the old one. */
export * from '../../format/pcre.js';
