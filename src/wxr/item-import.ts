/**
 * One `<item>` → a post, page or attachment with its terms and comments, as the reference's importer does:
 * statuses, slugs, dates, sticky, menu order, passwords and term links kept; the meta the interface has turned
 * into fields (featured image, page template, alt text, footnotes, trash details); references to records not
 * read yet (parents, featured images, replies) noted for after the whole file.
 */
import { dropMeta, skip, warn, type ImportRun } from './import-run.js';
import type { NewComment, NewPost, StoredFile } from './ports.js';
import type { WxrComment, WxrItem } from './records.js';
import { termFor } from './term-import.js';

const POST_STATUSES = new Set(['publish', 'draft', 'pending', 'private', 'future', 'trash']);
const ATTACHMENT_STATUSES = new Set(['inherit', 'private', 'trash']);
const IMPORTED_TYPES = new Set(['post', 'page', 'attachment']);
const COMMENT_STATUSES: ReadonlyMap<string, string> = new Map([['1', 'approved'], ['0', 'hold'], ['spam', 'spam'], ['trash', 'trash'], ['post-trashed', 'post-trashed']]);
/** Post meta the interface serves as its own meta. */
const REGISTERED_META = new Set(['footnotes']);

const isType = (type: string): type is NewPost['type'] => IMPORTED_TYPES.has(type);

/** A Unix time (the reference's `_wp_trash_meta_time`) → a stored UTC date; empty when it is not one. */
function utcOfTimestamp(value: string): string {
  const seconds = /^\d{1,12}$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString().slice(0, 19) : '';
}

function statusOf(run: ImportRun, item: WxrItem, type: NewPost['type']): string {
  const allowed = type === 'attachment' ? ATTACHMENT_STATUSES : POST_STATUSES;
  if (allowed.has(item.status)) return item.status;
  const fallback = type === 'attachment' ? 'inherit' : 'draft';
  if (item.status !== '') warn(run, `line ${item.line}: ${type} ${item.id} has the status "${item.status.slice(0, 40)}"; stored as ${fallback}`);
  return fallback;
}

/** Where a fetched file goes: the folder of its old upload (`_wp_attached_file`), else its date's month. */
function folderFor(item: WxrItem, attachedFile: string): string {
  const fromFile = /^(\d{4})\/(\d{2})\//.exec(attachedFile);
  if (fromFile) return `${fromFile[1]}/${fromFile[2]}`;
  const date = item.date ?? item.dateGmt ?? new Date().toISOString();
  return `${date.slice(0, 4)}/${date.slice(5, 7)}`;
}

/** The address without its extension, which also prefixes the addresses of the image's other sizes. */
function stem(url: string): string {
  return url.replace(/\.[A-Za-z0-9]{1,8}$/, '');
}

async function attachmentFile(run: ImportRun, item: WxrItem, attachedFile: string): Promise<{ url: string; stored: StoredFile | null }> {
  let url = item.attachmentUrl || item.guid;
  if (url.startsWith('/') && !url.startsWith('//')) url = `${run.site.baseSiteUrl.replace(/\/+$/, '')}${url}`;
  if (!run.options.fetchAttachments || url === '') return { url, stored: null };
  try {
    const stored = await run.files.fetchFile(url, folderFor(item, attachedFile));
    run.storedFiles.push(stored.key);
    run.summary.filesFetched++;
    run.progress.files++;
    run.ids.addresses.set(stored.mimeType.startsWith('image/') ? stem(url) : url, stored.mimeType.startsWith('image/') ? stem(stored.url) : stored.url);
    return { url, stored };
  } catch (error) {
    warn(run, `line ${item.line}: the file of attachment ${item.id} was not fetched (${(error as Error).message}); it stays at ${url}`);
    return { url, stored: null };
  }
}

