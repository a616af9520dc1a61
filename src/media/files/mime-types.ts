/** Moved to `src/format/mime-types.ts`; this path re-exports it for code written against the old one. */
export * from '../../format/mime-types.js';
