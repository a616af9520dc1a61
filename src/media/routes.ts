/** The media routes under `cms/v2`: the collection, single items, post-processing and image edits. */
import { args } from '../core/args/define.js';
import type { PermissionResult, RequestContext, Services } from '../core/context.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, type Registry } from '../core/registry.js';
import { contextArg } from '../content/posts/collection-params.js';
import { createPermission, deletePermission, listPermission, readPermission, updatePermission } from '../content/posts/permissions.js';
import type { PostType } from '../content/posts/scope.js';
import { mediaCollectionArgs, mediaCreateOnlyArgs, mediaEditArgs, mediaWriteArgs } from './args.js';
import { checkCanAttachTo } from './changes.js';
import { editMedia, editPermission } from './edit.js';
import { createMedia, deleteMedia, listMedia, readMedia, updateMedia } from './handlers.js';
import { postProcessMedia } from './post-process.js';
import { mediaPostType } from './schema.js';

const NAMESPACE = 'cms/v2';

async function createMediaPermission(context: RequestContext, mediaType: PostType): Promise<PermissionResult> {
  const result = await createPermission(context, mediaType);
  if (result !== true) return result;
  return (await checkCanAttachTo(context, mediaType)) ?? true;
}

export function registerMedia(registry: Registry, services: Services): PostType {
  const mediaType = mediaPostType();
  const routeOptions = { schema: () => mediaType.schema };
  const writeArgs = mediaWriteArgs(mediaType.schema);
  const id = args.integer({ description: 'Unique identifier of the attachment.' });

  registry.add(NAMESPACE, '/media', [
    {
      methods: READABLE,
      args: mediaCollectionArgs(services),
      permission: (context) => listPermission(context, mediaType),
      handler: (context) => listMedia(context, mediaType),
    },
    {
      methods: CREATABLE,
      args: { ...writeArgs, ...mediaCreateOnlyArgs() },
      permission: (context) => createMediaPermission(context, mediaType),
      handler: (context) => createMedia(context, mediaType),
    },
  ], { ...routeOptions, cache: true });

  registry.add(NAMESPACE, '/media/(?P<id>[\\d]+)', [
    {
      methods: READABLE,
      args: { id, context: contextArg() },
      permission: (context) => readPermission(context, mediaType),
      handler: (context) => readMedia(context, mediaType),
    },
    {
      methods: EDITABLE,
      args: { id, ...writeArgs },
      permission: (context) => updatePermission(context, mediaType),
      handler: (context) => updateMedia(context, mediaType),
    },
    {
      methods: DELETABLE,
      args: {
        id,
        force: args.boolean({ description: 'Whether to delete for good; media items cannot be moved to the trash.', default: false }),
      },
      permission: (context) => deletePermission(context, mediaType),
      handler: (context) => deleteMedia(context, mediaType),
    },
  ], { ...routeOptions, cache: true });

  registry.add(NAMESPACE, '/media/(?P<id>[\\d]+)/post-process', [
    {
      methods: CREATABLE,
      args: {
        id,
        action: args.string({ enum: ['create-image-subsizes'] }, { required: true }),
      },
      permission: (context) => updatePermission(context, mediaType),
      handler: (context) => postProcessMedia(context, mediaType),
    },
  ]);

  registry.add(NAMESPACE, '/media/(?P<id>[\\d]+)/edit', [
    {
      methods: CREATABLE,
      args: mediaEditArgs(writeArgs),
      permission: (context) => editPermission(context, mediaType),
      handler: (context) => editMedia(context, mediaType),
    },
  ], routeOptions);
  return mediaType;
}
