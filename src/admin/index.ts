/**
 * `quire/admin`: the authoring app for a host to mount beside the API. The prebuilt files ship in dist/admin/;
 * `adminHandler` serves them under a path, for the API at `apiRoot`:
 *
 *   const admin = adminHandler({ apiRoot: '/cms-json' });
 *   http.createServer((req, res) => admin.node(req, res, () => api(req, res)));   // node http, connect, Express
 *   app.all('/admin/*', (c) => admin.fetch(c.req.raw));                           // Hono, or any fetch runtime
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AdminApp, type AdminAssets, type AdminManifest, type AdminOptions, type AdminResponse, createAdminApp } from './handler.js';

export type { AdminOptions, AdminRequest, AdminResponse, AdminManifest, AdminAssets, AdminApp } from './handler.js';
export { createAdminApp, contentSecurityPolicy } from './handler.js';

/** Set by the bundled build (.ci/build.mjs): where dist/admin/ is from the build's modules. */
declare const QUIRE_ADMIN_ASSETS: string | undefined;

export interface AdminHandler extends AdminApp {
  /** Whether a request path (without the query) is the app's. */
  matches(pathname: string): boolean;
  /** For fetch runtimes (Hono, Workers, Deno, Bun): the answer to a request under the mount point; 404 outside it. */
  fetch(request: Request): Promise<Response>;
  /** For node http, connect and Express: answers requests under the mount point, passes the others to `next` (404 without). */
  node(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
}

/** The prebuilt files on disk: the build's dist/admin/, or `directory`. */
export async function diskAssets(directory?: URL | string): Promise<AdminAssets> {
  const root = directory === undefined ? defaultDirectory() : new URL(String(directory).replace(/\/?$/, '/'), 'file:///');
  let manifest: AdminManifest;
  try {
    manifest = JSON.parse(await readFile(new URL('manifest.json', root), 'utf8')) as AdminManifest;
  } catch {
    throw new Error(`The authoring app is not built (no manifest.json in ${root.pathname}): run the package's build (node .ci/build.mjs).`);
  }
  const cache = new Map<string, Uint8Array>();
  return {
    manifest,
    async read(file) {
      const listed = manifest.files.includes(file) || (file.endsWith('.gz') && (manifest.gzip ?? []).includes(file.slice(0, -3)));
      if (!listed) return null;
      const cached = cache.get(file);
      if (cached) return cached;
      const body = new Uint8Array(await readFile(new URL(file, root)));
      cache.set(file, body);
      return body;
    },
  };
}

function defaultDirectory(): URL {
  if (typeof QUIRE_ADMIN_ASSETS === 'string') return new URL(QUIRE_ADMIN_ASSETS, import.meta.url);
  return new URL('../../dist/admin/', import.meta.url);
}

export async function adminHandler(options: AdminOptions & { assets?: AdminAssets }): Promise<AdminHandler> {
  const app = createAdminApp(options, options.assets ?? await diskAssets());
  const { basePath } = app;
  const matches = (pathname: string) => pathname === basePath || pathname.startsWith(`${basePath}/`);
  const below = (pathname: string) => pathname.slice(basePath.length);
  const redirect = (pathname: string, query: string): AdminResponse => ({ status: 308, headers: { Location: `${pathname}/${query ? `?${query}` : ''}`, 'Content-Length': '0' }, body: null });

  const answer = (method: string, pathname: string, query: string, acceptEncoding: string | undefined): Promise<AdminResponse> => (below(pathname) === ''
    ? Promise.resolve(redirect(pathname, query))
    : app.handle({ method, path: below(pathname), acceptEncoding }));

  return {
    ...app,
    matches,
    async fetch(request) {
      const url = new URL(request.url);
      if (!matches(url.pathname)) return new Response('Not found.\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      const response = await answer(request.method, url.pathname, url.search.slice(1), request.headers.get('accept-encoding') ?? undefined);
      return new Response(response.body as BodyInit | null, { status: response.status, headers: response.headers });
    },
    node(req, res, next) {
      const target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
      const mark = target.indexOf('?');
      const pathname = mark === -1 ? target : target.slice(0, mark);
      if (!matches(pathname)) {
        if (next) next();
        else res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found.\n');
        return;
      }
      const acceptEncoding = req.headers['accept-encoding'];
      answer(req.method ?? 'GET', pathname, mark === -1 ? '' : target.slice(mark + 1), Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding).then((response) => {
        res.writeHead(response.status, response.headers);
        res.end(response.body ?? undefined);
      }, (error: unknown) => (next ? next(error) : res.destroy()));
    },
  };
}
