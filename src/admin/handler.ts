/**
 * The authoring app's pages, runtime-neutral: the page (index.html, written per host with the API root and the
 * host's scripts) and the prebuilt assets, by exact name only. Hashed assets are immutable; the page is never
 * cached and carries a content security policy that allows the app's own origin (and the API's, when elsewhere).
 */

/** What the build wrote (dist/admin/manifest.json): the script, the stylesheet and every servable file. */
export interface AdminManifest {
  script: string;
  stylesheet: string;
  files: string[];
  /** Files with a gzipped copy beside them (`<file>.gz`), served to clients that accept gzip. */
  gzip?: string[];
}

/** Where the prebuilt files come from: `read('assets/app-….js')` → its bytes, or null (`.gz` for a gzipped copy). */
export interface AdminAssets {
  manifest: AdminManifest;
  read(file: string): Promise<Uint8Array | null>;
}

export interface AdminOptions {
  /** The API root as the browser reaches it: `/cms-json` or `https://api.example.com/cms-json`. */
  apiRoot: string;
  /** The names the API is served under (`cms.names`); default `neutral`. */
  names?: 'neutral' | 'wordpress';
  /** Where the app is mounted; default `/admin`. */
  basePath?: string;
  /** Scripts loaded after the editor's packages and before the app starts (each may call `wp.blocks.registerBlockType`). */
  scripts?: readonly string[];
  /** Seconds between autosaves while there are unsaved changes; default 60. */
  autosaveInterval?: number;
  /** Other origins images and files are served from (a CDN, an object store); the API's origin is always allowed. */
  mediaOrigins?: readonly string[];
}

export interface AdminRequest {
  method: string;
  /** The request path below the mount point, `/` for the page itself; undecoded. */
  path: string;
  /** The `Accept-Encoding` header, when there is one. */
  acceptEncoding?: string | undefined;
}

export interface AdminResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = Object.freeze(Object.assign(Object.create(null) as Record<string, string>, {
  js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml', png: 'image/png', gif: 'image/gif', jpg: 'image/jpeg', woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf',
}));
const IMMUTABLE = 'public, max-age=31536000, immutable';
const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin' };
const encoder = new TextEncoder();

export function normalizeBasePath(path: string | undefined): string {
  const trimmed = (path ?? '/admin').trim().replace(/\/+$/, '');
  if (trimmed !== '' && !/^\/[A-Za-z0-9._~\-/]*$/.test(trimmed)) throw new TypeError(`The admin path must start with / and hold only letters, digits and . _ ~ - /, not '${path}'`);
  return trimmed;
}

/** The origin of an absolute URL, or null for a path on the same origin. */
function originOf(url: string): string | null {
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(url)) return null;
  try {
    return new URL(url).origin;
  } catch {
    throw new TypeError(`Not a URL: '${url}'`);
  }
}

export function contentSecurityPolicy(options: AdminOptions): string {
  const api = originOf(options.apiRoot);
  const scripts = (options.scripts ?? []).map(originOf).filter((origin): origin is string => origin !== null);
  const media = [api, ...(options.mediaOrigins ?? []).map(originOf)].filter((origin): origin is string => origin !== null);
  const list = (...sources: string[]) => [...new Set(sources)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${list("'self'", ...scripts)}`,
    // The editor's components set styles at run time (style attributes and rules); scripts stay self-only.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${list("'self'", 'data:', 'blob:', ...media)}`,
    `media-src ${list("'self'", 'blob:', ...media)}`,
    `connect-src ${list("'self'", ...(api ? [api] : []))}`,
    "font-src 'self' data:",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** `<` and the line separators escaped: the settings sit in the page as JSON that no text can close early. */
const jsonInHtml = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function indexHtml(options: AdminOptions, manifest: AdminManifest): string {
  const config = { apiRoot: options.apiRoot, names: options.names ?? 'neutral', scripts: options.scripts ?? [], autosaveInterval: options.autosaveInterval ?? 60 };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>quire</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeAttribute(manifest.stylesheet)}">
<script type="application/json" id="quire-admin-config">${jsonInHtml(config)}</script>
<script type="module" src="${escapeAttribute(manifest.script)}"></script>
</head>
<body>
<div id="quire-admin"></div>
</body>
</html>
`;
}

export interface AdminApp {
  /** The mount point, normalised: `/admin`, or `` at the site root. */
  basePath: string;
  handle(request: AdminRequest): Promise<AdminResponse>;
}

export function createAdminApp(options: AdminOptions, assets: AdminAssets): AdminApp {
  if (typeof options.apiRoot !== 'string' || options.apiRoot.trim() === '') throw new TypeError('adminHandler needs the apiRoot the browser reaches the API at');
  if (options.autosaveInterval !== undefined && !(Number.isFinite(options.autosaveInterval) && options.autosaveInterval > 0)) {
    throw new TypeError('autosaveInterval must be a positive number of seconds');
  }
  const basePath = normalizeBasePath(options.basePath);
  const policy = contentSecurityPolicy(options);
  const page = encoder.encode(indexHtml(options, assets.manifest));
  const servable = new Set(assets.manifest.files);
  const gzipped = new Set(assets.manifest.gzip ?? []);

  const handle = async (request: AdminRequest): Promise<AdminResponse> => {
    const isPage = request.path === '/' || request.path === '/index.html';
    const file = request.path.slice(1);
    if (!isPage && !servable.has(file)) return text(404, 'Not found.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const refused = text(405, 'Method not allowed.\n');
      refused.headers.Allow = 'GET, HEAD';
      return refused;
    }
    const head = request.method === 'HEAD';
    if (isPage) {
      return {
        status: 200,
        headers: { ...COMMON_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Security-Policy': policy, 'Content-Length': String(page.byteLength) },
        body: head ? null : page,
      };
    }
    const compressed = gzipped.has(file) && acceptsGzip(request.acceptEncoding) ? await assets.read(`${file}.gz`) : null;
    const body = compressed ?? await assets.read(file);
    if (!body) return text(404, 'Not found.\n');
    const extension = file.slice(file.lastIndexOf('.') + 1);
    const headers: Record<string, string> = { ...COMMON_HEADERS, 'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream', 'Cache-Control': IMMUTABLE, 'Content-Length': String(body.byteLength) };
    if (gzipped.has(file)) headers.Vary = 'Accept-Encoding';
    if (compressed) headers['Content-Encoding'] = 'gzip';
    return { status: 200, headers, body: head ? null : body };
  };
  return { basePath, handle };
}

/** Whether `Accept-Encoding` names gzip (or `*`) with a weight above zero. */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.toLowerCase().split(',').some((entry) => {
    const [coding = '', ...parameters] = entry.split(';').map((part) => part.trim());
    const weight = parameters.find((parameter) => parameter.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (weight === undefined || Number(weight.slice(2)) > 0);
  });
}

function text(status: number, message: string): AdminResponse {
  const body = encoder.encode(message);
  return { status, headers: { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Length': String(body.byteLength) }, body };
}
