/**
 * Sanitising HTML written by users who may not post unfiltered HTML, before it is stored: elements and
 * attributes outside the allow-list are removed (the text inside removed elements stays), URL attributes must
 * use an allowed protocol, `style` attributes keep only safe declarations, and a bare `&` becomes `&amp;`.
 * HTML comments are kept (block delimiters live in them), with their text sanitised the same way.
 */
import { sanitizeHtml } from '../lazy-modules.js';
import { GLOBAL_ATTRIBUTES, POST_ALLOWED_HTML, TITLE_ALLOWED_HTML, URL_ATTRIBUTES } from './allowed-html.js';
import { limitNesting } from './nesting.js';
import { ALLOWED_PROTOCOLS, removeBadProtocols } from '../url.js';
import { filterStyleAttribute } from './safe-css.js';

function optionsFor(allowed: Readonly<Record<string, readonly string[]>>, globalAttributes: readonly string[]): sanitizeHtml.IOptions {
  return {
    allowedTags: Object.keys(allowed),
    allowedAttributes: Object.fromEntries(
      Object.entries(allowed).map(([tag, attributes]) => [tag, [...attributes, ...globalAttributes]]),
    ),
    allowedSchemes: [...ALLOWED_PROTOCOLS],
    allowedSchemesByTag: {},
    allowedSchemesAppliedToAttributes: [...URL_ATTRIBUTES],
    allowProtocolRelative: true,
    disallowedTagsMode: 'discard',
    // Removed elements keep their text, including script and style bodies (which then read as plain text).
    nonTextTags: [],
    nonBooleanAttributes: [],
    parseStyleAttributes: false,
    parser: { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
    transformTags: { '*': (tagName, attribs) => ({ tagName, attribs: cleanAttributes(attribs) }) },
  };
}

/**
 * Cleans attribute values before the allow-list check: disallowed schemes are cut from URL attributes (the
 * library then still rejects anything unsafe that remains) and unsafe style declarations are dropped.
 */
function cleanAttributes(attributes: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const cleaned: sanitizeHtml.Attributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'style') {
      const safeStyle = filterStyleAttribute(value);
      if (safeStyle !== '') cleaned[name] = safeStyle;
    } else {
      cleaned[name] = URL_ATTRIBUTES.includes(name) ? removeBadProtocols(value) : value;
    }
  }
  return cleaned;
}

const POST_OPTIONS = optionsFor(POST_ALLOWED_HTML, GLOBAL_ATTRIBUTES);
const TITLE_OPTIONS = optionsFor(TITLE_ALLOWED_HTML, []);

/** Post content and excerpts. */
export function sanitizePostHtml(html: string): string {
  return sanitizeKeepingComments(html, POST_OPTIONS);
}

/** Titles: only inline formatting survives. */
export function sanitizeTitleHtml(html: string): string {
  return sanitizeKeepingComments(html, TITLE_OPTIONS);
}

const CONTROL_CHARACTERS = /[\x00-\x08\x0B\x0C\x0E-\x1F]/g;
// Comments on one line end at "-->"; anything else starting with "<" runs to the next ">" (so a comment
// spanning lines ends at its first ">"), as the reference tokenises markup.
const MARKUP = /<!--[^\n]*?-->|<[^>]*(?:>|$)/g;

function sanitizeKeepingComments(html: string, options: sanitizeHtml.IOptions): string {
  const text = html.replace(CONTROL_CHARACTERS, '');
  // Without markup characters there is nothing to remove or escape: the text comes out as it is, and the
  // sanitiser (megabytes, tens of milliseconds to load) stays unloaded for plain titles and image metadata.
  if (!/[<>&]/.test(text)) return text;
  const input = limitNesting(text);
  if (!input.includes('<!--')) return sanitizeHtml(input, options);

  const marker = unusedPrivateUseCharacter(input);
  const comments: string[] = [];
  const withPlaceholders = input.replace(MARKUP, (markup) => {
    if (!markup.startsWith('<!--')) return markup;
    comments.push(sanitizeComment(markup, options));
    return `${marker}${comments.length - 1}${marker}`;
  });
  const sanitized = sanitizeHtml(withPlaceholders, options);
  const placeholder = new RegExp(`${marker}(\\d+)${marker}`, 'g');
  // The parser may read a placeholder as part of a tag (an attribute value, say) where the tokeniser above
  // saw text; a comment is only put back in text, never inside a tag.
  const parts = sanitized.split(OUTPUT_TAG);
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] ?? '';
    parts[index] = index % 2 === 1 ? part.replace(placeholder, '') : part.replace(placeholder, (_, n: string) => comments[Number(n)] ?? '');
  }
  return parts.join('');
}

// In sanitised output every literal "<" starts a tag and attribute values carry no literal ">".
const OUTPUT_TAG = /(<[^>]*>?)/;

function sanitizeComment(comment: string, options: sanitizeHtml.IOptions): string {
  let body = comment.replaceAll('<!--', '').replaceAll('-->', '');
  for (let pass = 0; pass < 10; pass++) {
    const next = sanitizeKeepingComments(body, options);
    if (next === body) break;
    body = next;
  }
  if (body === '') return '';
  // "--" may not appear inside a comment, and a trailing "-" would close it early.
  return `<!--${body.replace(/--+/g, '-').replace(/-$/, '')}-->`;
}

function unusedPrivateUseCharacter(text: string): string {
  for (let code = 0xe000; code <= 0xf8ff; code++) {
    const character = String.fromCharCode(code);
    if (!text.includes(character)) return character;
  }
  return '\u0000';
}
