/**
 * What the users routes need to know about posts: who has published, and how many posts a viewer may see counted.
 * They read the `posts` collection by name and import nothing of the post-type kit.
 */
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
