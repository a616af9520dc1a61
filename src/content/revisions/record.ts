/**
 * Revision records: snapshots of a post's title, content and excerpt, stored in the `posts` collection with
 * type `revision`, status `inherit` and `parent` = the post's id. An autosave is a revision whose slug is
 * `{parent}-autosave-v1`; ordinary revisions are named `{parent}-revision-v1`.
 */
import { phpTrim } from '../../format/php.js';
import { turnTaker } from '../../core/turn.js';
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
  return collapseWhitespace(phpTrim(text));
}

function collapseWhitespace(text: string): string {
  return text.replaceAll('\r', '\n').replace(/\n+/g, '\n').replace(/[ \t]+/g, ' ');
}

/** Texts up to this long are normalised in one go; longer ones a piece of about this length at a time. */
const PIECE_CHARS = 256 * 1024;

/**
 * Whether two texts are the same once whitespace is normalised (`normalizeWhitespace`). Equal texts need no
 * normalising; a long one is normalised a piece at a time, letting the event loop take turns (`take`) between:
 * in one go, the texts of an 8 MiB post held the loop for tens of milliseconds on every update.
 */
export async function sameWhitespaceAside(a: string, b: string, take = turnTaker()): Promise<boolean> {
  if (a === b) return true;
  if (a.length <= PIECE_CHARS && b.length <= PIECE_CHARS) return normalizeWhitespace(a) === normalizeWhitespace(b);
  return await normalizedInTurns(a, take) === await normalizedInTurns(b, take);
}

async function normalizedInTurns(text: string, take: () => Promise<void>): Promise<string> {
  if (text.length <= PIECE_CHARS) return normalizeWhitespace(text);
  const trimmed = phpTrim(text);
  const pieces: string[] = [];
  for (let start = 0; start < trimmed.length;) {
    const end = pieceEnd(trimmed, start + PIECE_CHARS);
    pieces.push(collapseWhitespace(trimmed.slice(start, end)));
    start = end;
    await take();
  }
  return pieces.join('');
}

const LINE_BREAK = 1;
const BLANK = 2;
const whitespaceClass = (code: number) => (code === 10 || code === 13 ? LINE_BREAK : code === 32 || code === 9 ? BLANK : 0);
const PAST_LINE_BREAKS = /[^\r\n]/g;
const PAST_BLANKS = /[^ \t]/g;

/**
 * Where a piece starting before `at` may end: the first position from `at` that no run of line breaks or of
 * blanks crosses, so each piece collapses its runs as the whole text would.
 */
function pieceEnd(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const kind = whitespaceClass(text.charCodeAt(at));
  if (kind === 0 || kind !== whitespaceClass(text.charCodeAt(at - 1))) return at;
  const past = kind === LINE_BREAK ? PAST_LINE_BREAKS : PAST_BLANKS;
  past.lastIndex = at;
  return past.exec(text)?.index ?? text.length;
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
