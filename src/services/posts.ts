/**
 * The post-type services other resources are handed: the stored shape of a post-type record, the events of its
 * saves and deletes, and the site's post settings. The post-type kit (src/content/post-type/) implements them.
 */
import type { Principal } from '../core/context.js';
import type { StoragePort, StoredRecord } from '../ports/storage.js';

/**
 * The stored shape of a post-type record. Posts, pages, attachments and revisions share the `posts` collection
 * (and its id sequence); every field lists filter or sort on sits at the top level so stores can index it.
 */
export interface PostRecord extends StoredRecord {
  /** `post`, `page`, `attachment`, `revision`, ... */
  type: string;
  status: string;
  /** Site-local publish date, `YYYY-MM-DDTHH:MM:SS`. */
  date: string;
  /** UTC publish date; `null` while the date floats (a draft saved without an explicit date). */
  date_gmt: string | null;
  modified: string;
  /** UTC; `null` when a floating draft was created (the reference stores zeros then). */
  modified_gmt: string | null;
  /** User id; 0 when none. */
  author: number;
  /** Parent post id (pages; a revision's post); 0 when none. */
  parent: number;
  slug: string;
  menu_order: number;
  title: string;
  content: string;
  excerpt: string;
  password: string;
  comment_status: string;
  ping_status: string;
  /** Set once, at creation. */
  guid: string;
  /** Page template slug, `''` for the default. */
  template: string;
  /** Id of the featured image, 0 when none. */
  featured_media: number;
  /** Registered meta values by key. */
  meta: Record<string, unknown>;
  /** Post types with the sticky feature only. */
  sticky?: boolean;
  /** Post types with formats only; `standard` when none is set. */
  format?: string;
  /** Term ids per taxonomy field, for post types with those taxonomies. */
  categories?: number[];
  tags?: number[];
  /** While trashed: the status before trashing and the slug it wants back. */
  trashed_from_status?: string;
  trashed_slug?: string;
  /** When it was trashed, UTC. */
  trashed_at?: string;
}

/**
 * Why a record was saved: a create, a REST update, a move to the trash, a scheduled post going live, or an
 * autosave that updated its author's own draft in place.
 */
export type SaveReason = 'create' | 'update' | 'trash' | 'scheduled-publish' | 'autosave';

/**
 * What other modules hear about post-type records: revisions are made after saves, comments go with their
 * post. Listeners run inside the write's transaction, with its storage handle; a throwing listener undoes the
 * write.
 */
export interface PostSavedEvent {
  storage: StoragePort;
  post: PostRecord;
  /** The record before the save; null on create. */
  previous: PostRecord | null;
  reason: SaveReason;
  user: Principal | null;
  now: Date;
  /** The site's home address, when the save came from a request (for addresses stored on new records). */
  home?: string;
}

export interface PostDeletedEvent {
  storage: StoragePort;
  /** The record as it was just before it was removed. */
  post: PostRecord;
  user: Principal | null;
  now: Date;
}

export type PostSavedListener = (event: PostSavedEvent) => Promise<void> | void;
export type PostDeletedListener = (event: PostDeletedEvent) => Promise<void> | void;

/** Subscriptions to post-type writes; each returns a function that ends the subscription. */
export interface PostEvents {
  onPostSaved(listener: PostSavedListener): () => void;
  onPostDeleted(listener: PostDeletedListener): () => void;
}

/** The subscriptions plus the emitting side, which only the post-type kit's writes use. */
export interface PostEventHub extends PostEvents {
  /** Runs the saved listeners in subscription order, each awaited before the next. */
  emitSaved(event: PostSavedEvent): Promise<void>;
  emitDeleted(event: PostDeletedEvent): Promise<void>;
}

/** Permalink structure, templates by post type and trash, as `createCms({ posts })` resolves them. */
export interface ResolvedPostSettings {
  permalinkStructure: string;
  templates: Readonly<Record<string, Readonly<Record<string, string>>>>;
  trash: boolean;
}
