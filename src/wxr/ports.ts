/**
 * What the WXR import and export need from the content, users, comments and media modules, in the import's
 * own terms. `content-port.ts` implements both over those modules' services; nothing else in this folder
 * touches them, so a change in their shape is a change in that one file.
 */
import type { Site } from '../core/site.js';

/** A site date as stored: site-local and UTC (`null` UTC: a draft whose date floats). */
export interface DatePair {
  local: string | null;
  gmt: string | null;
}

export interface NewAuthor {
  login: string;
  email: string;
  displayName: string;
  firstName: string;
  lastName: string;
  role: string;
}

export interface NewTerm {
  taxonomy: 'category' | 'post_tag';
  name: string;
  slug: string;
  description: string;
  parent: number;
}

/** A remote file that became a stored upload. */
export interface StoredFile {
  key: string;
  url: string;
  mimeType: string;
  /** The reference's attachment metadata (image size and meta, or just the file size). */
  mediaDetails: Record<string, unknown>;
}

export interface AttachmentFields {
  mimeType: string;
  /** The upload's key, `''` while the file stays remote. */
  file: string;
  /** The file's address when it stays remote. */
  sourceUrl: string;
  mediaDetails: Record<string, unknown>;
  altText: string;
}

export interface NewPost {
  type: 'post' | 'page' | 'attachment';
  status: string;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  date: DatePair;
  modified: DatePair;
  author: number;
  parent: number;
  menuOrder: number;
  commentStatus: string;
  pingStatus: string;
  password: string;
  sticky: boolean;
  format: string;
  template: string;
  categories: number[];
  tags: number[];
  guid: string;
  /** Registered meta the interface serves (`footnotes`). */
  meta: Record<string, string>;
  /** While trashed: the status to restore, the slug it wants back, when it was trashed (UTC). */
  trash: { fromStatus: string; slug: string; at: string } | null;
  attachment: AttachmentFields | null;
}

/** Who wrote a comment, and the comment it answers, as an import writes them and an export reads them. */
interface CommentAuthorship {
  parent: number;
  userId: number;
  authorName: string;
  authorEmail: string;
  authorUrl: string;
  authorIp: string;
}

export interface NewComment extends CommentAuthorship {
  post: number;
  date: DatePair;
  content: string;
  /** `approved`, `hold`, `spam`, `trash`, `post-trashed`. */
  status: string;
  type: string;
  /** The status to restore (trashed comments, and those of a trashed post). */
  restoreStatus: string | null;
  meta: Record<string, string>;
}

/** Writes of one import; every call goes through the import's transaction. */
export interface ImportPort {
  userIdByLogin(login: string): Promise<number | null>;
  /** Whether posts may have this format (`standard`, `aside`, …). */
  isPostFormat(format: string): boolean;
  /** Throws a `CmsError` when the user cannot be made (a taken email address, an invalid one). */
  createAuthor(author: NewAuthor): Promise<number>;
  termId(taxonomy: NewTerm['taxonomy'], slug: string): Promise<number | null>;
  /** Creates the term, or answers the id of the one that already has its name at that level. */
  createTerm(term: NewTerm): Promise<{ id: number; created: boolean }>;
  termParent(id: number): Promise<number | null>;
  setTermParent(id: number, parent: number): Promise<void>;
  /** The highest post id in the store (posts above it were made by this import). */
  lastPostId(): Promise<number>;
  /** A post of that type, title and local date with an id up to `upTo` (the reference's `post_exists`). */
  existingPost(type: string, title: string, date: string, upTo: number): Promise<number | null>;
  createPost(post: NewPost): Promise<number>;
  postInfo(id: number): Promise<{ type: string; mimeType: string; parent: number } | null>;
  setPostFields(id: number, fields: { parent?: number; featuredMedia?: number }): Promise<void>;
  /** Replaces text in a post's content and excerpt (addresses of fetched files). */
  rewriteText(id: number, replacements: readonly [from: string, to: string][]): Promise<void>;
  existingComment(post: number, authorName: string, date: string): Promise<number | null>;
  createComment(comment: NewComment): Promise<number>;
  setCommentParent(id: number, parent: number): Promise<void>;
}

/** Storing remote files; not transactional, so the import removes what it stored when it fails. */
export interface FilePort {
  /** Fetches `url` through the safe HTTP client into the month folder `YYYY/MM`; throws with the reason. */
  fetchFile(url: string, folder: string): Promise<StoredFile>;
  removeFile(key: string): Promise<void>;
  /** The type the file name's extension stands for, `application/octet-stream` when none does. */
  typeOfName(name: string): string;
}

export interface ExportedUser {
  id: number;
  login: string;
  email: string;
  displayName: string;
  firstName: string;
  lastName: string;
}

export interface ExportedTerm {
  id: number;
  name: string;
  slug: string;
  description: string;
  parent: number;
}

/** A stored record as the export reads it (the post record's own fields, by name). */
export type ExportedPost = Readonly<Record<string, unknown>> & { id: number; type: string; status: string };

export interface ExportedComment extends CommentAuthorship {
  id: number;
  date: string;
  dateGmt: string;
  content: string;
  status: string;
  type: string;
  restoreStatus: string | null;
  meta: Readonly<Record<string, unknown>>;
}

/** Reads of an export. */
export interface ExportPort {
  site(): Promise<Site & { language: string }>;
  /** Users with at least one exported record. */
  authors(): AsyncIterable<ExportedUser>;
  terms(taxonomy: 'category' | 'post_tag'): Promise<ExportedTerm[]>;
  /** Posts, pages and attachments in id order, auto-drafts left out. */
  posts(): AsyncIterable<ExportedPost>;
  userLogin(id: number): Promise<string>;
  permalink(post: ExportedPost): Promise<string>;
  /** The address of an attachment's file. */
  fileUrl(post: ExportedPost): string;
  comments(postId: number): AsyncIterable<ExportedComment>;
}
