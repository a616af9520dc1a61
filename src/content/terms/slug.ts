/** Moved to `src/format/slug.ts`; this path re-exports it for code written against the old one. */
export * from '../../format/slug.js';
