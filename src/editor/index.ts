/**
 * `quire/editor`: what the block editor needs to work against quire served in the neutral names. The editor's
 * packages ask for `/wp/v2/…` (and `/wp-block-editor/v1/…`) wherever they do not read the namespace from
 * `rest_namespace`; one api-fetch middleware sends those requests to the neutral names (`/cms/v2/…`), batches
 * included. Under `names: 'wordpress'` no middleware is needed.
 *
 *   import apiFetch from '@wordpress/api-fetch';
 *   import { neutralNamesMiddleware } from 'quire/editor';
 *   apiFetch.use(neutralNamesMiddleware());
 */
import { neutralPath } from '../core/names.js';

/** The part of an api-fetch request this middleware reads and rewrites; the other options pass as they are. */
export interface ApiFetchRequest {
  path?: string;
  data?: unknown;
}

export type ApiFetchMiddleware<T extends ApiFetchRequest = ApiFetchRequest> = (options: T, next: (options: T) => Promise<unknown>) => Promise<unknown>;

/** `wp/v2/posts?context=edit` → `cms/v2/posts?context=edit`: the namespace renamed, the leading slash and query kept. */
export function neutralApiPath(path: string): string {
  const queryAt = path.search(/[?#]/);
  const route = queryAt === -1 ? path : path.slice(0, queryAt);
  const rest = queryAt === -1 ? '' : path.slice(queryAt);
  const renamed = route.startsWith('/') ? neutralPath(route) : neutralPath(`/${route}`).slice(1);
  return `${renamed}${rest}`;
}

/** A batch body (`POST /batch/v1`) with each request's path renamed; anything else unchanged. */
function neutralBatch(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || !Array.isArray((data as { requests?: unknown }).requests)) return data;
  const requests = (data as { requests: unknown[] }).requests.map((request) => {
    if (typeof request !== 'object' || request === null) return request;
    const path = (request as { path?: unknown }).path;
    return typeof path === 'string' ? { ...request, path: neutralApiPath(path) } : request;
  });
  return { ...data, requests };
}

/** An api-fetch middleware mapping the reference's names (`/wp/v2/`) to quire's neutral ones (`/cms/v2/`). */
export function neutralNamesMiddleware<T extends ApiFetchRequest = ApiFetchRequest>(): ApiFetchMiddleware<T> {
  return (options, next) => {
    if (typeof options.path !== 'string') return next(options);
    const path = neutralApiPath(options.path);
    const isBatch = /^\/?batch\/v1(?:[/?#]|$)/.test(path);
    return next({ ...options, path, ...(isBatch && 'data' in options ? { data: neutralBatch(options.data) } : {}) });
  };
}
