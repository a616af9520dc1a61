/**
 * The import's and export's only contact with the content, users, comments and media modules: their
 * services where they have one (posts are saved by `savePost`, so slugs, dates, counts, guids and the
 * comments' copy of their post's facts come out as for any other write), and their stored record shapes for
 * the few fields no service sets (an imported post's own guid, a trashed post's restore status).
 */
import { createPrincipal } from '../auth/index.js';
import { insertComment, updateComment } from '../comments/service.js';
import { COMMENTS_COLLECTION, toComment } from '../comments/record.js';
import { isCmsError } from '../core/errors.js';
import { resolveSite, type Site, type SiteSettings } from '../core/site.js';
import type { CmsDeps } from '../deps.js';
import {
  buildScope, definePostType, formatUtc, gmtToLocal, localToGmt, PAGE_TYPE, permalinkOf, POST_FORMATS, POST_TYPE, POSTS_COLLECTION, savePost,
  type PostRecord, type PostTypeDefinition,
} from '../content/post-type/index.js';
import { allTerms, ensureDefaultTerms, insertTerm, TERMS_COLLECTION } from '../content/taxonomy/index.js';
import { allowedMimeTypes, fileTypeOf } from '../format/mime-types.js';
import {
  ATTACHMENT_TYPE, checkFileType, fileUrl, readImageHeader, readImageMeta, sanitizeFileName, writeUnderFreeName,
} from '../media/index.js';
import { isOutboundError } from '../ports/http-client.js';
import type { Condition, StoragePort } from '../ports/storage.js';
import { createUser, findUserByLogin, getUser } from '../users/store.js';
import type { DatePair, ExportedComment, ExportPort, FilePort, ImportPort, NewPost } from './ports.js';

/** What the ports are built from: the services `createCms` assembled, and the site settings as stored now. */
export interface ContentPortDeps {
  services: CmsDeps;
  currentSite(): Promise<SiteSettings>;
}

const DEFINITIONS: Readonly<Record<NewPost['type'], PostTypeDefinition>> = { post: POST_TYPE, page: PAGE_TYPE, attachment: ATTACHMENT_TYPE };
const EXPORTED: Condition[] = [{ field: 'type', op: 'in', values: ['post', 'page', 'attachment'] }, { field: 'status', op: 'ne', value: 'auto-draft' }];
const PAGE_SIZE = 200;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export async function resolvedSite(deps: ContentPortDeps): Promise<Site & { language: string }> {
  const settings = await deps.currentSite();
  return Object.assign(resolveSite(settings, undefined, deps.services.names), { language: (settings.locale ?? 'en_US').replace('_', '-') });
}

/** Both halves of a date, the missing one from the other in the site's time zone (or now, when neither is known). */
function completeDate(date: DatePair, site: Site, now: Date): { local: string; gmt: string } {
  if (date.local && date.gmt) return { local: date.local, gmt: date.gmt };
  if (date.local) return { local: date.local, gmt: localToGmt(date.local, site) };
  const gmt = date.gmt ?? formatUtc(now);
  return { local: gmtToLocal(gmt, site), gmt };
}

