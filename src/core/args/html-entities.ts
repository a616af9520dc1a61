/** Moved to `src/format/entities.ts`; this path re-exports it for code written against the old one. */
export * from '../../format/entities.js';
