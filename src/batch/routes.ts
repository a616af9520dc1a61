/** The route of `/batch/v1` (outside any namespace, as the reference registers it). */
import { allowAnyone, CREATABLE, endpoint, type RouteTable } from '../core/registry.js';
import { batchArgs } from './args.js';
import { runBatch } from './handlers.js';

export function batchRoutes(maxItems: number): RouteTable {
  return [
    { path: '/batch/v1', endpoints: [
      endpoint({ methods: CREATABLE, args: batchArgs(maxItems), permission: allowAnyone, handler: runBatch }),
    ] },
  ];
}
