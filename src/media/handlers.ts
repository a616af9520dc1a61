/** Handlers of `/cms/v2/media` and `/cms/v2/media/{id}`. */
import type { Params } from '../core/args/define.js';
import type { RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { collection, created, item, reply } from '../core/response.js';
import { paging } from '../core/paging.js';
import { filterByContext } from '../core/shape.js';
import {
  buildListPlan, checkListOrder, deletePost, listVisibility, nowDates, onlyVisible, postsIn, savePost, scopeOf,
  type PostRecord,
} from '../content/post-type/index.js';
import { sanitizeTitle } from '../format/slug.js';
import type { Condition } from '../ports/storage.js';
import { acceptFile, allowedTypesFor, monthFolder } from './accept.js';
import { checkParentType, mediaChanges } from './changes.js';
import type { mediaCollectionArgs, mediaCreateArgs, mediaUpdateArgs } from './args.js';
import type { MediaDeps, MediaType } from './deps.js';
import { splitExtension } from './files/file-name.js';
import { mediaTypeGroups } from '../format/mime-types.js';
import { baseNameOf } from './images/metadata.js';
import { readImageMeta } from './images/image-meta.js';
import { incomingFile } from './incoming.js';
import { generateMetadata } from './metadata-writer.js';
import { attachmentLink, prepareAttachment } from './prepare.js';
import { nextTurn } from '../format/turn.js';
import { requireAttachment } from './permissions.js';
import { asAttachment, attachmentsIn, blobKeysOf, fileUrl, removedMeanwhile, uploadsBaseUrl, type AttachmentRecord } from './record.js';

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** MIME types the `media_type` and `mime_type` filters stand for; empty when neither names an allowed type. */
function mimeFilter(context: RequestContext, deps: MediaDeps): string[] {
  const groups = mediaTypeGroups(allowedTypesFor(context.user, deps));
  const types: string[] = [];
  for (const mediaType of list<string>(context.params.media_type)) types.push(...(groups.get(mediaType) ?? []));
  for (const mimeType of list<string>(context.params.mime_type)) {
    if ((groups.get(mimeType.split('/')[0]!) ?? []).includes(mimeType)) types.push(mimeType);
  }
  return [...new Set(types)];
}

export async function listMedia(context: RequestContext<Params<typeof mediaCollectionArgs>>, mediaType: MediaType): Promise<unknown> {
  const { params } = context;
  checkListOrder(params);
  const scope = scopeOf(context, mediaType);
  const statuses = list<string>(params.status);
  // Media search also finds items by their file name.
  const plan = await buildListPlan(mediaType.definition, { ...params, status: statuses.length > 0 ? statuses : ['inherit'] }, {
    storage: scope.storage, site: context.site, user: context.user, visibility: listVisibility(context, scope), extraSearchFields: ['file'],
  });
  const where: Condition[] = plan.query.where ?? [];
  const parents = list<number>(params.parent);
  if (parents.length > 0) where.push({ field: 'parent', op: 'in', values: [...new Set(parents)] });
  const parentsExcluded = list<number>(params.parent_exclude);
  if (parentsExcluded.length > 0) where.push({ field: 'parent', op: 'notIn', values: [...new Set(parentsExcluded)] });
  const mimeTypes = mimeFilter(context, mediaType.deps);
  if (mimeTypes.length > 0) where.push({ field: 'mime_type', op: 'in', values: mimeTypes });
  plan.query.where = where;

  const result = await attachmentsIn(scope.storage).list(plan.query);
  const total = result.total ?? result.items.length;
  const pages = paging(total, plan.page, plan.perPage, { pastTheEnd: 'rest_post_invalid_page_number' });
  const visible = await onlyVisible(result.items, scope, context);
  const items = await Promise.all(visible.map((record) => prepareAttachment(record, context, mediaType)));
  return collection(items, pages);
}

export async function readMedia(context: RequestContext, mediaType: MediaType): Promise<unknown> {
  const record = await requireAttachment(context, mediaType);
  const prepared = await prepareAttachment(record, context, mediaType);
  // As for single posts: the page that shows the record, for clients that want its HTML view.
  const page = typeof prepared.data.link === 'string' ? prepared.data.link : await attachmentLink(record, scopeOf(context, mediaType));
  return item(prepared, { headers: { Link: `<${page}>; rel="alternate"; type=text/html` } });
}

/** The default title: the embedded title unless it is only a number, else the file name without extension. */
function defaultTitle(imageTitle: string, clientName: string, storedKey: string, fromMultipart: boolean): string {
  if (imageTitle.trim() !== '' && !/^\d+(\.\d+)?$/.test(sanitizeTitle(imageTitle))) return imageTitle;
  if (fromMultipart) {
    const dot = clientName.lastIndexOf('.');
    const withoutExtension = dot === -1 ? '' : clientName.slice(0, dot);
    if (withoutExtension !== '') return withoutExtension;
  }
  return splitExtension(baseNameOf(storedKey))[0];
}

/** The upload folder: the current month, or the month of the post the item is attached to (not for pages). */
export function uploadFolderFor(context: RequestContext, deps: MediaDeps, parent: PostRecord | null): string {
  if (parent && parent.type !== 'page' && /^[1-9]\d{3}-/.test(parent.date)) return monthFolder(parent.date);
  return monthFolder(nowDates(deps.clock.now(), context.site).local);
}

export async function createMedia(context: RequestContext<Params<typeof mediaCreateArgs>>, mediaType: MediaType): Promise<unknown> {
  const { deps } = mediaType;
  const parent = await checkParentType(context, mediaType);
  const scope = scopeOf(context, mediaType);
  const incoming = await incomingFile(context, deps);
  await nextTurn();
  const accepted = await acceptFile(context.user, deps, incoming, uploadFolderFor(context, deps, parent), {
    generateSubSizes: context.params.generate_sub_sizes !== false, convertFormat: context.params.convert_format !== false,
  });

  await nextTurn();
  let record: AttachmentRecord;
  try {
    const changes = await mediaChanges(context, null, mediaType);
    const imageMeta = accepted.type.startsWith('image/') ? readImageMeta(accepted.bytes, accepted.type) : null;
    if (!changes.title) {
      changes.title = defaultTitle(imageMeta?.title ?? '', accepted.clientName, accepted.key, incoming.transport === 'multipart');
    }
    if (!changes.excerpt && imageMeta && imageMeta.caption.trim() !== '') changes.excerpt = imageMeta.caption;
    const altText = context.params.alt_text ?? '';
    const guid = fileUrl(uploadsBaseUrl(deps.uploads, context.site), accepted.key);
    record = await scope.storage.transaction(async (tx) => {
      const saved = await savePost(null, changes, scope.saveEnvironment(tx), 'create');
      const withFile = await attachmentsIn(tx).update(saved.id, {
        guid, mime_type: accepted.type, file: accepted.key, media_details: {}, alt_text: altText,
      });
      return withFile ?? removedMeanwhile(saved.id);
    });
  } catch (error) {
    await deps.blobs.remove(accepted.key).catch(() => undefined);
    throw error;
  }

  record = await generateMetadata(deps, {
    id: record.id,
    key: accepted.key,
    type: accepted.type,
    bytes: accepted.bytes,
    header: accepted.header,
    rendered: accepted.rendered,
    generateSubSizes: context.params.generate_sub_sizes !== false,
    convertFormat: context.params.convert_format !== false,
  });
  await nextTurn();
  const prepared = await prepareAttachment(record, context, mediaType, 'edit');
  return created(prepared, context.url(`/cms/v2/media/${record.id}`), { context: 'edit', headers: { 'X-WP-Upload-Attachment-ID': record.id } });
}

export async function updateMedia(context: RequestContext<Params<typeof mediaUpdateArgs>>, mediaType: MediaType): Promise<unknown> {
  await checkParentType(context, mediaType);
  const existing = await requireAttachment(context, mediaType);
  const scope = scopeOf(context, mediaType);
  const changes = await mediaChanges(context, existing, mediaType);
  const altText = context.params.alt_text;
  const saved = await scope.storage.transaction(async (tx) => {
    const current = await postsIn(tx).get(existing.id);
    if (!current) throw new CmsError('rest_post_invalid_id', 'Invalid post ID.', 404);
    const post = await savePost(current, changes, scope.saveEnvironment(tx), 'update');
    if (altText === undefined) return asAttachment(post);
    return (await attachmentsIn(tx).update(post.id, { alt_text: altText })) ?? removedMeanwhile(post.id);
  });
  return item(await prepareAttachment(saved, context, mediaType, 'edit'), { context: 'edit' });
}

export async function deleteMedia(context: RequestContext, mediaType: MediaType): Promise<unknown> {
  const record = await requireAttachment(context, mediaType);
  const scope = scopeOf(context, mediaType);
  if (context.params.force !== true) {
    throw new CmsError('rest_trash_not_supported', "The post does not support trashing. Set 'force=true' to delete.", 501);
  }
  const previous = await prepareAttachment(record, context, mediaType, 'edit');
  await scope.storage.transaction(async (tx) => {
    await deletePost(record, scope.saveEnvironment(tx));
    // It is no longer anyone's featured image.
    const posts = postsIn(tx);
    const { items } = await posts.list({ where: [{ field: 'featured_media', op: 'eq', value: record.id }] });
    for (const post of items) await posts.update(post.id, { featured_media: 0 });
  });
  const { blobs } = mediaType.deps;
  await Promise.all(blobKeysOf(record).map((key) => blobs.remove(key).catch(() => false)));
  return reply({ deleted: true, previous: filterByContext(previous.data, mediaType.schema, 'edit') }, { context: 'edit' });
}
