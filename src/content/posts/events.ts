/**
 * What other modules hear about post-type records: revisions are made after saves, comments go with their
 * post. Listeners run inside the write's transaction, with its storage handle; a throwing listener undoes the
 * write.
 */
import type { Principal, Services } from '../../core/context.js';
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

export interface PostEvents {
  readonly saved: ((event: PostSavedEvent) => Promise<void> | void)[];
  readonly deleted: ((event: PostDeletedEvent) => Promise<void> | void)[];
}

declare module '../../core/context.js' {
  interface Services {
    /** Listeners for post-type writes; created on first use. */
    postEvents?: PostEvents;
  }
}

/** The listeners of a Cms instance (created on first use, so modules can register in any order). */
export function postEvents(services: Services): PostEvents {
  services.postEvents ??= { saved: [], deleted: [] };
  return services.postEvents;
}

export async function emitSaved(services: Services, event: PostSavedEvent): Promise<void> {
  for (const listener of postEvents(services).saved) await listener(event);
}

export async function emitDeleted(services: Services, event: PostDeletedEvent): Promise<void> {
  for (const listener of postEvents(services).deleted) await listener(event);
}
