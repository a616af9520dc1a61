/** Moved to `src/format/php.ts`; this path re-exports it for code written against the old one. */
export * from '../../format/php.js';
