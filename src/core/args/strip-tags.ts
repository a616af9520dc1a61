/** Moved to `src/format/strip-tags.ts`; this path re-exports it for code written against the old one. */
export * from '../../format/strip-tags.js';
