import { CmsError } from './errors.js';
import { DEFAULT_JSON_LIMITS, invalidJson, jsonTooLarge } from './json-body.js';
import { decodeJsonInTurns } from './json-body-large.js';
import { turnTaker } from '../format/turn.js';
import { hasBoundary, parseMultipart } from './multipart.js';
import { parseQueryString } from './query.js';
import { joinedInTurns, LARGE_FORM_BYTES, parseQueryStringInTurns } from './query-large.js';
import { toSafeTreeInTurns, type TreeLimits } from './safe-object.js';
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

export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType === 'application/json+oembed' || /^application\/[^/]+\+json$/.test(mediaType);
}

export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The empty body of a request that sent none, with the media type its `Content-Type` names (if any). */
export function emptyBodyOf(contentType: string | undefined): ParsedBody {
  const body = emptyBody();
  if (contentType !== undefined) body.mediaType = mediaTypeOf(contentType);
  return body;
}

/** An empty body, for requests made inside the pipeline. */
export function emptyBody(): ParsedBody {
  return new EmptyBody();
}

/** Made by `new`, not as a literal: every request without a body has one, and none may be made old (request-objects.ts). */
class EmptyBody implements ParsedBody {
  json: unknown = undefined;
  jsonError: CmsError | null = null;
  form = Object.create(null) as ParamMap;
  files: UploadedFile[] = [];
  raw: Uint8Array = EMPTY_BYTES;
  mediaType = '';
}

/** The largest body parsed into parameters by default: PHP's `post_max_size`. */
export const DEFAULT_MAX_PARSED_BODY_BYTES = 8 * 1024 * 1024;

export function bodyTooLarge(limit: number): CmsError {
  return new CmsError('rest_request_too_large', `The request body is larger than the ${limit} bytes allowed.`, 413, { max_bytes: limit });
}

/**
 * Parses the body by its content type. Every parser keeps to the input limits (variables, nesting, JSON depth,
 * multipart parts), and every map it yields is prototype-less. A JSON or urlencoded body, or the text fields of
 * a multipart body, larger than `maxParsedBytes` is refused (413) before it is read; files are not counted. So is
 * a JSON body, or a body the host's framework parsed, past `jsonLimits`, before it is parsed or copied whole.
 */
export async function parseBody(
  request: CmsRequest, contentType: string | undefined, maxParsedBytes = DEFAULT_MAX_PARSED_BODY_BYTES, jsonLimits: TreeLimits = DEFAULT_JSON_LIMITS,
): Promise<ParsedBody> {
  const mediaType = mediaTypeOf(contentType);
  const method = request.method.toUpperCase();
  const parsed = emptyBody();
  parsed.mediaType = mediaType;

  if (request.parsedBody !== undefined && !(request.parsedBody instanceof Uint8Array) && typeof request.parsedBody !== 'string') {
    const copied = await toSafeTreeInTurns(request.parsedBody, turnTaker(), jsonLimits);
    if (copied.over !== null) throw jsonTooLarge(jsonLimits, copied.over);
    const value = copied.value;
    if (isJsonMediaType(mediaType) || mediaType === '') parsed.json = value;
    else if (value && typeof value === 'object' && !Array.isArray(value)) parsed.form = value as ParamMap;
    return parsed;
  }
  const source = request.body ?? (request.parsedBody as Uint8Array | string | undefined);
  const raw = typeof source === 'string' ? new TextEncoder().encode(source) : source ?? EMPTY_BYTES;
  parsed.raw = raw;
  if (raw.length === 0) return parsed;

  const isForm = mediaType === 'application/x-www-form-urlencoded' || (mediaType === '' && method !== 'POST');
  if ((isJsonMediaType(mediaType) || isForm) && raw.length > maxParsedBytes) throw bodyTooLarge(maxParsedBytes);
  if (isJsonMediaType(mediaType)) {
    const text = await decodeUtf8InTurns(raw);
    if (text === null) parsed.jsonError = invalidJson(5, 'Malformed UTF-8 characters, possibly incorrectly encoded');
    else if (text.length !== 1 || text[0] !== '0') {
      const result = await decodeJsonInTurns(text, jsonLimits);
      if (result.ok) parsed.json = result.value;
      // Past a JSON limit the body is too large, answered before any route as a body of too many bytes is.
      else if (result.error.status === 413) throw result.error;
      else parsed.jsonError = result.error;
    }
  } else if (isForm) {
    if (raw.length < LARGE_FORM_BYTES) parsed.form = parseQueryString(decodeUtf8(raw) ?? '');
    else {
      const turn = turnTaker();
      const pieces = await decodeUtf8InTurns(raw);
      parsed.form = await parseQueryStringInTurns(pieces === null ? '' : await joinedInTurns(pieces, turn), turn);
    }
  } else if (mediaType === 'multipart/form-data' && method === 'POST') {
    if (!hasBoundary(contentType ?? '')) {
      throw new CmsError('rest_invalid_multipart', 'The multipart body has no boundary.', 400);
    }
    const content = await parseMultipart(raw, contentType!, maxParsedBytes);
    if (content.fieldBytes > maxParsedBytes) throw bodyTooLarge(maxParsedBytes);
    parsed.form = content.form;
    parsed.files = content.files;
  }
  return parsed;
}

/** The most bytes decoded at once: a large body is decoded in slices, with turns of the event loop between. */
const DECODE_SLICE_BYTES = 1024 * 1024;

/**
 * The text of a body as the consecutive strings its slices decode to: the JSON decoding reads them as they are, as
 * appending them would leave one string to be copied whole on its first read.
 */
async function decodeUtf8InTurns(bytes: Uint8Array): Promise<string[] | null> {
  if (bytes.byteLength <= DECODE_SLICE_BYTES) {
    const text = decodeUtf8(bytes);
    return text === null ? null : [text];
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const turn = turnTaker();
  const pieces: string[] = [];
  try {
    for (let offset = 0; offset < bytes.byteLength; offset += DECODE_SLICE_BYTES) {
      pieces.push(decoder.decode(bytes.subarray(offset, offset + DECODE_SLICE_BYTES), { stream: true }));
      await turn();
    }
    pieces.push(decoder.decode());
    return pieces;
  } catch {
    return null;
  }
}

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