/** The import's writes, all through `tx`, the import's transaction; saved as an administrator would. */
export function importPort(deps: ContentPortDeps, tx: StoragePort, site: Site): ImportPort {
  const { services } = deps;
  const operator = createPrincipal({ id: 0, login: '', roles: ['administrator'] }, services.roles);
  const source = { site, user: operator, wantsField: () => true, url: site.apiLink };
  const environments = Object.fromEntries(Object.entries(DEFINITIONS).map(([type, definition]) =>
    [type, buildScope(source, definePostType(definition, services)).saveEnvironment(tx)]));

  return {
    userIdByLogin: async (login) => (await findUserByLogin(tx, login))?.id ?? null,
    isPostFormat: (format) => (POST_FORMATS as readonly string[]).includes(format),
    async createAuthor(author) {
      const user = await createUser({ storage: tx, clock: services.clock, roles: services.roles }, {
        login: author.login, email: author.email, name: author.displayName, firstName: author.firstName, lastName: author.lastName, roles: [author.role],
      });
      return user.id;
    },
    async termId(taxonomy, slug) {
      await ensureDefaultTerms(tx);
      const { items } = await tx.list(TERMS_COLLECTION, {
        where: [{ field: 'taxonomy', op: 'eq', value: taxonomy }, { field: 'slug', op: 'eq', value: slug }], limit: 1,
      });
      return items[0]?.id ?? null;
    },
    async createTerm({ taxonomy, ...input }) {
      try {
        return { id: (await insertTerm(tx, taxonomy, input)).id, created: true };
      } catch (error) {
        if (isCmsError(error) && error.code === 'term_exists' && typeof error.extra.term_id === 'number') return { id: error.extra.term_id, created: false };
        throw error;
      }
    },
    async termParent(id) {
      const record = await tx.get(TERMS_COLLECTION, id);
      return record ? Number(record.parent) || 0 : null;
    },
    async setTermParent(id, parent) {
      await tx.update(TERMS_COLLECTION, id, { parent });
    },
    async lastPostId() {
      const { items } = await tx.list(POSTS_COLLECTION, { orderBy: [{ field: 'id', direction: 'desc' }], limit: 1 });
      return items[0]?.id ?? 0;
    },
    async existingPost(type, title, date, upTo) {
      const { items } = await tx.list(POSTS_COLLECTION, {
        where: [
          { field: 'type', op: 'eq', value: type }, { field: 'title', op: 'eq', value: title },
          { field: 'date', op: 'eq', value: date }, { field: 'id', op: 'lte', value: upTo },
        ],
        limit: 1,
      });
      return items[0]?.id ?? null;
    },
    async createPost(post) {
      const saved = await savePost(null, {
        title: post.title, content: post.content, excerpt: post.excerpt, status: post.status, slug: post.slug,
        ...(post.date.local || post.date.gmt ? { date: { local: post.date.local ?? '', gmt: post.date.gmt ?? '' } } : {}),
        author: post.author, parent: post.parent, menuOrder: post.menuOrder, commentStatus: post.commentStatus,
        pingStatus: post.pingStatus, password: post.password, sticky: post.sticky,
        format: post.format,
        // A post without categories gets the default one, as `wp_insert_post` gives it.
        terms: post.type !== 'post' ? {} : post.categories.length > 0 ? { categories: post.categories, tags: post.tags } : { tags: post.tags },
      }, environments[post.type]!, 'create');
      const patch: Record<string, unknown> = { template: post.template };
      if (post.guid !== '') patch.guid = post.guid;
      if (post.modified.local && post.modified.gmt) Object.assign(patch, { modified: post.modified.local, modified_gmt: post.modified.gmt });
      if (Object.keys(post.meta).length > 0) patch.meta = { ...saved.meta, ...post.meta };
      if (post.trash && saved.status === 'trash') {
        Object.assign(patch, { trashed_from_status: post.trash.fromStatus, trashed_at: post.trash.at });
        if (post.trash.slug !== '') patch.trashed_slug = post.trash.slug;
      }
      const { attachment } = post;
      if (attachment) {
        Object.assign(patch, {
          mime_type: attachment.mimeType, file: attachment.file, media_details: attachment.mediaDetails, alt_text: attachment.altText,
          ...(attachment.file === '' ? { source_url: attachment.sourceUrl } : {}),
        });
      }
      await tx.update(POSTS_COLLECTION, saved.id, patch);
      return saved.id;
    },
    async postInfo(id) {
      const record = await tx.get(POSTS_COLLECTION, id);
      return record ? { type: text(record.type), mimeType: text(record.mime_type), parent: Number(record.parent) || 0 } : null;
    },
    async setPostFields(id, fields) {
      const patch: Record<string, unknown> = {};
      if (fields.parent !== undefined) patch.parent = fields.parent;
      if (fields.featuredMedia !== undefined) patch.featured_media = fields.featuredMedia;
      await tx.update(POSTS_COLLECTION, id, patch);
    },
    async rewriteText(id, replacements) {
      const record = await tx.get(POSTS_COLLECTION, id);
      if (!record) return;
      const patch: Record<string, string> = {};
      for (const field of ['content', 'excerpt']) {
        let value = text(record[field]);
        for (const [from, to] of replacements) value = value.split(from).join(to);
        if (value !== record[field]) patch[field] = value;
      }
      if (Object.keys(patch).length > 0) await tx.update(POSTS_COLLECTION, id, patch);
    },
    async existingComment(post, authorName, date) {
      const { items } = await tx.list(COMMENTS_COLLECTION, {
        where: [{ field: 'post', op: 'eq', value: post }, { field: 'author_name', op: 'eq', value: authorName }, { field: 'date', op: 'eq', value: date }],
        limit: 1,
      });
      return items[0]?.id ?? null;
    },
    async createComment(comment) {
      const { local, gmt } = completeDate(comment.date, site, services.clock.now());
      const created = await insertComment(tx, {
        post: comment.post, parent: comment.parent, user_id: comment.userId, author_name: comment.authorName,
        author_email: comment.authorEmail, author_url: comment.authorUrl, author_ip: comment.authorIp, author_user_agent: '',
        date: local, date_gmt: gmt, content: comment.content, status: comment.status, type: comment.type,
        meta: comment.meta,
      });
      if (comment.restoreStatus !== null) {
        const field = comment.status === 'post-trashed' ? 'post_trashed_status' : 'trashed_from_status';
        await updateComment(tx, created.id, { [field]: comment.restoreStatus });
      }
      return created.id;
    },
    async setCommentParent(id, parent) {
      await updateComment(tx, id, { parent });
    },
  };
}

