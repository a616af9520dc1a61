/** Registers the collection and item routes of one post type from its definition. */
import { args } from '../../core/args/define.js';
import type { Services } from '../../core/context.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, type Registry } from '../../core/registry.js';
import { collectionArgs, contextArg } from './collection-params.js';
import { itemArgs } from './item-args.js';
import { createPost, readPost, removePost, updatePost } from './item-handlers.js';
import { listPosts } from './list.js';
import { createPermission, deletePermission, listPermission, readPermission, updatePermission } from './permissions.js';
import { PAGE_TYPE, POST_TYPE, type PostTypeDefinition } from './post-types.js';
import { buildItemSchema } from './schema.js';
import type { PostType } from './scope.js';
import { authorPostsHandler } from './author-posts.js';

const NAMESPACE = 'cms/v2';

export function registerPostType(registry: Registry, services: Services, definition: PostTypeDefinition): PostType {
  const schema = buildItemSchema(definition);
  const postType: PostType = { definition, schema };
  const routeOptions = { schema: () => schema, allowBatch: true, cache: true };
  const writeArgs = itemArgs(schema);
  const id = args.integer({ description: 'Unique identifier of the post.' });

  registry.add(NAMESPACE, `/${definition.restBase}`, [
    {
      methods: READABLE,
      args: collectionArgs(definition, services),
      permission: (context) => listPermission(context, postType),
      handler: (context) => listPosts(context, postType),
    },
    {
      methods: CREATABLE,
      args: writeArgs,
      permission: (context) => createPermission(context, postType),
      handler: (context) => createPost(context, postType),
    },
  ], routeOptions);

  registry.add(NAMESPACE, `/${definition.restBase}/(?P<id>[\\d]+)`, [
    {
      methods: READABLE,
      args: {
        id,
        context: contextArg(),
        excerpt_length: args.integer({ description: 'How many words a generated excerpt keeps.' }),
        password: args.string({ description: 'The password of a password-protected post.' }),
      },
      permission: (context) => readPermission(context, postType),
      handler: (context) => readPost(context, postType),
    },
    {
      methods: EDITABLE,
      args: { id, ...writeArgs },
      permission: (context) => updatePermission(context, postType),
      handler: (context) => updatePost(context, postType),
    },
    {
      methods: DELETABLE,
      args: {
        id,
        force: args.boolean({ description: 'Whether to delete for good instead of moving to the trash.', default: false }),
      },
      permission: (context) => deletePermission(context, postType),
      handler: (context) => removePost(context, postType),
    },
  ], routeOptions);
  return postType;
}

/** Posts and pages under `cms/v2`. */
export function registerPosts(registry: Registry, services: Services): { posts: PostType; pages: PostType } {
  const posts = registerPostType(registry, services, POST_TYPE);
  const pages = registerPostType(registry, services, PAGE_TYPE);
  services.userPosts = authorPostsHandler(services, [posts, pages]);
  return { posts, pages };
}
