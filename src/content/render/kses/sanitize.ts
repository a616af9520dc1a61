/** Moved to `src/format/kses/sanitize.ts`; this path re-exports it for code written against the old one. */
export * from '../../../format/kses/sanitize.js';
