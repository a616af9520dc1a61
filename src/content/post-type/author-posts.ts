/**
 * What happens to a deleted user's posts. Given to another user, every record changes author; otherwise posts
 * and pages go to the trash, as the reference's `wp_delete_user` does through `wp_delete_post`, reusable blocks
 * stay, and the user's other records are removed with the revisions that belong to them. `createCms` hands this to the users
 * resource, which calls it inside the deletion's transaction.
 */
import type { Condition, StoragePort } from '../../ports/storage.js';
import type { UserDeletionActor, UserPostsHandler } from '../../services/user-posts.js';
import { definePostType, type PostTypeDeps } from './define.js';
import type { PostTypeDefinition } from './definition.js';
import { postsIn } from './record.js';
import { trashPost } from './save.js';
import { buildScope } from './scope.js';

export interface AuthorPosts extends UserPostsHandler {
  /** Gives every record of `from` (of every type) to `to`; resolves to how many. */
  reassign(storage: StoragePort, from: number, to: number): Promise<number>;
  /** Trashes the author's records of the trashed types and removes the others; resolves to how many went. */
  removeAll(storage: StoragePort, author: number, actor: UserDeletionActor): Promise<number>;
}

async function postIdsBy(storage: StoragePort, where: Condition[]): Promise<number[]> {
  const { items } = await postsIn(storage).list({ where });
  return items.map((post) => post.id);
}

/**
 * Removes the records of `author` with the revisions that belong to them. The author's own revisions of other
 * people's posts stay (the reference keeps them too). Types in `keepTypes` are left alone.
 */
async function removeRecordsOf(storage: StoragePort, author: number, keepTypes: readonly string[]): Promise<number> {
  const ids = await postIdsBy(storage, [
    { field: 'author', op: 'eq', value: author },
    { field: 'type', op: 'notIn', values: ['revision', ...keepTypes] },
  ]);
  if (ids.length === 0) return 0;
  const revisions = await postIdsBy(storage, [
    { field: 'type', op: 'eq', value: 'revision' },
    { field: 'parent', op: 'in', values: ids },
  ]);
  const posts = postsIn(storage);
  for (const id of [...revisions, ...ids]) await posts.remove(id);
  return ids.length;
}

/**
 * `trashedTypes` go to the trash with their author; `keptTypes` (types without authors, such as reusable blocks,
 * which the reference does not delete with the user) stay; other records are removed.
 */
export function authorPostsHandler(
  deps: PostTypeDeps, trashedTypes: readonly PostTypeDefinition[], keptTypes: readonly PostTypeDefinition[] = [],
): AuthorPosts {
  const postTypes = trashedTypes.map((definition) => definePostType(definition, deps));
  return {
    async reassign(storage, from, to) {
      const ids = await postIdsBy(storage, [{ field: 'author', op: 'eq', value: from }]);
      const posts = postsIn(storage);
      for (const id of ids) await posts.update(id, { author: to });
      return ids.length;
    },
    async removeAll(storage, author, actor) {
      const source = { site: actor.site, user: actor.user, wantsField: () => true, url: actor.site.apiLink };
      let trashed = 0;
      for (const postType of postTypes) {
        const { items } = await postsIn(storage).list({
          where: [
            { field: 'author', op: 'eq', value: author },
            { field: 'type', op: 'eq', value: postType.definition.type },
            { field: 'status', op: 'ne', value: 'trash' },
          ],
        });
        const environment = buildScope(source, postType).saveEnvironment(storage);
        for (const post of items) await trashPost(post, environment);
        trashed += items.length;
      }
      const untouched = [...postTypes.map((postType) => postType.definition.type), ...keptTypes.map((definition) => definition.type)];
      return trashed + await removeRecordsOf(storage, author, untouched);
    },
  };
}
