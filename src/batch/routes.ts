/** The route of `/batch/v1` (outside any namespace, as the reference registers it). */
import { allowAnyone, CREATABLE, type RouteTable } from '../core/registry.js';
import { batchArgs } from './args.js';
import { serveBatch } from './handlers.js';

export function batchRoutes(maxItems: number): RouteTable {
  return [
    { path: '/batch/v1', endpoints: [
      { methods: CREATABLE, args: batchArgs(maxItems), permission: allowAnyone, handler: serveBatch },
    ] },
  ];
}
