/**
 * One post of a stream answer, with the reference's fields in its order: `id, author, content, excerpt, link,
 * media, mediatag, meta, modified, numcomments, publish, navthumb, thumb, thumbtag, taglist, title`.
 * A password-protected post's content and excerpt are served empty (the reference serves them in full).
 */
import { escapeHtml } from '../format/entities.js';
import { stripTags } from '../format/strip-tags.js';
import type { Site } from '../core/site.js';
import type { StoragePort } from '../ports/storage.js';
import { localToGmt, permalinkOf, isPostRecord, POSTS_COLLECTION, type PostRecord, type PostScope } from '../content/post-type/index.js';
import { compareText, getTerms } from '../content/taxonomy/index.js';
import { attachmentLink, fileUrl, folderOf, isAttachment, isImageMetadata, joinKey, type AttachmentRecord } from '../media/index.js';
import { getUser } from '../users/index.js';

/** Words the reference keeps of an excerpt when the slider does not say (`source.post.excerptLimit`). */
export const DEFAULT_EXCERPT_WORDS = 55;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const EXCERPT_TAGS = new Set(['b', 'br', 'i', 'strong', 'small']);
const THUMBNAIL_BOX = 150;

/** The site's default date format, `F j, Y` (`January 8, 2021`), of a stored date. */
export function formatPostDate(stored: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(stored);
  if (!match) return '';
  return `${MONTHS[Number(match[2]) - 1] ?? ''} ${Number(match[3])}, ${Number(match[1])}`;
}

/** PHP `strip_tags` with an allow list: allowed tags are kept whole, everything else as `stripTags` does. */
function stripTagsExcept(text: string, allowed: ReadonlySet<string>): string {
  const kept: string[] = [];
  const marked = text.replace(/[\uE000\uE001]/g, '').replace(/<\/?([a-z][a-z0-9]*)\b[^<>]*>/gi, (tag, name: string) => {
    if (!allowed.has(name.toLowerCase())) return tag;
    kept.push(tag);
    return `\uE000${kept.length - 1}\uE001`;
  });
  return stripTags(marked).replace(/\uE000(\d+)\uE001/g, (_, index: string) => kept[Number(index)] ?? '');
}

/** The reference's word intro: the first `limit` space-separated words and `...` when cut; `[...]` codes removed. */
export function excerptOf(stored: string, limit = DEFAULT_EXCERPT_WORDS): string {
  const text = stripTagsExcept(stored, EXCERPT_TAGS).replaceAll('<br/>', '').replaceAll('<br />', '');
  const words = text.split(' ');
  let intro = text;
  if (words.length > limit) {
    intro = words.slice(0, limit).join(' ').trim();
    if (intro !== '') intro += '...';
  }
  return intro.replace(/\[[^\]]*\]/g, '');
}

/** `wp_get_attachment_image_src` for `full` and `thumbnail`: `[url, width, height]`, null for files that are not images. */
export function imageSource(record: AttachmentRecord, size: 'full' | 'thumbnail', baseUrl: string): [string, number, number] | null {
  const metadata = record.media_details;
  if (!isImageMetadata(metadata)) return null;
  const sized = size === 'thumbnail' ? metadata.sizes?.thumbnail : undefined;
  if (sized) return [fileUrl(baseUrl, joinKey(folderOf(metadata.file), sized.file)), sized.width, sized.height];
  const full: [string, number, number] = [fileUrl(baseUrl, metadata.file), metadata.width, metadata.height];
  if (size === 'full') return full;
  const ratio = Math.min(1, THUMBNAIL_BOX / Math.max(metadata.width, 1), THUMBNAIL_BOX / Math.max(metadata.height, 1));
  return [full[0], Math.max(1, Math.round(metadata.width * ratio)), Math.max(1, Math.round(metadata.height * ratio))];
}

function imageTag(source: [string, number, number] | null, title: string): string {
  if (!source) return '';
  return `<img src="${source[0]}" width="${source[1]}" height="${source[2]}" alt="${escapeHtml(title)}" data-no-retina />`;
}

/** What building items needs, gathered once per request. */
export interface StreamEnvironment {
  storage: StoragePort;
  /** The posts module's view of the caller (readability, links). */
  scope: PostScope;
  site: Pick<Site, 'home' | 'timezone' | 'gmtOffset'>;
  /** Where uploaded files are served from. */
  uploadsBaseUrl: string;
}

async function tagList(post: PostRecord, environment: StreamEnvironment): Promise<string | false> {
  const ids = Array.isArray(post.tags) ? post.tags : [];
  if (ids.length === 0) return false;
  const terms = await getTerms(environment.storage, 'post_tag', ids);
  if (terms.length === 0) return false;
  terms.sort((a, b) => compareText(a.name, b.name) || a.id - b.id);
  const home = environment.site.home.replace(/\/+$/, '');
  return terms.map((term) => `<a href="${home}/tag/${encodeURIComponent(term.slug)}/" rel="tag">${term.name}</a>`).join(',');
}

async function imageOf(post: PostRecord, isGallery: boolean, storage: StoragePort): Promise<AttachmentRecord | null> {
  if (isGallery) return isAttachment(post) ? post : null;
  if (!(post.featured_media > 0)) return null;
  const record = await storage.get(POSTS_COLLECTION, post.featured_media);
  return isPostRecord(record) && isAttachment(record) ? record : null;
}

/**
 * The item of one post. `isGallery`: the posts are the images themselves (a list of attachments), so each is
 * its own media; otherwise the media is the post's featured image.
 */
export async function streamItem(post: PostRecord, environment: StreamEnvironment, isGallery: boolean): Promise<Record<string, unknown>> {
  const { storage, scope, uploadsBaseUrl } = environment;
  const author = post.author > 0 ? await getUser(storage, post.author) : null;
  const image = await imageOf(post, isGallery, storage);
  const full = image ? imageSource(image, 'full', uploadsBaseUrl) : null;
  const thumbnail = image ? imageSource(image, 'thumbnail', uploadsBaseUrl) : null;
  const hidden = post.password !== '';
  const publishedGmt = post.date_gmt ?? localToGmt(post.date, environment.site);
  return {
    id: post.id,
    author: author?.name ?? '',
    content: { content: hidden ? '' : post.content },
    excerpt: hidden ? '' : excerptOf(post.excerpt),
    link: isAttachment(post) ? await attachmentLink(post, scope) : await permalinkOf(post, scope.links),
    media: full ? full[0] : '',
    mediatag: imageTag(full, post.title),
    meta: [],
    modified: formatPostDate(post.modified),
    numcomments: String(typeof post.comment_count === 'number' ? post.comment_count : 0),
    publish: formatPostDate(publishedGmt),
    navthumb: '',
    thumb: thumbnail ? thumbnail[0] : '',
    thumbtag: imageTag(thumbnail, post.title),
    taglist: await tagList(post, environment),
    title: post.title,
  };
}
