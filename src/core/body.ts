import { CmsError } from './errors.js';
import { parseQueryString } from './query.js';
import type { CmsRequest, ParamMap, UploadedFile } from './types.js';

/** The request body split into the reference's parameter groups. */
export interface ParsedBody {
  /** The decoded JSON body when the content type is JSON-like (any top-level value), else undefined. */
  json: unknown;
  /** Set when a JSON-like body does not parse; reported only once a route has matched. */
  jsonError: CmsError | null;
  /** urlencoded or multipart fields. */
  form: ParamMap;
  files: UploadedFile[];
  raw: Uint8Array;
  /** The media type, lower-cased, without parameters. */
  mediaType: string;
}

const EMPTY_BYTES = new Uint8Array(0);
const MAX_JSON_DEPTH = 512;

export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType === 'application/json+oembed' || /^application\/[^/]+\+json$/.test(mediaType);
}

export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function parseBody(request: CmsRequest, contentType: string | undefined): ParsedBody {
  const mediaType = mediaTypeOf(contentType);
  const method = request.method.toUpperCase();
  const parsed: ParsedBody = { json: undefined, jsonError: null, form: {}, files: [], raw: EMPTY_BYTES, mediaType };

  if (request.parsedBody !== undefined && !(request.parsedBody instanceof Uint8Array) && typeof request.parsedBody !== 'string') {
    const value = request.parsedBody;
    if (isJsonMediaType(mediaType) || mediaType === '') parsed.json = value;
    else if (value && typeof value === 'object' && !Array.isArray(value)) parsed.form = value as ParamMap;
    return parsed;
  }
  const source = request.body ?? (request.parsedBody as Uint8Array | string | undefined);
  const raw = typeof source === 'string' ? new TextEncoder().encode(source) : source ?? EMPTY_BYTES;
  parsed.raw = raw;
  if (raw.length === 0) return parsed;

  if (isJsonMediaType(mediaType)) {
    const text = decodeUtf8(raw);
    if (text === null) parsed.jsonError = invalidJson(5, 'Malformed UTF-8 characters, possibly incorrectly encoded');
    else if (text !== '0') {
      const result = decodeJson(text);
      if (result.ok) parsed.json = result.value;
      else parsed.jsonError = result.error;
    }
  } else if (mediaType === 'application/x-www-form-urlencoded' || (mediaType === '' && method !== 'POST')) {
    parsed.form = parseQueryString(decodeUtf8(raw) ?? '');
  } else if (mediaType === 'multipart/form-data' && method === 'POST') {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
    const boundaryText = boundary?.[1] ?? boundary?.[2];
    if (!boundaryText) {
      throw new CmsError('rest_invalid_multipart', 'The multipart body has no boundary.', 400);
    }
    parseMultipart(raw, boundaryText.trim(), parsed);
  }
  return parsed;
}

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function invalidJson(code: number, message: string): CmsError {
  return new CmsError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: code, json_error_message: message });
}

function decodeJson(text: string): { ok: true; value: unknown } | { ok: false; error: CmsError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (/control character/i.test((error as Error).message)) {
      return { ok: false, error: invalidJson(3, 'Control character error, possibly incorrectly encoded') };
    }
    return { ok: false, error: invalidJson(4, 'Syntax error') };
  }
  if (/\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])/.test(text) || /(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F]/.test(text)) {
    return { ok: false, error: invalidJson(10, 'Single unpaired UTF-16 surrogate in unicode escape') };
  }
  if (depthOf(value) > MAX_JSON_DEPTH) {
    return { ok: false, error: invalidJson(1, 'Maximum stack depth exceeded') };
  }
  return { ok: true, value };
}

function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function parseMultipart(raw: Uint8Array, boundary: string, into: ParsedBody): void {
  const body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  const formPairs: string[] = [];
  let position = body.indexOf(delimiter);
  while (position !== -1) {
    let partStart = position + delimiter.length;
    if (body[partStart] === 0x2d && body[partStart + 1] === 0x2d) break;
    if (body[partStart] === 0x0d && body[partStart + 1] === 0x0a) partStart += 2;
    const next = body.indexOf(delimiter, partStart);
    if (next === -1) break;
    let partEnd = next;
    if (body[partEnd - 2] === 0x0d && body[partEnd - 1] === 0x0a) partEnd -= 2;
    const headerEnd = body.indexOf('\r\n\r\n', partStart);
    if (headerEnd !== -1 && headerEnd < partEnd) {
      const headers = parsePartHeaders(body.toString('utf8', partStart, headerEnd));
      const content = body.subarray(headerEnd + 4, partEnd);
      const disposition = headers['content-disposition'] ?? '';
      const name = dispositionParam(disposition, 'name');
      const filename = dispositionParam(disposition, 'filename');
      if (name !== null) {
        if (filename !== null) {
          into.files.push({
            field: name,
            filename,
            contentType: headers['content-type'] ?? 'application/octet-stream',
            bytes: new Uint8Array(content),
          });
        } else {
          formPairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(content.toString('utf8'))}`);
        }
      }
    }
    position = next;
  }
  into.form = parseQueryString(formPairs.join('&'));
}

function parsePartHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function dispositionParam(disposition: string, key: string): string | null {
  const match = new RegExp(`(?:^|;)\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(disposition);
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? '').trim();
}
