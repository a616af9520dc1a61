/**
 * Large libraries loaded on first use instead of at import, so that `import('quire')` stays fast and hosts
 * that never sanitise HTML or read XML do not pay for it: sanitize-html (~85 ms), htmlparser2 (~50 ms) and
 * fast-xml-parser (~70 ms). They are loaded with `require` (each ships a CommonJS build) so that callers stay
 * synchronous; everything uses these accessors, so only one copy of each is ever loaded.
 */
import { createRequire } from 'node:module';
import type SanitizeHtml from 'sanitize-html';

const require = createRequire(import.meta.url);

let sanitizer: typeof SanitizeHtml | undefined;
let parser2: typeof import('htmlparser2') | undefined;
let xml: typeof import('fast-xml-parser') | undefined;

export function sanitizeHtml(dirty: string, options?: SanitizeHtml.IOptions): string {
  sanitizer ??= require('sanitize-html') as typeof SanitizeHtml;
  return sanitizer(dirty, options);
}

// The library's option types, under the same name as the function (as the library's own default export has them).
export declare namespace sanitizeHtml {
  type IOptions = SanitizeHtml.IOptions;
  type Attributes = SanitizeHtml.Attributes;
}

export function htmlparser2(): typeof import('htmlparser2') {
  parser2 ??= require('htmlparser2') as typeof import('htmlparser2');
  return parser2;
}

export function fastXmlParser(): typeof import('fast-xml-parser') {
  xml ??= require('fast-xml-parser') as typeof import('fast-xml-parser');
  return xml;
}
