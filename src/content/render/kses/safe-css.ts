/** Moved to `src/format/kses/safe-css.ts`; this path re-exports it for code written against the old one. */
export * from '../../../format/kses/safe-css.js';