/** The user of the item's `<dc:creator>`: one of the file's authors or a user of the store; else the default author, with a warning. */
async function authorOf(run: ImportRun, item: WxrItem, type: NewPost['type']): Promise<number> {
  const known = run.ids.userByLogin(item.creator) ?? (item.creator === '' ? null : await run.port.userIdByLogin(item.creator));
  if (known !== undefined && known !== null) return known;
  const fallback = run.options.defaultAuthor;
  const creator = item.creator === '' ? 'no author' : `the author "${item.creator.slice(0, 60)}", who is not among the file's authors or this site's users`;
  warn(run, `line ${item.line}: ${type} ${item.id} has ${creator}; stored ${fallback === 0 ? 'without an author' : `with user ${fallback}`}`);
  return fallback;
}

/** `open` or `closed`; empty leaves the type's default; anything else is stored as `closed`, with a warning. */
function openOrClosed(run: ImportRun, item: WxrItem, type: NewPost['type'], which: 'comment' | 'ping', value: string): string {
  if (value === '' || value === 'open' || value === 'closed') return value;
  warn(run, `line ${item.line}: ${type} ${item.id} has the ${which} status "${value.slice(0, 40)}"; stored as closed`);
  return 'closed';
}

async function newPost(run: ImportRun, item: WxrItem, type: NewPost['type']): Promise<{ post: NewPost; featured: number }> {
  const post: NewPost = {
    type, status: statusOf(run, item, type), title: item.title, content: item.content, excerpt: item.excerpt, slug: item.slug,
    date: { local: item.date, gmt: item.dateGmt }, modified: { local: item.modified, gmt: item.modifiedGmt },
    author: await authorOf(run, item, type),
    parent: run.ids.posts.get(item.parent) ?? 0, menuOrder: item.menuOrder,
    commentStatus: openOrClosed(run, item, type, 'comment', item.commentStatus),
    pingStatus: openOrClosed(run, item, type, 'ping', item.pingStatus), password: item.password, sticky: type === 'post' && item.sticky, format: 'standard', template: '',
    categories: [], tags: [], guid: item.guid, meta: {}, trash: null, attachment: null,
  };
  for (const term of item.terms) {
    const taxonomy = term.taxonomy === 'tag' ? 'post_tag' : term.taxonomy;
    if (taxonomy === 'post_format') {
      const format = term.slug.replace(/^post-format-/, '');
      if (run.port.isPostFormat(format)) post.format = format;
      else warn(run, `line ${item.line}: ${type} ${item.id} has the format "${format.slice(0, 40)}"; stored as standard`);
    }
    else if (type !== 'post' || (taxonomy !== 'category' && taxonomy !== 'post_tag')) skip(run, `taxonomy:${taxonomy}`);
    else {
      const id = await termFor(run, { taxonomy, slug: term.slug, name: term.name }, item.line);
      if (id !== null) (taxonomy === 'category' ? post.categories : post.tags).push(id);
    }
  }
  let featured = 0;
  let altText = '';
  let attachedFile = '';
  const trash = { fromStatus: 'draft', slug: '', at: '' };
  for (const { key, value } of item.meta) {
    if (key === '_thumbnail_id') {
      featured = /^\d{1,15}$/.test(value.trim()) ? Number(value) : 0;
      if (featured === 0 && value.trim() !== '' && value.trim() !== '0') {
        warn(run, `line ${item.line}: ${type} ${item.id} has the featured image "${value.trim().slice(0, 40)}", which is not an id; it has none`);
      }
    }
    else if (key === '_wp_page_template') post.template = value === 'default' ? '' : value;
    else if (key === '_wp_attachment_image_alt') altText = value;
    else if (key === '_wp_attached_file') attachedFile = value;
    else if (key === '_wp_trash_meta_status') trash.fromStatus = value;
    else if (key === '_wp_trash_meta_time') trash.at = utcOfTimestamp(value);
    else if (key === '_wp_desired_post_slug') trash.slug = value;
    else if (REGISTERED_META.has(key)) post.meta[key] = value;
    else dropMeta(run, key);
  }
  if (post.status === 'trash') post.trash = trash;
  if (type === 'attachment') {
    const { url, stored } = await attachmentFile(run, item, attachedFile);
    const name = url.slice(url.lastIndexOf('/') + 1).split(/[?#]/)[0] ?? '';
    post.attachment = stored
      ? { mimeType: stored.mimeType, file: stored.key, sourceUrl: '', mediaDetails: stored.mediaDetails, altText }
      : { mimeType: run.files.typeOfName(name), file: '', sourceUrl: url, mediaDetails: {}, altText };
    if (stored) post.guid = stored.url;
  }
  return { post, featured };
}

function newComment(run: ImportRun, comment: WxrComment, post: number, line: number): NewComment {
  const status = COMMENT_STATUSES.get(comment.approved) ?? 'hold';
  if (!COMMENT_STATUSES.has(comment.approved)) warn(run, `line ${line}: comment ${comment.id} has the status "${comment.approved.slice(0, 40)}"; stored as hold`);
  const userId = run.ids.users.get(comment.userId) ?? 0;
  if (comment.userId > 0 && userId === 0) warn(run, `line ${line}: comment ${comment.id} names user ${comment.userId}, who is not among the file's authors; stored without a user`);
  for (const { key } of comment.meta) if (key !== '_wp_trash_meta_status' && key !== '_wp_trash_meta_time') dropMeta(run, key);
  const restore = comment.meta.find((meta) => meta.key === '_wp_trash_meta_status')?.value;
  return {
    post, parent: run.ids.comments.get(comment.parent) ?? 0, userId,
    authorName: comment.author, authorEmail: comment.authorEmail, authorUrl: comment.authorUrl, authorIp: comment.authorIp,
    date: { local: comment.date, gmt: comment.dateGmt }, content: comment.content, status,
    type: comment.type === '' ? 'comment' : comment.type,
    restoreStatus: (status === 'trash' || status === 'post-trashed') && restore !== undefined ? COMMENT_STATUSES.get(restore) ?? 'hold' : null,
    meta: {},
  };
}

/** The item's comments, oldest id first (so a reply usually finds the comment it answers already there). */
async function importComments(run: ImportRun, item: WxrItem, post: number, postExisted: boolean): Promise<void> {
  for (const comment of [...item.comments].sort((a, b) => a.id - b.id)) {
    run.progress.comments++;
    if (run.ids.comments.has(comment.id)) {
      skip(run, 'duplicate-comment-id');
      continue;
    }
    const existing = postExisted && comment.date ? await run.port.existingComment(post, comment.author, comment.date) : null;
    if (existing !== null) {
      run.ids.comments.set(comment.id, existing);
      run.summary.existing.comments++;
      continue;
    }
    const fields = newComment(run, comment, post, item.line);
    const id = await run.port.createComment(fields);
    run.ids.comments.set(comment.id, id);
    run.summary.created.comments++;
    if (comment.parent > 0 && !run.ids.comments.has(comment.parent)) run.ids.commentParents.push([id, comment.parent]);
  }
}

const PLURALS = { post: 'posts', page: 'pages', attachment: 'attachments' } as const;

export async function importItem(run: ImportRun, item: WxrItem): Promise<void> {
  run.progress.items++;
  const { type } = item;
  if (!isType(type)) return skip(run, `type:${type}`);
  if (item.status === 'auto-draft') return skip(run, 'status:auto-draft');
  if (run.ids.posts.has(item.id)) return skip(run, 'duplicate-id');
  const existing = item.date && run.lastPostBefore > 0 ? await run.port.existingPost(type, item.title.trim(), item.date, run.lastPostBefore) : null;
  if (existing !== null) {
    run.ids.posts.set(item.id, existing);
    run.summary.existing[PLURALS[type]]++;
    return importComments(run, item, existing, true);
  }
  const { post, featured } = await newPost(run, item, type);
  const id = await run.port.createPost(post);
  run.ids.posts.set(item.id, id);
  run.ids.createdPosts.push(id);
  run.summary.created[PLURALS[type]]++;
  if (item.parent > 0 && post.parent === 0) run.ids.postParents.push([id, item.parent]);
  if (featured > 0) run.ids.featuredImages.push([id, featured]);
  await importComments(run, item, id, false);
}
