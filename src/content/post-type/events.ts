/**
 * The post events of one site: the subscriptions other modules hold and the emitting side the kit's writes use
 * (their types are shared service types, src/services/posts.ts).
 */
import type {
  PostDeletedEvent, PostDeletedListener, PostEventHub, PostSavedEvent, PostSavedListener,
} from '../../services/posts.js';

export type {
  PostDeletedEvent, PostDeletedListener, PostEventHub, PostEvents, PostSavedEvent, PostSavedListener, SaveReason,
} from '../../services/posts.js';

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
