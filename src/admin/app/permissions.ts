/**
 * What the signed-in user may do with one post or page, read from the capabilities of `/users/me?context=edit`
 * with the same rules the API applies, so the app offers only what the API would accept.
 */
import type { CurrentUser } from './app.js';

export interface PostLike { author: number; status: string }

const plural = (type: 'post' | 'page'): string => (type === 'post' ? 'posts' : 'pages');
const has = (user: CurrentUser, capability: string): boolean => user.capabilities[capability] === true;

export function canCreate(user: CurrentUser, type: 'post' | 'page'): boolean {
  return has(user, `edit_${plural(type)}`);
}

export function canPublish(user: CurrentUser, type: 'post' | 'page'): boolean {
  return has(user, `publish_${plural(type)}`);
}

export function canEdit(user: CurrentUser, type: 'post' | 'page', post: PostLike): boolean {
  const kind = plural(type);
  if (post.author !== user.id && !has(user, `edit_others_${kind}`)) return false;
  if (post.status === 'publish' || post.status === 'future') return has(user, `edit_published_${kind}`);
  if (post.status === 'private') return has(user, `edit_private_${kind}`);
  return has(user, `edit_${kind}`);
}

export function canDelete(user: CurrentUser, type: 'post' | 'page', post: PostLike): boolean {
  const kind = plural(type);
  if (post.author !== user.id && !has(user, `delete_others_${kind}`)) return false;
  if (post.status === 'publish' || post.status === 'future') return has(user, `delete_published_${kind}`);
  if (post.status === 'private') return has(user, `delete_private_${kind}`);
  return has(user, `delete_${kind}`);
}
