/** Moved to `src/format/text.ts` (`stripAllTags` to `src/format/strip-tags.ts`); re-exported for code written against this path. */
export * from '../../format/text.js';
export { stripAllTags } from '../../format/strip-tags.js';
