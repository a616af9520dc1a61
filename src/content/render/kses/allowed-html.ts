/** Moved to `src/format/kses/allowed-html.ts` (the protocols to `src/format/url.ts`); re-exported for code written against this path. */
export * from '../../../format/kses/allowed-html.js';
export { ALLOWED_PROTOCOLS } from '../../../format/url.js';
