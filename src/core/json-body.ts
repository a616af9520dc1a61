import { CmsError } from './errors.js';
import { toSafeTree } from './safe-object.js';

/**
 * The reference decodes with depth 512: its 512th open array or object is an error (code 1). The nesting is
 * measured before parsing, so a deeply nested body costs one scan up to that bracket, not a parse.
 */
export const MAX_JSON_DEPTH = 512;

export function invalidJson(code: number, message: string): CmsError {
  return new CmsError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: code, json_error_message: message });
}

export const DEPTH_ERROR = () => invalidJson(1, 'Maximum stack depth exceeded');
export const SYNTAX_ERROR = () => invalidJson(4, 'Syntax error');
export const CONTROL_ERROR = () => invalidJson(3, 'Control character error, possibly incorrectly encoded');
export const SURROGATE_ERROR = () => invalidJson(10, 'Single unpaired UTF-16 surrogate in unicode escape');

/**
 * Decodes a JSON body as the reference does (`json_decode($body, true)` with its error codes), giving back
 * prototype-less maps without keys that could reach a prototype.
 */
export function decodeJson(text: string): { ok: true; value: unknown } | { ok: false; error: CmsError } {
  const tooDeepAt = depthLimitPosition(text);
  if (tooDeepAt !== -1) return { ok: false, error: errorBeforeDepthLimit(text.slice(0, tooDeepAt)) };
  return decodeShallowJson(text);
}

/** `decodeJson` of a text known not to nest past the limit. */
export function decodeShallowJson(text: string): { ok: true; value: unknown } | { ok: false; error: CmsError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: /control character/i.test((error as Error).message) ? CONTROL_ERROR() : SYNTAX_ERROR() };
  }
  if (hasLoneSurrogateEscape(text)) return { ok: false, error: SURROGATE_ERROR() };
  return { ok: true, value: toSafeTree(value) };
}

/** The index just past the bracket that opens level `MAX_JSON_DEPTH`, or -1; strings are skipped. */
function depthLimitPosition(text: string): number {
  return new DepthCount().scan(text, 0, text.length);
}

/** The nesting of a text read a slice at a time (brackets in strings do not count). */
export class DepthCount {
  private depth = 0;
  private inString = false;
  /** The last character read was a backslash in a string. */
  private escaped = false;

  /** The index just past the bracket that opens level `MAX_JSON_DEPTH` in `text` from `from` to `end`, or -1. */
  scan(text: string, from: number, end: number): number {
    for (let index = from; index < end; index++) {
      const code = text.charCodeAt(index);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === 0x5c) this.escaped = true;
        else if (code === 0x22) this.inString = false;
      } else if (code === 0x22) this.inString = true;
      else if (code === 0x5b || code === 0x7b) {
        if (++this.depth >= MAX_JSON_DEPTH) return index + 1;
      } else if (code === 0x5d || code === 0x7d) this.depth--;
    }
    return -1;
  }
}

/**
 * The reference reports the first error in the text: when everything before the too-deep bracket is a valid
 * beginning of a JSON text, that is the depth error, else the earlier one.
 */
export function errorBeforeDepthLimit(prefix: string): CmsError {
  if (hasLoneSurrogateEscape(prefix)) return SURROGATE_ERROR();
  try {
    JSON.parse(prefix);
  } catch (error) {
    const message = (error as Error).message;
    if (/Unexpected end of JSON input/.test(message)) return DEPTH_ERROR();
    const position = /at position (\d+)/.exec(message);
    if (position && Number(position[1]) >= prefix.length) return DEPTH_ERROR();
    return /control character/i.test(message) ? CONTROL_ERROR() : SYNTAX_ERROR();
  }
  return DEPTH_ERROR();
}

/** Any `\u` escape of a surrogate: a search for `\u` alone crawls through runs of backslashes (40–60 ms on 5 MiB). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A high surrogate's escape not followed by a low one's (it reads 6 characters past the match). */
const LONE_HIGH = /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])/g;
/** A low surrogate's escape not after a high one's (it reads 6 characters before the match). */
const LONE_LOW = /(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F]/g;

export function hasLoneSurrogateEscape(text: string): boolean {
  if (!SURROGATE_ESCAPE.test(text)) return false;
  return matchesFrom(LONE_HIGH, text, 0, text.length) || matchesFrom(LONE_LOW, text, 0, text.length);
}

/** Whether `pattern` (global) matches `text` at an index from `from` up to, not including, `before`. */
export function matchesFrom(pattern: RegExp, text: string, from: number, before: number): boolean {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match !== null && match.index < before;
}

/**
 * Whether `hasLoneSurrogateEscape` finds a match starting from `start` up to `end` in a text of `length`
 * characters, reading only that window and the characters around it the patterns read: a long text is checked
 * window by window.
 */
export function loneSurrogateEscapeIn(text: { slice(start: number, end: number): string }, start: number, end: number, length: number): boolean {
  const windowStart = Math.max(0, start - 6);
  const window = text.slice(windowStart, Math.min(length, end + 12));
  if (!SURROGATE_ESCAPE.test(window)) return false;
  return matchesFrom(LONE_HIGH, window, start - windowStart, end - windowStart) || matchesFrom(LONE_LOW, window, start - windowStart, end - windowStart);
}
