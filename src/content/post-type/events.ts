/**
 * What other modules hear about post-type records: revisions are made after saves, comments go with their
 * post. Listeners run inside the write's transaction, with its storage handle; a throwing listener undoes the
 * write.
 */
import type { Principal } from '../../core/context.js';
import type { StoragePort } from '../../ports/storage.js';
import type { PostRecord } from './record.js';

/**
 * Why a record was saved: a create, a REST update, a move to the trash, a scheduled post going live, or an
 * autosave that updated its author's own draft in place.
 */
export type SaveReason = 'create' | 'update' | 'trash' | 'scheduled-publish' | 'autosave';

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

function subscriber<L>(listeners: L[]): (listener: L) => () => void {
  return (listener) => {
    listeners.push(listener);
    return () => {
      const index = listeners.indexOf(listener);
      if (index !== -1) listeners.splice(index, 1);
    };
  };
}

/** The post events of one Cms instance; `createCms` makes them before any resource registers. */
export function createPostEvents(): PostEventHub {
  const saved: PostSavedListener[] = [];
  const deleted: PostDeletedListener[] = [];
  return Object.freeze({
    onPostSaved: subscriber(saved),
    onPostDeleted: subscriber(deleted),
    async emitSaved(event: PostSavedEvent) {
      for (const listener of [...saved]) await listener(event);
    },
    async emitDeleted(event: PostDeletedEvent) {
      for (const listener of [...deleted]) await listener(event);
    },
  });
}
