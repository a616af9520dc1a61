/**
 * The oEmbed object of one of this site's posts or pages (the reference's `get_oembed_response_data` with its
 * `rich` filter): provider and author, the rendered title ("Protected: " included), the frame size, the quote +
 * sandboxed frame markup with a fresh secret, and the featured image as thumbnail.
 */
import { randomInt } from 'node:crypto';
import { pageUri, permalinkOf, isPostRecord, postsIn, POSTS_COLLECTION, type PostRecord } from '../content/post-type/index.js';
import { renderTitle } from '../content/render/index.js';
import { constrainDimensions, fileUrl, isAttachment, isImageMetadata } from '../media/index.js';
import { getUser } from '../users/index.js';
import { absint, escapeText, escapeUrl } from './escape.js';
import { HOST_SCRIPT_TAG } from './host-script.js';
import { linkEnvironment, type LocalSite } from './local.js';

export interface PostEmbedSite extends LocalSite {
  /** Public address of uploaded files, without a trailing slash. */
  uploadsBaseUrl: string;
  hostScript: boolean;
}

export const MIN_WIDTH = 200;
export const MAX_WIDTH = 600;
/** A thumbnail is the image size fitting `width × this`, i.e. any height. */
const UNBOUNDED_HEIGHT = 99999;
const SECRET_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The frame size for a requested width: width within 200–600, height 16:9 of it but at least 200. */
export function frameSize(maxwidth: unknown): { width: number; height: number } {
  const width = Math.min(Math.max(MIN_WIDTH, absint(maxwidth)), MAX_WIDTH);
  return { width, height: Math.max(Math.ceil((width / 16) * 9), 200) };
}

/** A random 10-character secret tying the quote, the frame and the frame's messages together. */
export function embedSecret(): string {
  let secret = '';
  for (let index = 0; index < 10; index++) secret += SECRET_ALPHABET[randomInt(SECRET_ALPHABET.length)];
  return secret;
}

export async function postEmbedData(post: PostRecord, maxwidth: unknown, site: PostEmbedSite): Promise<Record<string, unknown>> {
  const { width, height } = frameSize(maxwidth);
  const title = renderTitle(post.title, { status: post.status, hasPassword: post.password !== '', protectedPrefix: true });
  const author = post.author > 0 ? await getUser(site.storage, post.author) : null;
  const data: Record<string, unknown> = {
    version: '1.0',
    provider_name: site.site.name,
    provider_url: site.site.home,
    author_name: author ? author.name : site.site.name,
    author_url: author ? authorUrl(author.id, author.slug, site) : site.site.home,
    title,
    type: 'rich',
    width,
    height,
    html: await embedHtml(post, title, width, height, site),
  };
  const thumbnail = post.featured_media > 0 ? await thumbnailOf(post.featured_media, width, site) : null;
  if (thumbnail) Object.assign(data, thumbnail);
  return data;
}

function authorUrl(id: number, slug: string, site: PostEmbedSite): string {
  const structure = site.permalinkStructure;
  if (structure === '' || slug === '') return `${site.site.home}/?author=${id}`;
  return `${site.site.home}/author/${slug}${structure.endsWith('/') ? '/' : ''}`;
}

async function embedHtml(post: PostRecord, title: string, width: number, height: number, site: PostEmbedSite): Promise<string> {
  const permalink = await permalinkOf(post, linkEnvironment(site));
  const secret = embedSecret();
  const frameTitle = escapeText(`&#8220;${title}&#8221; &#8212; ${site.site.name}`);
  const quote = `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${escapeUrl(permalink)}">${title}</a></blockquote>`;
  const frame = `<iframe sandbox="allow-scripts" security="restricted" src="${escapeUrl(`${await embedUrlOf(permalink, site)}#?secret=${secret}`)}"`
    + ` width="${width}" height="${height}" title="${frameTitle}" data-secret="${secret}" frameborder="0" marginwidth="0"`
    + ' marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>';
  return `${quote}${frame}${site.hostScript ? HOST_SCRIPT_TAG : ''}`;
}

/**
 * The page a frame shows: `{permalink}embed/` with pretty permalinks, the permalink with `embed=true` without them
 * or when a real page already lives at `…/embed/`.
 */
export async function embedUrlOf(permalink: string, site: LocalSite): Promise<string> {
  const withQuery = `${permalink}${permalink.includes('?') ? '&' : '?'}embed=true`;
  const structure = site.permalinkStructure;
  if (structure === '' || permalink.includes('?')) return withQuery;
  const pretty = `${permalink.replace(/\/+$/, '')}/embed${structure.endsWith('/') ? '/' : ''}`;
  return (await pathIsTaken(pretty.slice(site.site.home.length), site)) ? withQuery : pretty;
}

/** Whether a post, page or attachment already has the site-relative path (the reference's `get_page_by_path`). */
async function pathIsTaken(path: string, site: LocalSite): Promise<boolean> {
  const wanted = path.replace(/^\/+|\/+$/g, '');
  const slug = wanted.slice(wanted.lastIndexOf('/') + 1);
  const { items } = await postsIn(site.storage).list({
    where: [{ field: 'slug', op: 'eq', value: slug }, { field: 'type', op: 'in', values: ['post', 'page', 'attachment'] }],
    limit: 20,
  });
  for (const item of items) {
    const itemPath = item.type === 'page' ? await pageUri(site.storage, item) : item.slug;
    if (itemPath === wanted) return true;
  }
  return false;
}

/**
 * The featured image at the size best fitting `width` × any height. Sub-sizes never reach an unbounded height, so
 * (as in the reference) this is the main file, scaled down to the width.
 */
async function thumbnailOf(attachmentId: number, width: number, site: PostEmbedSite): Promise<Record<string, unknown> | null> {
  const record = await site.storage.get(POSTS_COLLECTION, attachmentId);
  if (!isPostRecord(record) || !isAttachment(record)) return null;
  const metadata = record.media_details;
  if (!isImageMetadata(metadata)) return null;
  const [thumbnailWidth, thumbnailHeight] = constrainDimensions(metadata.width, metadata.height, width, UNBOUNDED_HEIGHT);
  return {
    thumbnail_url: fileUrl(site.uploadsBaseUrl, typeof record.file === 'string' && record.file !== '' ? record.file : metadata.file),
    thumbnail_width: thumbnailWidth,
    thumbnail_height: thumbnailHeight,
  };
}
