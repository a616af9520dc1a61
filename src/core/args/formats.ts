/** Moved to `src/format/formats.ts`; this path re-exports it for code written against the old one. */
export * from '../../format/formats.js';
