/** A stored attachment → its response fields and links: the post fields it shares, then the media fields. */
import type { Item, RequestContext } from '../core/context.js';
import { renderContent, renderTitle } from '../content/render/index.js';
import { renderWhereCheapest } from '../content/render/pool/jobs.js';
import { permalinkOf, postsIn, preparePost, scopeOf, type PostRecord, type PostScope } from '../content/post-type/index.js';
import { attachmentHtml } from './attachment-html.js';
import type { UploadsConfig } from './config.js';
import type { MediaType } from './deps.js';
import { baseNameOf, folderOf, isImageMetadata, joinKey } from './images/metadata.js';
import { missingSizes } from './images/subsizes.js';
import { fileUrl, mainFileUrl, uploadsBaseUrl, type AttachmentRecord } from './record.js';

const API = 'https://api.w.org/';
/** Post fields attachments do not have. */
const POST_ONLY_FIELDS = new Set(['password', 'content', 'excerpt']);
/** Relations of posts that attachments do not carry. */
const POST_ONLY_RELATIONS = ['version-history', 'predecessor-version', `${API}attachment`, `${API}action-publish`];

/**
 * The attachment's page: below its parent's address when the parent has a pretty one, at the site root
 * otherwise, and the plain `?attachment_id=` form without pretty permalinks.
 */
export async function attachmentLink(post: PostRecord, scope: PostScope): Promise<string> {
  const { home, permalinkStructure, storage } = scope.links;
  if (permalinkStructure !== '' && post.parent > 0 && post.parent !== post.id) {
    const parent = await postsIn(storage).get(post.parent);
    if (parent) {
      const parentLink = await permalinkOf(parent, scope.links);
      if (!parentLink.includes('?')) {
        const name = /^\d+$/.test(post.slug) || permalinkStructure.includes('%category%') ? `attachment/${post.slug}` : post.slug;
        const withSlash = parentLink.endsWith('/') ? parentLink : `${parentLink}/`;
        return permalinkStructure.endsWith('/') ? `${withSlash}${name}/` : `${withSlash}${name}`;
      }
    }
  } else if (permalinkStructure !== '') {
    return `${home}/${post.slug}${permalinkStructure.endsWith('/') ? '/' : ''}`;
  }
  return `${home}/?attachment_id=${post.id}`;
}

/** The stored metadata as the response shows it: sizes with `mime_type` and `source_url`, plus a `full` entry. */
export function mediaDetails(record: AttachmentRecord, baseUrl: string): Record<string, unknown> {
  const metadata = record.media_details;
  if (!metadata || Object.keys(metadata).length === 0) return {};
  if (!isImageMetadata(metadata)) return { ...metadata, sizes: {} };
  const { sizes, ...rest } = metadata;
  const entries = Object.entries(sizes ?? {});
  if (entries.length === 0) return { ...withSizes(rest, {}) };
  const folder = folderOf(metadata.file);
  const shown: Record<string, unknown> = {};
  for (const [name, size] of entries) {
    shown[name] = {
      file: size.file,
      width: size.width,
      height: size.height,
      filesize: size.filesize,
      mime_type: size['mime-type'],
      source_url: fileUrl(baseUrl, joinKey(folder, size.file)),
    };
  }
  shown.full = {
    file: baseNameOf(metadata.file),
    width: metadata.width,
    height: metadata.height,
    mime_type: record.mime_type,
    source_url: fileUrl(baseUrl, metadata.file),
  };
  return withSizes(rest, shown);
}

/** Puts `sizes` back in its place (after `filesize`). */
function withSizes(rest: Record<string, unknown>, sizes: Record<string, unknown>): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    output[key] = value;
    if (key === 'filesize') output.sizes = sizes;
  }
  if (!('sizes' in output)) output.sizes = sizes;
  return output;
}

/** Size names the attachment could have but lacks, measured on the original upload. */
export function missingSizesOf(record: AttachmentRecord, uploads: UploadsConfig): string[] {
  const metadata = record.media_details;
  if (!record.mime_type.startsWith('image/')) return [];
  const sizes = uploads.images.sizes;
  if (!isImageMetadata(metadata)) return [];
  const original = record.original_size as { width: number; height: number } | undefined;
  return missingSizes(metadata, record.mime_type, original ?? { width: metadata.width, height: metadata.height }, sizes);
}

export async function prepareAttachment(record: AttachmentRecord, context: RequestContext, mediaType: MediaType, contextName = context.context): Promise<Item> {
  const scope = scopeOf(context, mediaType);
  const options = scope.prepareOptions(contextName);
  const wants = (field: string) => context.wantsField(field) && (mediaType.schema.properties[field]?.context ?? []).includes(contextName);
  const prepared = await preparePost(record, { ...options, wantsField: (field) => !POST_ONLY_FIELDS.has(field) && options.wantsField(field) });
  const data = prepared.data;
  const baseUrl = uploadsBaseUrl(mediaType.deps.uploads, context.site);

  if ('link' in data) data.link = await attachmentLink(record, scope);
  if ('permalink_template' in data) data.permalink_template = `${scope.links.home}/?attachment_id=${record.id}`;
  if ('meta' in data) data.meta = [];

  const needsHtml = wants('description') || wants('caption');
  const html = needsHtml
    ? attachmentHtml({
      mimeType: record.mime_type,
      metadata: record.media_details,
      url: mainFileUrl(baseUrl, record),
      alt: record.alt_text ?? '',
      title: renderTitle(record.title, { status: record.status, hasPassword: false }),
    })
    : '';
  // An author may store megabytes here too: large texts render on a worker thread, as posts' do.
  if (wants('description')) {
    data.description = { raw: record.content, rendered: await renderWhereCheapest({ kind: 'content', raw: record.content, attachmentHtml: html }, renderContent) };
  }
  if (wants('caption')) {
    const job = { kind: 'excerpt', excerpt: record.excerpt, content: record.content, excerptLength: undefined, attachmentHtml: html } as const;
    data.caption = { raw: record.excerpt, rendered: await renderWhereCheapest(job, renderContent) };
  }
  if (wants('alt_text')) data.alt_text = record.alt_text ?? '';
  if (wants('media_type')) data.media_type = record.mime_type.startsWith('image/') ? 'image' : 'file';
  if (wants('mime_type')) data.mime_type = record.mime_type;
  if (wants('media_details')) data.media_details = mediaDetails(record, baseUrl);
  if (wants('post')) data.post = record.parent > 0 ? record.parent : null;
  if (wants('source_url')) data.source_url = mainFileUrl(baseUrl, record);
  if (wants('missing_image_sizes')) data.missing_image_sizes = missingSizesOf(record, mediaType.deps.uploads);

  if (!prepared.links) return { data };
  const links = { ...prepared.links };
  for (const relation of POST_ONLY_RELATIONS) delete links[relation];
  return { data, links };
}
