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
 * normalising; long ones are normalised a piece at a time and compared as they go, stopping at the first
 * difference and letting the event loop take turns (`take`) between pieces. Nothing as long as a whole text is
 * built: normalising 8 MiB in one go, or keeping its normalised pieces to join them, held the loop for tens of
 * milliseconds (much of it collecting the garbage of the pieces kept).
 */
export async function sameWhitespaceAside(a: string, b: string, take = turnTaker(), pieceChars = PIECE_CHARS): Promise<boolean> {
  if (a === b) return true;
  if (a.length <= pieceChars && b.length <= pieceChars) return normalizeWhitespace(a) === normalizeWhitespace(b);
  const left = new NormalizedPieces(a, pieceChars);
  const right = new NormalizedPieces(b, pieceChars);
  await left.trim(take);
  await right.trim(take);
  // The normalised text of each side not yet matched by the other: pieces of the two sides do not line up.
  let leftRest = '';
  let rightRest = '';
  for (;;) {
    if (leftRest === '') leftRest = left.next();
    if (rightRest === '') rightRest = right.next();
    // What is left of a trimmed text always normalises to something, so a side used up ends the comparison.
    if (leftRest === '' && left.done) return rightRest === '' && right.done;
    if (rightRest === '' && right.done) return false;
    const shorter = Math.min(leftRest.length, rightRest.length);
    if (!(leftRest.length === shorter ? rightRest.startsWith(leftRest) : leftRest.startsWith(rightRest))) return false;
    leftRest = leftRest.slice(shorter);
    rightRest = rightRest.slice(shorter);
    await take();
  }
}

/** The characters PHP's `trim` removes by default (as `phpTrim`), as char codes. */
const trimmed = (code: number) => code === 32 || code === 9 || code === 10 || code === 13 || code === 0 || code === 11;

const LINE_BREAK = 1;
const BLANK = 2;
const whitespaceClass = (code: number) => (code === 10 || code === 13 ? LINE_BREAK : code === 32 || code === 9 ? BLANK : 0);

/**
 * A text's `normalizeWhitespace`, a piece of at most `pieceChars` at a time: the pieces joined are the whole
 * normalised text. A piece that starts inside a run of line breaks or of blanks begun in the piece before (which
 * gave the run its one character) leaves out the character its start collapses to, so a piece inside a long run
 * is empty.
 */
class NormalizedPieces {
  private at = 0;
  private end: number;

  constructor(private readonly text: string, private readonly pieceChars: number) {
    this.end = text.length;
  }

  get done(): boolean {
    return this.at >= this.end;
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

  /** The next piece of normalised text; '' once the text is used up, or for a piece inside a run. */
  next(): string {
    if (this.done) return '';
    const { text, at } = this;
    const kind = whitespaceClass(text.charCodeAt(at));
    const continuesRun = kind !== 0 && kind === whitespaceClass(text.charCodeAt(at - 1));
    this.at = Math.min(at + this.pieceChars, this.end);
    const piece = collapseWhitespace(text.slice(at, this.at));
    return continuesRun ? piece.slice(1) : piece;
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
