/**
 * Revision records: snapshots of a post's title, content and excerpt, stored in the `posts` collection with
 * type `revision`, status `inherit` and `parent` = the post's id. An autosave is a revision whose slug is
 * `{parent}-autosave-v1`; ordinary revisions are named `{parent}-revision-v1`.
 */
import { phpTrim } from '../../format/php.js';
import type { Condition, StoragePort } from '../../ports/storage.js';
import { postsIn, type PostRecord } from '../post-type/index.js';

export const REVISION_TYPE = 'revision';
export const REVISION_STATUS = 'inherit';

/** The fields a revision copies from its post. */
export const REVISIONED_FIELDS = ['title', 'content', 'excerpt'] as const;
export type RevisionedField = (typeof REVISIONED_FIELDS)[number];

export const revisionSlug = (parentId: number) => `${parentId}-revision-v1`;
export const autosaveSlug = (parentId: number) => `${parentId}-autosave-v1`;

export function isRevision(record: PostRecord | null): record is PostRecord {
  return record !== null && record.type === REVISION_TYPE;
}

export function isAutosave(record: PostRecord): boolean {
  return record.type === REVISION_TYPE && record.slug === autosaveSlug(record.parent);
}

/** The reference's `normalize_whitespace`: trimmed, line breaks unified and collapsed, runs of blanks made one. */
export function normalizeWhitespace(text: string): string {
  return phpTrim(text).replaceAll('\r', '\n').replace(/\n+/g, '\n').replace(/[ \t]+/g, ' ');
}

/**
 * Conditions selecting the revisions (autosaves included) of one post. Every revision has the `inherit` status,
 * so it is not asked for: the same index then serves these lists and the parent's revision count.
 */
export function revisionsOf(parentId: number): Condition[] {
  return [
    { field: 'parent', op: 'eq', value: parentId },
    { field: 'type', op: 'eq', value: REVISION_TYPE },
  ];
}

/** Newest first by date, then by id: the reference's `date ID DESC`. */
const NEWEST_FIRST = [{ field: 'date', direction: 'desc' as const }];

/** The newest revision of a post that is not an autosave. */
export async function latestRevision(storage: StoragePort, parentId: number): Promise<PostRecord | null> {
  const { items } = await postsIn(storage).list({
    where: [...revisionsOf(parentId), { field: 'slug', op: 'eq', value: revisionSlug(parentId) }],
    orderBy: NEWEST_FIRST,
    limit: 1,
  });
  return items[0] ?? null;
}

/** The newest autosave of a post: by one user, or by anyone when `authorId` is omitted. */
export async function latestAutosave(storage: StoragePort, parentId: number, authorId?: number): Promise<PostRecord | null> {
  const where = [...revisionsOf(parentId), { field: 'slug', op: 'eq' as const, value: autosaveSlug(parentId) }];
  if (authorId !== undefined) where.push({ field: 'author', op: 'eq', value: authorId });
  const { items } = await postsIn(storage).list({ where, orderBy: NEWEST_FIRST, limit: 1 });
  return items[0] ?? null;
}

/** Every autosave of a post, from all users, newest first. */
export async function autosavesOf(storage: StoragePort, parentId: number): Promise<PostRecord[]> {
  const { items } = await postsIn(storage).list({
    where: [...revisionsOf(parentId), { field: 'slug', op: 'eq', value: autosaveSlug(parentId) }],
    orderBy: NEWEST_FIRST,
  });
  return items;
}

export interface NewRevision {
  parent: number;
  slug: string;
  author: number;
  /** Site-local and UTC: the revision's date, which is also its modified date. */
  date: string;
  dateGmt: string;
  title: string;
  content: string;
  excerpt: string;
  /** The site's home address; the guid is `{home}/?p={id}`. */
  home: string;
}

/** Inserts a revision and gives it its guid (which needs the new id). */
export async function insertRevision(storage: StoragePort, revision: NewRevision): Promise<PostRecord> {
  const posts = postsIn(storage);
  const inserted = await posts.insert({
    type: REVISION_TYPE,
    status: REVISION_STATUS,
    date: revision.date,
    date_gmt: revision.dateGmt,
    modified: revision.date,
    modified_gmt: revision.dateGmt,
    author: revision.author,
    parent: revision.parent,
    slug: revision.slug,
    menu_order: 0,
    title: revision.title,
    content: revision.content,
    excerpt: revision.excerpt,
    password: '',
    comment_status: 'closed',
    ping_status: 'closed',
    guid: '',
    template: '',
    featured_media: 0,
    meta: {},
  });
  const withGuid = await posts.update(inserted.id, { guid: `${revision.home}/?p=${inserted.id}` });
  if (!withGuid) throw new Error(`Revision ${inserted.id} disappeared while it was being saved.`);
  return withGuid;
}
