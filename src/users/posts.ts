/** What the users module needs to know about posts: who has published, and moving or removing a user's posts. */
import { userCan, type CapabilityRules, type Principal } from '../auth/index.js';
import type { Condition, StoragePort } from '../ports/storage.js';

/** The collection every post type lives in (owned by the content module). */
export const POSTS = 'posts';

/** Post types the users routes count (those served over REST); revisions are not. */
export function restPostTypes(rules: CapabilityRules): string[] {
  return Object.keys(rules.postTypes).filter((type) => type !== 'revision');
}

/** Post types that have an author, for `who=authors`. */
export const AUTHORED_POST_TYPES: readonly string[] = ['post', 'page', 'attachment'];

/**
 * Ids of users with at least one published post of the given types, ascending. Each query asks for the next
 * author after the previous one, so the work grows with the number of authors, not of posts.
 */
export async function publishedAuthorIds(storage: StoragePort, types: readonly string[]): Promise<number[]> {
  const authors: number[] = [];
  let after = 0;
  for (;;) {
    const { items } = await storage.list(POSTS, {
      where: [
        { field: 'status', op: 'eq', value: 'publish' },
        { field: 'type', op: 'in', values: [...types] },
        { field: 'author', op: 'gt', value: after },
      ],
      orderBy: [{ field: 'author', direction: 'asc' }],
      limit: 1,
    });
    const author = items[0]?.author;
    if (typeof author !== 'number') return authors;
    authors.push(author);
    after = author;
  }
}

/**
 * How many posts of `author` the viewer may see counted (the reference's `count_user_posts`): published ones,
 * and private ones of the types whose private posts the viewer may read.
 */
export async function countVisiblePosts(
  storage: StoragePort,
  author: number,
  types: readonly string[],
  viewer: Principal | null,
  rules: CapabilityRules,
): Promise<number> {
  const privateTypes = types.filter((type) => {
    const names = rules.postTypes[type];
    return names !== undefined && userCan(viewer, names.read_private_posts, undefined, rules);
  });
  const visible: Condition[] = [{ field: 'status', op: 'eq', value: 'publish' }];
  if (privateTypes.length > 0) {
    visible.push({ op: 'and', conditions: [{ field: 'status', op: 'eq', value: 'private' }, { field: 'type', op: 'in', values: privateTypes }] });
  }
  const { total } = await storage.list(POSTS, {
    where: [
      { field: 'author', op: 'eq', value: author },
      { field: 'type', op: 'in', values: [...types] },
      { op: 'or', conditions: visible },
    ],
    limit: 0,
    withTotal: true,
  });
  return total ?? 0;
}

async function postIdsBy(storage: StoragePort, where: Condition[]): Promise<number[]> {
  const { items } = await storage.list(POSTS, { where });
  return items.map((post) => post.id);
}

/** Gives every post of `from` (of every type) to `to`. */
export async function reassignPosts(storage: StoragePort, from: number, to: number): Promise<number> {
  const ids = await postIdsBy(storage, [{ field: 'author', op: 'eq', value: from }]);
  for (const id of ids) await storage.update(POSTS, id, { author: to });
  return ids.length;
}

/**
 * Removes the posts of a deleted user whose posts are not reassigned, with the revisions that belong to them.
 * The user's own revisions of other people's posts stay (the reference keeps them too). Types in `keepTypes`
 * are left alone (the content module moves those to the trash itself).
 */
export async function removePostsOf(storage: StoragePort, author: number, keepTypes: readonly string[] = []): Promise<number> {
  const ids = await postIdsBy(storage, [
    { field: 'author', op: 'eq', value: author },
    { field: 'type', op: 'notIn', values: ['revision', ...keepTypes] },
  ]);
  if (ids.length === 0) return 0;
  const revisions = await postIdsBy(storage, [
    { field: 'type', op: 'eq', value: 'revision' },
    { field: 'parent', op: 'in', values: ids },
  ]);
  for (const id of [...revisions, ...ids]) await storage.remove(POSTS, id);
  return ids.length;
}
