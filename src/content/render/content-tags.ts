/**
 * Attributes added to `<img>` and `<iframe>` tags in rendered content: `loading="lazy"` for sized images and
 * iframes, `decoding="async"` for images, and a hook for attachment images (`wp-image-{id}` class) so the media
 * layer can add dimensions and `srcset`/`sizes`.
 */
import { ASCII_SPACE } from './patterns.js';

export interface ContentTagOptions {
  /** Called for `<img>` tags carrying a `wp-image-{id}` class; returns the tag with attributes added. */
  attachmentImage?: ((imageTag: string, attachmentId: number) => string) | undefined;
}

const MEDIA_TAG = new RegExp(`<(img|iframe)${ASCII_SPACE}[^>]+>`, 'g');
const ATTACHMENT_CLASS = /wp-image-([0-9]+)/i;

/** Beyond this many distinct tags, tags nested in other tags no longer get the reference's repeated rewriting. */
const MAX_SEQUENTIAL_TAGS = 200;

export function filterContentTags(content: string, options: ContentTagOptions = {}): string {
  const matches = [...content.matchAll(MEDIA_TAG)];
  if (matches.length === 0) return content;

  // Identical tags are handled once, at their first occurrence.
  const filtered = new Map<string, string>();
  for (const match of matches) {
    const tag = match[0];
    if (!filtered.has(tag)) filtered.set(tag, match[1] === 'img' ? filterImage(tag, options) : filterIframe(tag));
  }
  if (canReplaceInOnePass(filtered) || filtered.size > MAX_SEQUENTIAL_TAGS) {
    return content.replace(MEDIA_TAG, (tag) => filtered.get(tag) ?? tag);
  }
  // The reference replaces each distinct tag everywhere in turn, which also reaches copies of it inside other
  // tags and inside earlier replacements.
  let result = content;
  for (const [tag, replacement] of filtered) {
    if (replacement !== tag) result = result.split(tag).join(replacement);
  }
  return result;
}

/**
 * Whether replacing every match at once gives what replacing each distinct tag everywhere in turn gives: true
 * when no tag holds a second "<" (so a tag occurs only where it matches) and every rewritten tag is still one
 * tag (one "<" first, one ">" last) that equals no other (so no replacement makes a new occurrence).
 */
function canReplaceInOnePass(filtered: ReadonlyMap<string, string>): boolean {
  for (const [tag, replacement] of filtered) {
    if (tag.indexOf('<', 1) !== -1) return false;
    if (replacement === tag) continue;
    if (replacement.indexOf('<', 1) !== -1 || replacement.indexOf('>') !== replacement.length - 1) return false;
    if (filtered.has(replacement)) return false;
  }
  return true;
}

function hasSourceAndSize(tag: string): boolean {
  return tag.includes(' src="') && tag.includes(' width="') && tag.includes(' height="');
}

function filterImage(tag: string, options: ContentTagOptions): string {
  let image = tag;
  const attachmentId = Number.parseInt(ATTACHMENT_CLASS.exec(image)?.[1] ?? '0', 10);
  if (attachmentId > 0 && options.attachmentImage) image = options.attachmentImage(image, attachmentId);
  if (!image.includes(' loading=') && hasSourceAndSize(image)) {
    image = image.replaceAll('<img', '<img loading="lazy"');
  }
  if (!image.includes(' decoding=') && image.includes(' src="')) {
    image = image.replaceAll('<img ', '<img decoding="async" ');
  }
  return image;
}

function filterIframe(tag: string): string {
  // Iframes with a fallback (oEmbed results carrying data-secret) start hidden and are not lazy-loaded.
  if (tag.includes(' loading=') || tag.includes(' data-secret="') || !hasSourceAndSize(tag)) return tag;
  return tag.replaceAll('<iframe', '<iframe loading="lazy"');
}
