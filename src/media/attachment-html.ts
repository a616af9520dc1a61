/**
 * The markup the reference puts in front of an attachment's description (`prepend_attachment`): the image at
 * its medium size linking to the full file, or a link to the file named by its title.
 */
import { constrainDimensions } from './images/dimensions.js';
import { baseNameOf, isImageMetadata, type ImageMetadata } from './images/metadata.js';

const MAX_SRCSET_WIDTH = 2048;

export function escapeAttribute(text: string): string {
  return text.replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#\d+|#x[0-9a-fA-F]+);)/g, '&amp;')
    .replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** Whether two sizes have the same aspect ratio, give or take a pixel (the reference's `wp_image_matches_ratio`). */
function matchesRatio(width: number, height: number, otherWidth: number, otherHeight: number): boolean {
  const [constrained, expected] = width > otherWidth
    ? [constrainDimensions(width, height, otherWidth), [otherWidth, otherHeight]]
    : [constrainDimensions(otherWidth, otherHeight, width), [width, height]];
  return Math.abs(constrained[0] - expected[0]!) <= 1 && Math.abs(constrained[1] - expected[1]!) <= 1;
}

/** `srcset` candidates of the same shape as the shown image, the shown one first. */
function srcset(metadata: ImageMetadata, folderUrl: string, shown: { file: string; width: number; height: number }): string {
  const candidates = [...Object.values(metadata.sizes), { file: baseNameOf(metadata.file), width: metadata.width, height: metadata.height }];
  const sources = new Map<number, string>();
  let first: [number, string] | null = null;
  for (const candidate of candidates) {
    const isShown = first === null && candidate.file === shown.file;
    if (!isShown && candidate.width > MAX_SRCSET_WIDTH) continue;
    if (!matchesRatio(shown.width, shown.height, candidate.width, candidate.height)) continue;
    const entry = `${folderUrl}/${encodeURIComponent(candidate.file)} ${candidate.width}w`;
    if (isShown) first = [candidate.width, entry];
    else if (!sources.has(candidate.width)) sources.set(candidate.width, entry);
  }
  const ordered = first ? [first[1], ...[...sources].filter(([width]) => width !== first![0]).map(([, entry]) => entry)] : [...sources.values()];
  return ordered.length >= 2 ? ordered.join(', ') : '';
}

export interface AttachmentHtmlInput {
  mimeType: string;
  metadata: unknown;
  /** Address of the main file. */
  url: string;
  alt: string;
  /** The rendered title, for links to files that are not images. */
  title: string;
}

export function attachmentHtml(input: AttachmentHtmlInput): string {
  const { url } = input;
  const metadata = input.metadata;
  if (!input.mimeType.startsWith('image/') || !isImageMetadata(metadata)) {
    return `<p class="attachment"><a href='${escapeAttribute(url)}'>${input.title}</a></p>`;
  }
  const folderUrl = url.slice(0, url.lastIndexOf('/'));
  const medium = metadata.sizes.medium;
  const shown = medium
    ? { file: medium.file, width: medium.width, height: medium.height }
    : (() => {
      const [width, height] = constrainDimensions(metadata.width, metadata.height, 300, 300);
      return { file: baseNameOf(metadata.file), width, height };
    })();
  const source = `${folderUrl}/${encodeURIComponent(shown.file)}`;
  const candidates = srcset(metadata, folderUrl, shown);
  const responsive = candidates
    ? ` srcset="${escapeAttribute(candidates)}" sizes="(max-width: ${shown.width}px) 100vw, ${shown.width}px"`
    : '';
  const image = `<img width="${shown.width}" height="${shown.height}" src="${escapeAttribute(source)}" class="attachment-medium size-medium"`
    + ` alt="${escapeAttribute(input.alt)}" decoding="async" loading="lazy"${responsive} />`;
  return `<p class="attachment"><a href='${escapeAttribute(url)}'>${image}</a></p>`;
}
