import { CmsError } from './errors.js';
import { NO_TREE_LIMITS, toSafeTree, type TreeLimits } from './safe-object.js';

/**
 * The reference decodes with depth 512: its 512th open array or object is an error (code 1). The nesting is
 * measured before parsing, so a deeply nested body costs one scan up to that bracket, not a parse.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * The most values (arrays, objects and scalars; an object's keys are not values) a JSON body may hold, and the
 * most members one of its arrays or objects may hold. The reference has neither: every value costs a decoded
 * object or slot and its share of garbage collection, and an array or object is walked whole by whatever reads it
 * (a post's `tags` of 4 million ids were looked up one after the other, 11 s without a turn). A slider of 200
 * slides of 50 layers (6 MiB) holds 622,605 values, its largest list 200 members.
 */
export const DEFAULT_MAX_JSON_VALUES = 1_000_000;
export const DEFAULT_MAX_JSON_MEMBERS = 10_000;
export const DEFAULT_JSON_LIMITS: TreeLimits = { maxValues: DEFAULT_MAX_JSON_VALUES, maxMembers: DEFAULT_MAX_JSON_MEMBERS };

/** The JSON limits the host's options name (`maxJsonValues`, `maxJsonMembers`), checked. */
export function jsonLimitsOf(options: { maxJsonValues?: number; maxJsonMembers?: number }): TreeLimits {
  const limit = (name: string, value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number of 1 or more, not ${String(value)}`);
    return value;
  };
  return {
    maxValues: limit('maxJsonValues', options.maxJsonValues, DEFAULT_MAX_JSON_VALUES),
    maxMembers: limit('maxJsonMembers', options.maxJsonMembers, DEFAULT_MAX_JSON_MEMBERS),
  };
}

/** A body past one of its JSON limits: too large, as a body of too many bytes is (413), and answered as early. */
export function jsonTooLarge(limits: TreeLimits, over: keyof TreeLimits): CmsError {
  if (over === 'maxValues') {
    return new CmsError('rest_request_too_large', `The JSON body holds more than the ${limits.maxValues} values allowed.`, 413, { max_values: limits.maxValues });
  }
  return new CmsError(
    'rest_request_too_large', `An array or object of the JSON body holds more than the ${limits.maxMembers} members allowed.`, 413, { max_members: limits.maxMembers },
  );
}

export function invalidJson(code: number, message: string): CmsError {
  return new CmsError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: code, json_error_message: message });
}

export const DEPTH_ERROR = () => invalidJson(1, 'Maximum stack depth exceeded');
export const SYNTAX_ERROR = () => invalidJson(4, 'Syntax error');
export const CONTROL_ERROR = () => invalidJson(3, 'Control character error, possibly incorrectly encoded');
export const SURROGATE_ERROR = () => invalidJson(10, 'Single unpaired UTF-16 surrogate in unicode escape');

/**
 * Decodes a JSON body as the reference does (`json_decode($body, true)` with its error codes), giving back
 * prototype-less maps without keys that could reach a prototype. A body past `limits` is refused by the scan that
 * measures its nesting, before it is parsed (`jsonTooLarge`).
 */
export function decodeJson(text: string, limits = DEFAULT_JSON_LIMITS): { ok: true; value: unknown } | { ok: false; error: CmsError } {
  const count = new JsonCount(limits);
  const stoppedAt = count.scan(text, 0, text.length);
  if (count.stop === 'depth') return { ok: false, error: errorBeforeDepthLimit(text.slice(0, stoppedAt)) };
  if (count.stop !== null) return { ok: false, error: jsonTooLarge(limits, count.stop) };
  return decodeShallowJson(text);
}

/** `decodeJson` of a text known not to nest past the limit nor to go past the others. */
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

/**
 * The nesting, values and members of a text read a slice at a time, brackets and commas in strings aside. Its
 * values are the root, a value after each comma inside an array or object, and the last of every array or object
 * that is not empty: exact for JSON, and for any text never more than the values it holds as far as it is read.
 */
export class JsonCount {
  /** The limit the text went past first, once `scan` has stopped. */
  stop: 'depth' | keyof TreeLimits | null = null;
  private depth = 0;
  private inString = false;
  /** The last character read was a backslash in a string. */
  private escaped = false;
  /** Nothing but blanks since the last opening bracket. */
  private justOpened = false;
  private values = 1;
  /** The commas of each open array or object, by its depth (a plain array: a typed one costs more to make). */
  private readonly commas: number[] = [];

  constructor(readonly limits = NO_TREE_LIMITS) {}

  /**
   * The index just past the character at which the text goes past a limit (the bracket opening level
   * `MAX_JSON_DEPTH`, the comma or bracket that counts one value or member too many) in `text` from `from` to
   * `end`, or -1.
   */
  scan(text: string, from: number, end: number): number {
    const { maxValues, maxMembers } = this.limits;
    const commas = this.commas;
    // Kept in locals while the loop runs, and written back when it ends: quicker than fields.
    let { depth, inString, escaped, justOpened, values } = this;
    let stop: JsonCount['stop'] = null;
    let index = from;
    for (; index < end; index++) {
      const code = text.charCodeAt(index);
      if (inString) {
        if (escaped) escaped = false;
        else if (code === 0x5c) escaped = true;
        else if (code === 0x22) inString = false;
        continue;
      }
      if (code === 0x5b || code === 0x7b) {
        if (++depth >= MAX_JSON_DEPTH) {
          stop = 'depth';
          break;
        }
        if (depth > 0) commas[depth] = 0;
        justOpened = true;
        continue;
      }
      if (code === 0x2c) {
        if (depth > 0) {
          if (++commas[depth]! >= maxMembers) stop = 'maxMembers';
          else if (++values > maxValues) stop = 'maxValues';
          if (stop !== null) break;
        }
      } else if (code === 0x5d || code === 0x7d) {
        if (!justOpened && depth > 0 && ++values > maxValues) {
          stop = 'maxValues';
          break;
        }
        depth--;
      } else if (code === 0x22) inString = true;
      else if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) continue;
      justOpened = false;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.justOpened = justOpened;
    this.values = values;
    this.stop = stop;
    return stop === null ? -1 : index + 1;
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
