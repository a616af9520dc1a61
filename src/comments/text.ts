/**
 * Comment text: cleaned once when saved (the allowed markup of the writer, and `rel="nofollow ugc"` on links to
 * other sites), and formatted for display in the reference's `comment_text` order: bare addresses become links,
 * smart punctuation, bare ampersands, smilies, paragraphs, and the brand name's capital P.
 */
import { autop, capitalizeBrandInContent, convertChars, convertSmilies, splitHtml, texturize } from '../content/render/index.js';
import { sanitizePostHtmlWhereCheapest, sanitizeTitleHtmlWhereCheapest } from '../content/render/pool/jobs.js';

/**
 * Writers with `unfiltered_html` keep post markup; everyone else the small inline set. Long comments (dense
 * markup of the longest a comment may be holds the loop for tens of milliseconds) are sanitised on a worker
 * thread, as post content is.
 */
export function sanitizeCommentHtml(html: string, unfiltered: boolean): string | Promise<string> {
  return unfiltered ? sanitizePostHtmlWhereCheapest(html) : sanitizeTitleHtmlWhereCheapest(html);
}

const ANCHOR_OPEN = /<a\s([^>]*)>/gi;
const ATTRIBUTE = /([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

const escapeAttribute = (value: string) => value.replace(/&(?![a-z0-9#]+;)/gi, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Adds `nofollow ugc` to the `rel` of links, except links to the site's own host. */
export function addUserGeneratedRel(html: string, home: string): string {
  const ownHost = hostOf(home);
  return html.replace(ANCHOR_OPEN, (whole, attributeText: string) => {
    const attributes: [string, string | null][] = [];
    for (const match of attributeText.matchAll(ATTRIBUTE)) {
      attributes.push([match[1]!.toLowerCase(), match[2] ?? match[3] ?? match[4] ?? null]);
    }
    const href = attributes.find(([name]) => name === 'href')?.[1] ?? '';
    if (/^https?:/i.test(href) && ownHost !== null && hostOf(href) === ownHost) return whole;
    const existing = attributes.find(([name]) => name === 'rel')?.[1];
    const rel = [...new Set([...(existing ?? '').split(' ').map((part) => part.trim()).filter(Boolean), 'nofollow', 'ugc'])].join(' ');
    const kept = attributes.filter(([name]) => name !== 'rel')
      .map(([name, value]) => (value === null ? name : `${name}="${escapeAttribute(value)}"`));
    return `<a ${[...kept, `rel="${escapeAttribute(rel)}"`].join(' ')}>`;
  });
}

const URL_IN_TEXT = /(^|[\s>(])((?:https?|ftp):\/\/[\w\-.~:/?#[\]@!$&'()*+,;=%]+)/gi;
const WWW_IN_TEXT = /(^|[\s>(])(www\.[\w-]+\.[\w\-.~:/?#[\]@!$&'()*+,;=%]*)/gi;
const EMAIL_IN_TEXT = /(^|[\s>(])([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/g;
const TRAILING_PUNCTUATION = /[.,;:!?'"]+$/;
const SKIPPED_ELEMENTS = /^<(a|pre|code|script|style|textarea)\b/i;

function linkFor(prefix: string, text: string, href: (url: string) => string, rel: boolean): string {
  let url = text;
  let suffix = TRAILING_PUNCTUATION.exec(url)?.[0] ?? '';
  url = url.slice(0, url.length - suffix.length);
  // Parentheses belong to the address only when paired.
  while ((url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) {
    const cut = url.lastIndexOf(')');
    suffix = url.slice(cut) + suffix;
    url = url.slice(0, cut);
  }
  if (url === '') return prefix + text;
  const target = escapeAttribute(href(url));
  return `${prefix}<a href="${target}"${rel ? ' rel="nofollow ugc"' : ''}>${url}</a>${suffix}`;
}

/** Bare web and mail addresses in text (not inside links, code or scripts) become links. */
export function makeClickable(html: string): string {
  const parts = splitHtml(html);
  let skipping: string | null = null;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (index % 2 === 1) {
      if (skipping === null) skipping = SKIPPED_ELEMENTS.exec(part)?.[1]?.toLowerCase() ?? null;
      else if (part.toLowerCase().startsWith(`</${skipping}`)) skipping = null;
      continue;
    }
    if (skipping !== null || part === '') continue;
    parts[index] = part
      .replace(URL_IN_TEXT, (_whole, prefix: string, url: string) => linkFor(prefix, url, (value) => value, true))
      .replace(WWW_IN_TEXT, (_whole, prefix: string, url: string) => linkFor(prefix, url, (value) => `http://${value}`, true))
      .replace(EMAIL_IN_TEXT, (_whole, prefix: string, email: string) => `${prefix}<a href="mailto:${escapeAttribute(email)}">${email}</a>`);
  }
  return parts.join('');
}

export interface CommentTextOptions {
  /** Whether emoticons become emoji (the `use_smilies` setting; default true). */
  smilies?: boolean;
}

/** `content.rendered` of a comment. */
export function renderCommentText(raw: string, options: CommentTextOptions = {}): string {
  let html = makeClickable(raw);
  html = texturize(html);
  html = convertChars(html);
  if (options.smilies ?? true) html = convertSmilies(html);
  html = autop(html);
  return capitalizeBrandInContent(html);
}
