/** The routes of `oembed/1.0` (its root route comes from the core's namespace index). */
import { allowAnyone, endpoint, READABLE, type RouteTable } from '../core/registry.js';
import { embedArgs, proxyArgs } from './args.js';
import { embedPost, embedXml, proxyEmbed } from './handlers.js';
import { canProxy } from './permissions.js';
import type { OembedRuntime } from './runtime.js';

export function oembedRoutes(runtime: OembedRuntime): RouteTable {
  return [
    { path: '/embed', serialize: embedXml, endpoints: [
      endpoint({ methods: READABLE, args: embedArgs, permission: allowAnyone, handler: (c) => embedPost(c, runtime) }),
    ] },
    { path: '/proxy', endpoints: [
      endpoint({ methods: READABLE, args: proxyArgs, permission: (c) => canProxy(c, runtime.deps.capabilityRules), handler: (c) => proxyEmbed(c, runtime) }),
    ] },
  ];
}
