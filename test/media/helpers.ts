import { decode, encodeJpeg, encodePng, Image } from 'image-js';
import { createCms, type CmsOptions } from '../../src/cms.js';
import type { CmsRequest, CmsResponse } from '../../src/core/types.js';
import { fixedClock } from '../../src/ports/clock.js';
import { createMemoryBlobStore } from '../../src/storage/blobs/memory.js';
import { send } from '../helpers/request.js';

export const NOW = '2026-11-21T17:11:35Z';
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export type Colour = [number, number, number];
export const RED: Colour = [255, 0, 0];
export const GREEN: Colour = [0, 255, 0];
export const BLUE: Colour = [0, 0, 255];
export const YELLOW: Colour = [255, 255, 0];

/**
 * A picture with four coloured quarters: red top-left, green top-right, blue bottom-left, yellow bottom-right.
 * Flips, rotations and crops move the quarters in ways a few pixel reads can tell apart.
 */
export function quarters(width: number, height: number, alpha = false): Image {
  const image = new Image(width, height, { colorModel: alpha ? 'RGBA' : 'RGB' });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const top = y < height / 2;
      const left = x < width / 2;
      const colour = top ? (left ? RED : GREEN) : (left ? BLUE : YELLOW);
      image.setPixel(x, y, alpha ? [...colour, 255] : colour);
    }
  }
  return image;
}

/** A picture of random pixels: it does not compress, so its file is about as large as its pixels. */
export function noise(width: number, height: number): Image {
  const image = new Image(width, height, { colorModel: 'RGB' });
  let seed = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      image.setPixel(x, y, [seed & 255, (seed >> 8) & 255, (seed >> 16) & 255]);
    }
  }
  return image;
}

export function png(image: Image): Uint8Array {
  return encodePng(image);
}

export function jpeg(image: Image, quality = 90): Uint8Array {
  return encodeJpeg(image, { quality });
}

/** The colour at (x, y) of encoded image bytes, as RGB. */
export function colourAt(bytes: Uint8Array, x: number, y: number): Colour {
  const image = decode(bytes);
  const pixel = image.getPixel(x, y);
  return [pixel[0]!, pixel[1]!, pixel[2]!];
}

export function sizeOf(bytes: Uint8Array): { width: number; height: number } {
  const image = decode(bytes);
  return { width: image.width, height: image.height };
}

/** Whether a colour is within `tolerance` of another on every channel (JPEG shifts colours a little). */
export function near(actual: Colour, expected: Colour, tolerance = 40): boolean {
  return actual.every((value, index) => Math.abs(value - expected[index]!) <= tolerance);
}

/** Fails with both colours in the message when they are not near each other. */
export function assertNear(actual: Colour, expected: Colour, tolerance = 40): void {
  if (!near(actual, expected, tolerance)) {
    throw new Error(`expected a colour near ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

export async function makeMediaSite(options: Partial<CmsOptions> = {}) {
  const clock = fixedClock(NOW);
  const blobs = options.blobs ?? createMemoryBlobStore();
  // Image work on the main thread unless a test asks for workers: starting one from TypeScript sources is slow.
  const cms = createCms({ clock, blobs, images: { workers: 0 }, ...options, site: { url: 'http://example.test', ...options.site } });
  const ids = {} as Record<Role, number>;
  for (const role of ROLES) {
    const user = await cms.users.create({ login: role, email: `${role}@example.test`, roles: [role] });
    ids[role] = user.id;
  }
  return { cms, clock, blobs, ids };
}

export type MediaSite = Awaited<ReturnType<typeof makeMediaSite>>;

function parseBody(response: CmsResponse): any {
  if (response.body instanceof Uint8Array) return JSON.parse(new TextDecoder().decode(response.body));
  return response.body;
}

/** A raw-body upload: the file is the body, metadata in the query string. */
export async function uploadRaw(
  site: MediaSite,
  file: { name?: string | null; type?: string | null; bytes: Uint8Array | string },
  init: { role?: Role | null; query?: string; headers?: Record<string, string> } = {},
): Promise<CmsResponse & { json: any }> {
  const headers: Record<string, string> = { ...init.headers };
  if (file.type !== null) headers['content-type'] = file.type ?? 'application/octet-stream';
  if (file.name !== null && file.name !== undefined) headers['content-disposition'] = `attachment; filename="${file.name}"`;
  const request: CmsRequest = { method: 'POST', path: '/cms/v2/media', query: init.query ?? '', headers, body: file.bytes };
  const role = init.role === undefined ? 'administrator' : init.role;
  if (role !== null) request.user = { id: site.ids[role] };
  const response = await site.cms.handle(request);
  return { ...response, json: parseBody(response) };
}

/** A multipart/form-data upload with a `file` part and form fields. */
export async function uploadMultipart(
  site: MediaSite,
  file: { name: string; type: string; bytes: Uint8Array; field?: string } | null,
  fields: Record<string, string> = {},
  init: { role?: Role | null } = {},
): Promise<CmsResponse & { json: any }> {
  const boundary = '----quire-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(Buffer.from(file.bytes));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const request: CmsRequest = {
    method: 'POST',
    path: '/cms/v2/media',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: new Uint8Array(Buffer.concat(parts)),
  };
  const role = init.role === undefined ? 'administrator' : init.role;
  if (role !== null) request.user = { id: site.ids[role] };
  const response = await site.cms.handle(request);
  return { ...response, json: parseBody(response) };
}

/** A JSON request as a role (or anonymously with `null`). */
export function as(site: MediaSite, role: Role | null) {
  return (method: string, path: string, init: { json?: unknown; headers?: Record<string, string> } = {}) =>
    send(site.cms, method, path, role === null ? init : { ...init, user: { id: site.ids[role] } });
}

/** The stored bytes behind a `source_url` of the default uploads base. */
export async function storedBytes(site: MediaSite, sourceUrl: string): Promise<Uint8Array> {
  const prefix = 'http://example.test/uploads/';
  if (!sourceUrl.startsWith(prefix)) throw new Error(`not an uploads URL: ${sourceUrl}`);
  const key = sourceUrl.slice(prefix.length).split('/').map(decodeURIComponent).join('/');
  const blob = await site.blobs.get(key);
  if (!blob) throw new Error(`nothing stored at ${key}`);
  return blob.bytes;
}
