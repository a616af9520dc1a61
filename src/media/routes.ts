/** The media routes under `cms/v2`: the collection, single items, post-processing and image edits. */
import { CREATABLE, DELETABLE, EDITABLE, endpoint, READABLE, type RouteTable } from '../core/registry.js';
import { deletePermission, listPermission, readPermission, updatePermission } from '../content/post-type/index.js';
import {
  mediaCollectionArgs, mediaCreateArgs, mediaDeleteArgs, mediaEditArgs, mediaPostProcessArgs, mediaReadArgs, mediaUpdateArgs,
} from './args.js';
import type { MediaType } from './deps.js';
import { editMedia } from './edit.js';
import { createMedia, deleteMedia, listMedia, readMedia, updateMedia } from './handlers.js';
import { createMediaPermission, editPermission } from './permissions.js';
import { postProcessMedia } from './post-process.js';

export function mediaRoutes(media: MediaType): RouteTable {
  const schema = () => media.schema;
  return [
    { path: '/media', schema, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: mediaCollectionArgs(media.deps.capabilityRules), permission: (c) => listPermission(c, media), handler: (c) => listMedia(c, media) }),
      endpoint({ methods: CREATABLE, args: mediaCreateArgs(media.schema), permission: (c) => createMediaPermission(c, media), handler: (c) => createMedia(c, media) }),
    ] },
    { path: '/media/(?P<id>[\\d]+)', schema, cache: { varies: 'caller' }, endpoints: [
      { methods: READABLE, args: mediaReadArgs(), permission: (c) => readPermission(c, media), handler: (c) => readMedia(c, media) },
      endpoint({ methods: EDITABLE, args: mediaUpdateArgs(media.schema), permission: (c) => updatePermission(c, media), handler: (c) => updateMedia(c, media) }),
      { methods: DELETABLE, args: mediaDeleteArgs(), permission: (c) => deletePermission(c, media), handler: (c) => deleteMedia(c, media) },
    ] },
    { path: '/media/(?P<id>[\\d]+)/post-process', endpoints: [
      { methods: CREATABLE, args: mediaPostProcessArgs(), permission: (c) => updatePermission(c, media), handler: (c) => postProcessMedia(c, media) },
    ] },
    { path: '/media/(?P<id>[\\d]+)/edit', schema, endpoints: [
      endpoint({ methods: CREATABLE, args: mediaEditArgs(media.schema), permission: (c) => editPermission(c, media), handler: (c) => editMedia(c, media) }),
    ] },
  ];
}