/**
 * Remote files into the blob store, through the host's (safe) HTTP client, checked as uploads are. Names are
 * reserved through `storage`: the import's transaction while it runs.
 */
export function filePort(deps: ContentPortDeps, site: Site, storage: StoragePort = deps.services.storage): FilePort {
  const { blobs, httpClient, uploads } = deps.services;
  // The import writes as an operator, yet files that run in a browser (HTML, scripts) are not fetched.
  const allowed = allowedMimeTypes(false, uploads.mimeTypes);
  const baseUrl = uploads.baseUrl ?? `${site.url}/uploads`;
  return {
    async fetchFile(url, folder) {
      let response;
      try {
        response = await httpClient.fetch({ url, maxBytes: uploads.maxUploadBytes });
      } catch (error) {
        throw new Error(isOutboundError(error) ? `${error.code}: ${error.message}` : String(error));
      }
      if (response.status < 200 || response.status > 299) throw new Error(`the server answered ${response.status}`);
      const path = new URL(response.url || url).pathname;
      let name = path.slice(path.lastIndexOf('/') + 1);
      try {
        name = decodeURIComponent(name);
      } catch { /* kept as sent */ }
      const check = checkFileType(sanitizeFileName(name || 'file', allowed), response.body, allowed);
      if (!check.ok) throw new Error(check.message);
      const key = await writeUnderFreeName({ storage, blobs }, { folder, fileName: check.fileName, bytes: response.body, contentType: check.type });
      const header = check.type.startsWith('image/') ? readImageHeader(response.body, check.type) : null;
      const filesize = response.body.byteLength;
      const mediaDetails = header
        ? { width: header.width, height: header.height, file: key, filesize, sizes: {}, image_meta: readImageMeta(response.body, check.type) }
        : { filesize };
      return { key, url: fileUrl(baseUrl, key), mimeType: check.type, mediaDetails: mediaDetails as Record<string, unknown> };
    },
    async removeFile(key) {
      await blobs.remove(key).catch(() => false);
    },
    typeOfName: (name) => fileTypeOf(name, uploads.mimeTypes)?.type ?? 'application/octet-stream',
  };
}

/**
 * Comment ids by post, from one pass over the comments in id order: stores need not index comments by post,
 * and asking for each post's comments in turn would read them all once per post.
 */
