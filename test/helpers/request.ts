import type { Cms } from '../../src/cms.js';
import type { CmsRequest, CmsResponse } from '../../src/core/types.js';

/** Sends one request in-process: `send(cms, 'GET', '/cms/v2/posts?per_page=2', { json: {...} })`. */
export async function send(
  cms: Pick<Cms, 'handle'>,
  method: string,
  pathWithQuery: string,
  init: { json?: unknown; form?: string; headers?: Record<string, string>; user?: CmsRequest['user']; remoteAddress?: string } = {},
): Promise<CmsResponse & { json: any }> {
  const mark = pathWithQuery.indexOf('?');
  const path = mark === -1 ? pathWithQuery : pathWithQuery.slice(0, mark);
  const query = mark === -1 ? '' : pathWithQuery.slice(mark + 1);
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof init.json === 'string' ? init.json : JSON.stringify(init.json);
  } else if (init.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = init.form;
  }
  const request: CmsRequest = { method, path, query, headers };
  if (body !== undefined) request.body = body;
  if (init.user !== undefined) request.user = init.user;
  if (init.remoteAddress !== undefined) request.remoteAddress = init.remoteAddress;
  const response = await cms.handle(request);
  let json: unknown = response.body;
  if (response.body instanceof Uint8Array) {
    json = JSON.parse(new TextDecoder().decode(response.body));
  }
  return { ...response, json };
}
