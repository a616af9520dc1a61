/**
 * Revision records: snapshots of a post's title, content and excerpt, stored in the `posts` collection with
 * type `revision`, status `inherit` and `parent` = the post's id. An autosave is a revision whose slug is
 * `{parent}-autosave-v1`; ordinary revisions are named `{parent}-revision-v1`.
 */
import { phpTrim } from '../../format/php.js';
import { turnTaker } from '../../format/turn.js';
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

/** Texts up to this long are normalised in one go; longer ones a piece of at most this length at a time. */
const PIECE_CHARS = 64 * 1024;

/**
 * Whether two texts are the same once whitespace is normalised (`normalizeWhitespace`). Equal texts need no
 * normalising; long ones are read side by side a normalised character at a time, stopping at the first
 * difference and letting the event loop take turns (`take`) after each piece of `pieceChars` characters. Nothing
 * is built: normalising 8 MiB in one go, or a piece at a time with regular expressions, held the loop for tens of
 * milliseconds at a time (much of it collecting the garbage of the pieces) and took about a second on a text of
 * single blanks and line breaks.
 */
export async function sameWhitespaceAside(a: string, b: string, take = turnTaker(), pieceChars = PIECE_CHARS): Promise<boolean> {
  if (a === b) return true;
  if (a.length <= pieceChars && b.length <= pieceChars) return normalizeWhitespace(a) === normalizeWhitespace(b);
  const left = new NormalizedReader(a);
  const right = new NormalizedReader(b);
  await left.trim(take);
  await right.trim(take);
  for (;;) {
    const leftStop = left.at + pieceChars;
    const rightStop = right.at + pieceChars;
    while (left.at < leftStop && right.at < rightStop) {
      const character = left.next();
      if (character !== right.next()) return false;
      if (character === END) return true;
    }
    await take();
  }
}

/** The characters PHP's `trim` removes by default (as `phpTrim`), as char codes. */
const trimmed = (code: number) => code === 32 || code === 9 || code === 10 || code === 13 || code === 0 || code === 11;

const LINE_BREAK = 1;
const BLANK = 2;
const whitespaceClass = (code: number) => (code === 10 || code === 13 ? LINE_BREAK : code === 32 || code === 9 ? BLANK : 0);
const END = -1;

/**
 * A text's `normalizeWhitespace`, read a character at a time: trimmed, each run of line breaks read as one `\n`
 * and each run of blanks as one space.
 */
class NormalizedReader {
  at = 0;
  private end: number;

  constructor(private readonly text: string) {
    this.end = text.length;
  }

  /**
   * Skips what trimming removes at both ends (a text may start or end with megabytes of it), a piece's length at
   * a time.
   */
  async trim(take: () => Promise<void>): Promise<void> {
    const { text } = this;
    for (;;) {
      const stop = Math.min(this.end, this.at + PIECE_CHARS);
      while (this.at < stop && trimmed(text.charCodeAt(this.at))) this.at += 1;
      if (this.at < stop || this.at === this.end) break;
      await take();
    }
    for (;;) {
      const stop = Math.max(this.at, this.end - PIECE_CHARS);
      while (this.end > stop && trimmed(text.charCodeAt(this.end - 1))) this.end -= 1;
      if (this.end > stop || this.end === this.at) return;
      await take();
    }
  }

  /** The next character of the normalised text (as a char code), or `END`. */
  next(): number {
    const { text, end } = this;
    if (this.at >= end) return END;
    const code = text.charCodeAt(this.at);
    this.at += 1;
    const kind = whitespaceClass(code);
    if (kind === 0) return code;
    while (this.at < end && whitespaceClass(text.charCodeAt(this.at)) === kind) this.at += 1;
    return kind === LINE_BREAK ? 10 : 32;
  }
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
export async function latestRevision(storage: StoragePort, parentId: number): Promise<Readonly<PostRecord> | null> {
  const { items } = await postsIn(storage).list({
    where: [...revisionsOf(parentId), { field: 'slug', op: 'eq', value: revisionSlug(parentId) }],
    orderBy: NEWEST_FIRST,
    limit: 1,
    // Only read (compared with the post): a store may hand over its own record rather than a copy.
    shared: true,
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