async function commentIdsByPost(storage: StoragePort): Promise<Map<number, number[]>> {
  const byPost = new Map<number, number[]>();
  for (let after = 0; ;) {
    const { items } = await storage.list(COMMENTS_COLLECTION, {
      where: [{ field: 'id', op: 'gt', value: after }], orderBy: [{ field: 'id', direction: 'asc' }], limit: PAGE_SIZE,
    });
    for (const item of items) {
      const post = Number(item.post) || 0;
      const ids = byPost.get(post);
      if (ids) ids.push(item.id);
      else byPost.set(post, [item.id]);
    }
    if (items.length < PAGE_SIZE) return byPost;
    after = items[items.length - 1]!.id;
  }
}

/** The export's reads, straight from the store (outside any transaction: a busy site may change meanwhile). */
export function exportPort(deps: ContentPortDeps, site: Site & { language: string }): ExportPort {
  const { storage, uploads } = deps.services;
  const { permalinkStructure } = deps.services.postSettings;
  const links = { storage, home: site.home, permalinkStructure, pageOnFront: site.pageOnFront };
  const logins = new Map<number, string>();
  let commentIds: Promise<Map<number, number[]>> | undefined;
  return {
    site: async () => site,
    async *authors() {
      for (let after = 0; ;) {
        const { items } = await storage.list(POSTS_COLLECTION, {
          where: [...EXPORTED, { field: 'author', op: 'gt', value: after }], orderBy: [{ field: 'author', direction: 'asc' }], limit: 1,
        });
        const id = items[0]?.author;
        if (typeof id !== 'number') return;
        after = id;
        const user = await getUser(storage, id);
        if (user) yield { id, login: user.login, email: user.email, displayName: user.name, firstName: user.first_name, lastName: user.last_name };
      }
    },
    async terms(taxonomy) {
      return (await allTerms(storage, taxonomy)).sort((a, b) => a.id - b.id);
    },
    async *posts() {
      for (let after = 0; ;) {
        const { items } = await storage.list(POSTS_COLLECTION, {
          where: [...EXPORTED, { field: 'id', op: 'gt', value: after }], orderBy: [{ field: 'id', direction: 'asc' }], limit: PAGE_SIZE,
        });
        for (const item of items) yield item as PostRecord;
        if (items.length < PAGE_SIZE) return;
        after = items[items.length - 1]!.id;
      }
    },
    async userLogin(id) {
      if (!logins.has(id)) logins.set(id, (await getUser(storage, id))?.login ?? '');
      return logins.get(id)!;
    },
    permalink: (post) => (post.type === 'attachment' ? Promise.resolve(`${site.home}/?attachment_id=${post.id}`) : permalinkOf(post as PostRecord, links)),
    fileUrl: (post) => (text(post.file) !== '' ? fileUrl(uploads.baseUrl ?? `${site.url}/uploads`, text(post.file)) : text(post.source_url) || text(post.guid)),
    async *comments(postId) {
      commentIds ??= commentIdsByPost(storage);
      const ids = (await commentIds).get(postId) ?? [];
      for (let start = 0; start < ids.length; start += PAGE_SIZE) {
        const { items } = await storage.list(COMMENTS_COLLECTION, {
          where: [{ field: 'id', op: 'in', values: ids.slice(start, start + PAGE_SIZE) }], orderBy: [{ field: 'id', direction: 'asc' }],
        });
        for (const item of items) {
          const comment = toComment(item);
          const restore = comment.status === 'post-trashed' ? comment.post_trashed_status : comment.trashed_from_status;
          const exportedComment: ExportedComment = {
            id: comment.id, parent: comment.parent, userId: comment.user_id, authorName: comment.author_name,
            authorEmail: comment.author_email, authorUrl: comment.author_url, authorIp: comment.author_ip, date: comment.date,
            dateGmt: comment.date_gmt, content: comment.content, status: comment.status, type: comment.type,
            restoreStatus: restore ?? null, meta: comment.meta,
          };
          yield exportedComment;
        }
      }
    },
  };
}
