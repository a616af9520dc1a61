/** Arguments of the posts and pages routes: the kit's list and write arguments, and the single-item ones. */
import { args } from '../../core/args/define.js';
import { collectionArgs, contextArg, itemArgs, type PostType } from '../post-type/index.js';

const idArg = () => args.integer({ description: 'Unique identifier of the post.' });

export function listArgs(postType: PostType) {
  const list = collectionArgs(postType.definition, postType.deps.capabilityRules);
  if (postType.schema.properties.author) return list;
  // A type without authors (reusable blocks) is not filtered by author.
  const { author: _author, author_exclude: _authorExclude, ...withoutAuthors } = list;
  return withoutAuthors as typeof list;
}

export function createArgs(postType: PostType) {
  return itemArgs(postType.schema);
}

export function readArgs() {
  return {
    id: idArg(),
    context: contextArg(),
    excerpt_length: args.integer({ description: 'How many words a generated excerpt keeps.' }),
    password: args.string({ description: 'The password of a password-protected post.' }),
  };
}

export function updateArgs(postType: PostType) {
  return { id: idArg(), ...itemArgs(postType.schema) };
}

export function deleteArgs() {
  return {
    id: idArg(),
    force: args.boolean({ description: 'Whether to delete for good instead of moving to the trash.', default: false }),
  };
}
