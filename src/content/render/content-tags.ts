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

export function filterContentTags(content: string, options: ContentTagOptions = {}): string {
  const matches = [...content.matchAll(MEDIA_TAG)];
  if (matches.length === 0) return content;

  // Identical tags are handled once, at their first occurrence, and replaced everywhere.
  const done = new Set<string>();
  let result = content;
  for (const match of matches) {
    const tag = match[0];
    if (done.has(tag)) continue;
    done.add(tag);
    const filtered = match[1] === 'img' ? filterImage(tag, options) : filterIframe(tag);
    if (filtered !== tag) result = result.split(tag).join(filtered);
  }
  return result;
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
