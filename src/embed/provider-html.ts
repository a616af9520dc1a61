/**
 * The `html` the proxy serves for a provider's object (the reference's `data2html` and its filters):
 * `photo` → a linked image, `video`/`rich` → the provider's markup, `link` → a link, any other type → `false`.
 * Then, for `video`/`rich`: the first frame gets a `title`; markup from providers that are not on the trusted list
 * is cut down to an optional leading quote and one sandboxed frame with a secret (no frame → `false`); line breaks
 * outside `<pre>` are removed.
 */
import { htmlparser2, sanitizeHtml } from '../format/lazy-modules.js';
import { isNumeric } from '../format/php.js';
import { ALLOWED_PROTOCOLS } from '../format/url.js';
import { escapeText, escapeUrl } from './escape.js';
import { embedSecret } from './post-embed.js';

type Html = string | false;

export function providerHtml(data: Record<string, unknown>, url: string, trusted: boolean): Html {
  let html = baseHtml(data, url);
  if (html === false) return false;
  if (data.type === 'rich' || data.type === 'video') {
    html = withFrameTitle(html, typeof data.title === 'string' ? data.title : '');
    if (!trusted) html = untrustedFrame(html);
  }
  return html === false ? false : withoutLineBreaks(html);
}

const filled = (value: unknown) => value !== undefined && value !== null && value !== '' && value !== 0 && value !== '0' && value !== false;

function baseHtml(data: Record<string, unknown>, url: string): Html {
  const title = typeof data.title === 'string' ? data.title : '';
  switch (data.type) {
    case 'photo': {
      const { url: source, width, height } = data;
      if (!filled(source) || !filled(width) || !filled(height)) return false;
      if (typeof source !== 'string' || !isNumeric(width) || !isNumeric(height)) return false;
      return `<a href="${escapeUrl(url)}"><img src="${escapeUrl(source)}" alt="${escapeText(title)}" width="${escapeText(String(width))}"`
        + ` height="${escapeText(String(height))}" /></a>`;
    }
    case 'video':
    case 'rich':
      return typeof data.html === 'string' && data.html !== '' ? data.html : false;
    case 'link':
      return title !== '' ? `<a href="${escapeUrl(url)}">${escapeText(title)}</a>` : false;
    default:
      return false;
  }
}

interface Tag {
  name: string;
  start: number;
  /** Index of the tag's closing `>`. */
  end: number;
  attributes: Record<string, string>;
}

/** Start tags with their position and raw (undecoded) attribute values. */
function startTags(html: string): Tag[] {
  const tags: Tag[] = [];
  const parser = new (htmlparser2().Parser)({
    onopentag(name, attributes) {
      tags.push({ name, start: parser.startIndex, end: parser.endIndex, attributes });
    },
  }, { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  return tags;
}

function attributeText(attributes: Record<string, string>): string {
  return Object.entries(attributes).map(([name, value]) => `${name}="${value.replaceAll('"', '&quot;')}"`).join(' ');
}

/** The first frame's own title wins; otherwise the object's title is added; the attribute goes first. */
function withFrameTitle(html: string, dataTitle: string): string {
  const frame = startTags(html).find((tag) => tag.name === 'iframe');
  const own = frame?.attributes.title;
  const title = own !== undefined && own !== '' ? own : dataTitle;
  if (!frame || title === '') return html;
  const { title: _dropped, ...rest } = frame.attributes;
  const others = attributeText(rest);
  const tag = `<iframe title="${escapeText(title)}"${others === '' ? '' : ` ${others}`}>`;
  return `${html.slice(0, frame.start)}${tag}${html.slice(frame.end + 1)}`;
}

const FRAME_ATTRIBUTES = ['src', 'width', 'height', 'frameborder', 'marginwidth', 'marginheight', 'scrolling', 'title'];

const UNTRUSTED_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['a', 'blockquote', 'iframe'],
  allowedAttributes: { a: ['href'], blockquote: [], iframe: FRAME_ATTRIBUTES },
  allowedSchemes: [...ALLOWED_PROTOCOLS],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  disallowedTagsMode: 'discard',
  parser: { lowerCaseTags: true, lowerCaseAttributeNames: true },
};

/**
 * Markup from a discovered provider: only a quote at the very start and the last frame survive. The frame is
 * sandboxed and gets a fresh secret (also on the quote); with a quote to fall back on it starts visually hidden,
 * until the frame reports in.
 */
function untrustedFrame(html: string): Html {
  const clean = sanitizeHtml(html, UNTRUSTED_OPTIONS);
  const frames = startTags(clean).filter((tag) => tag.name === 'iframe');
  const frame = frames[frames.length - 1];
  if (!frame) return false;
  const quoteEnd = clean.startsWith('<blockquote>') ? clean.indexOf('</blockquote>') : -1;
  const quote = quoteEnd !== -1 && quoteEnd < frame.start ? clean.slice('<blockquote>'.length, quoteEnd) : null;

  const source = frame.attributes.src;
  const secret = source !== undefined ? embedSecret() : null;
  const attributes: string[] = [];
  for (const [name, raw] of Object.entries(frame.attributes)) {
    const value = decodeAttribute(raw);
    if (name === 'src') attributes.push(`src="${escapeUrl(`${value}#?secret=${secret}`)}" data-secret="${secret}"`);
    else attributes.push(`${name}="${escapeText(value)}"`);
  }
  const hidden = quote !== null ? ' style="position: absolute; clip: rect(1px, 1px, 1px, 1px);"' : '';
  const frameTag = `<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"${hidden} ${attributes.join(' ')}></iframe>`;
  if (quote === null) return frameTag;
  return `<blockquote class="wp-embedded-content"${secret ? ` data-secret="${secret}"` : ''}>${quote}</blockquote>${frameTag}`;
}

/** sanitize-html writes `&`, `<`, `>` and `"` as entities in attribute values; the value itself is wanted here. */
function decodeAttribute(raw: string): string {
  return raw.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** Line breaks are removed, except inside `<pre>` blocks. */
export function withoutLineBreaks(html: string): string {
  if (!html.includes('\n')) return html;
  const lower = html.toLowerCase();
  let output = '';
  let position = 0;
  for (;;) {
    const open = lower.indexOf('<pre', position);
    const tagEnd = open === -1 ? -1 : lower.indexOf('>', open);
    const close = tagEnd === -1 ? -1 : lower.indexOf('</pre>', tagEnd + 1);
    if (close === -1) {
      output += strip(html.slice(position));
      return output;
    }
    output += strip(html.slice(position, open)) + html.slice(open, close + '</pre>'.length);
    position = close + '</pre>'.length;
  }
}

function strip(text: string): string {
  return text.replace(/\r?\n/g, '');
}
