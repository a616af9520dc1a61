import { isUnsafeKey } from './safe-object.js';
import type { ParamMap, ParamValue } from './types.js';

/** PHP's `max_input_vars`: variables past this many in one query string or form body are dropped. */
export const MAX_INPUT_VARS = 1000;
/** PHP's `max_input_nesting_level`: a name with more bracket groups than this is dropped, with its whole variable. */
export const MAX_INPUT_NESTING = 64;

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const CANONICAL_INT = /^(?:0|-?[1-9][0-9]{0,18})$/;

type Node = string | PhpArray;

/** A PHP array while it is being filled: ordered keys and the next free integer index. */
class PhpArray {
  readonly entries = new Map<string, Node>();
  #next: bigint | null = null;

  get(key: string): Node | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: Node): void {
    const index = integerKey(key);
    if (index !== null && (this.#next === null || index >= this.#next)) this.#next = index < INT64_MAX ? index + 1n : INT64_MAX;
    this.entries.set(index === null ? key : String(index), value);
  }

  /** `$array[] = $value`; false when the next index is taken (it stops at the largest integer). */
  append(value: Node): boolean {
    const index = this.#next ?? 0n;
    if (this.entries.has(String(index))) return false;
    this.set(String(index), value);
    return true;
  }
}

function integerKey(key: string): bigint | null {
  if (!CANONICAL_INT.test(key)) return null;
  const value = BigInt(key);
  return value > INT64_MAX || value < INT64_MIN || key === '-0' ? null : value;
}

/**
 * Collects input variables the way PHP registers `$_GET`/`$_POST` entries, within PHP's limits: at most
 * `MAX_INPUT_VARS` variables (the rest dropped) and `MAX_INPUT_NESTING` bracket levels (a deeper name drops its
 * whole variable). Names are walked once, so the cost is linear in the input. Keys that could reach a prototype
 * (`__proto__`, `constructor`, `prototype`) drop their variable.
 */
export class InputCollector {
  readonly #root = new PhpArray();
  #count = 0;

  constructor(readonly maxVars = MAX_INPUT_VARS, readonly maxNesting = MAX_INPUT_NESTING) {}

  /** Whether the variable limit has been reached: anything added now is dropped. */
  get full(): boolean {
    return this.#count >= this.maxVars;
  }

  /** Registers one variable; it counts toward the limit even when its name is unusable. */
  add(name: string, value: string): void {
    if (this.full) return;
    this.#count++;
    this.#register(name, value);
  }

  /** The collected parameters: prototype-less maps, and lists where the keys run 0, 1, 2, … in order. */
  result(): ParamMap {
    const params = Object.create(null) as ParamMap;
    for (const [key, node] of this.#root.entries) params[key] = toParam(node);
    return params;
  }

  #register(rawName: string, value: string): void {
    const name = trimmedName(rawName);
    const bracket = name.indexOf('[');
    let base = underscored(bracket === -1 ? name : name.slice(0, bracket), BASE_NAME_CHARS);
    if (base === '') return;
    const path: (string | null)[] = [];
    if (bracket !== -1) {
      let open = bracket;
      for (let level = 1; ; level++) {
        if (level > this.maxNesting) {
          this.#root.entries.delete(integerKey(base) === null ? base : String(integerKey(base)));
          return;
        }
        const close = name.indexOf(']', open + 1);
        if (close === -1) {
          // An unclosed first bracket makes the whole name a plain one; later, the rest is ignored.
          if (level === 1) base = `${base}_${underscored(name.slice(open + 1), UNCLOSED_NAME_CHARS)}`;
          break;
        }
        path.push(close === open + 1 ? null : name.slice(open + 1, close));
        if (name.charCodeAt(close + 1) !== 0x5b) break;
        open = close + 1;
      }
    }
    if (isUnsafeKey(base) || path.some((key) => key !== null && isUnsafeKey(key))) return;
    placeValue(this.#root, base, path, value);
  }
}

/** A variable's name as PHP reads it: up to a NUL character, without leading spaces. */
export function trimmedName(rawName: string): string {
  const nul = rawName.indexOf('\0');
  const name = nul === -1 ? rawName : rawName.slice(0, nul);
  let start = 0;
  while (name.charCodeAt(start) === 0x20) start++;
  return start === 0 ? name : name.slice(start);
}

/** What PHP makes an underscore in a variable's base name, and after an unclosed first bracket. */
export const BASE_NAME_CHARS = [' ', '.'];
export const UNCLOSED_NAME_CHARS = [' ', '.', '['];

/** `text` with each of `chars` made an underscore (split and join: a regular expression costs far more a match). */
export function underscored(text: string, chars: readonly string[]): string {
  let result = text;
  for (const char of chars) if (result.includes(char)) result = result.split(char).join('_');
  return result;
}

function placeValue(root: PhpArray, base: string, path: (string | null)[], value: string): void {
  let container = root;
  let key: string | null = base;
  for (const next of path) {
    let child: PhpArray;
    if (key === null) {
      child = new PhpArray();
      if (!container.append(child)) return;
    } else {
      const existing = container.get(key);
      if (existing instanceof PhpArray) child = existing;
      else {
        child = new PhpArray();
        container.set(key, child);
      }
    }
    container = child;
    key = next;
  }
  if (key === null) container.append(value);
  else container.set(key, value);
}

function toParam(node: Node): ParamValue {
  if (typeof node === 'string') return node;
  let position = 0;
  let isList = true;
  for (const key of node.entries.keys()) {
    if (key !== String(position++)) {
      isList = false;
      break;
    }
  }
  if (isList) return [...node.entries.values()].map(toParam);
  const map = Object.create(null) as Record<string, ParamValue>;
  for (const [key, child] of node.entries) map[key] = toParam(child);
  return map;
}

/**
 * Parses a query string (or a urlencoded body) the way PHP fills `$_GET`: the last of repeated keys wins,
 * `a[]=1&a[]=2` gives a list, `a[x][y]=3` gives nested maps, `+` is a space, and dots or spaces in the base
 * name become underscores. Every leaf is a string. Parsing stops once the variable limit is reached.
 */
export function parseQueryString(text: string, collector = new InputCollector()): ParamMap {
  for (const pairs = new PairReader(text); !collector.full && pairs.next();) {
    if (!pairs.empty) collector.add(decodeComponent(pairs.name), decodeComponent(pairs.value));
  }
  return collector.result();
}

/**
 * Reads the `&`-separated pairs of a query string in order, name and value not yet decoded (a pair without `=` has
 * an empty value). An empty pair (`a&&b`, a trailing `&`) is read too, as `empty`, so that a reader taking turns
 * counts it: a body of nothing but `&` is all empty pairs. One reader serves every pair, without an object each.
 */
export class PairReader {
  name = '';
  value = '';
  empty = false;
  #position = 0;

  constructor(readonly text: string) {}

  /** Moves to the next pair; false past the last. */
  next(): boolean {
    const { text } = this;
    const position = this.#position;
    if (!text || position > text.length) return false;
    const end = text.indexOf('&', position);
    const stop = end === -1 ? text.length : end;
    this.empty = stop === position;
    if (!this.empty) {
      const pair = text.slice(position, stop);
      const separator = pair.indexOf('=');
      this.name = separator === -1 ? pair : pair.slice(0, separator);
      this.value = separator === -1 ? '' : pair.slice(separator + 1);
    }
    this.#position = stop + 1;
    return true;
  }
}

export function decodeComponent(text: string): string {
  const spaced = text.includes('+') ? text.split('+').join(' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return bytewiseDecoded(spaced);
  }
}

/** A component whose escapes are not UTF-8 as PHP reads it: each `%XX` one character of that code. */
export function bytewiseDecoded(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Encodes parameters back into a query string (used for pagination links), PHP `http_build_query` style. */
export function buildQueryString(params: Record<string, unknown>): string {
  let text = '';
  for (const key of Object.keys(params)) text = withPairs(text, key, params[key]);
  return text;
}

/** `text` followed by the pairs of one value: a scalar's own, or its members' under `prefix[key]`. */
function withPairs(text: string, prefix: string, value: unknown): string {
  if (value === null || value === undefined) return text;
  if (typeof value === 'object') {
    if (Array.isArray(value)) value.forEach((item, index) => (text = withPairs(text, `${prefix}[${index}]`, item)));
    else for (const key of Object.keys(value)) text = withPairs(text, `${prefix}[${key}]`, (value as Record<string, unknown>)[key]);
    return text;
  }
  const pair = `${encodeQueryComponent(prefix)}=${encodeQueryComponent(typeof value === 'boolean' ? (value ? '1' : '0') : String(value))}`;
  return text === '' ? pair : `${text}&${pair}`;
}

/** Text that `encodeQueryComponent` leaves as it is (most names and values in paging links). */
const UNENCODED = /^[\w.-]*$/;

/** A name or value of a query string as `buildQueryString` spells it (PHP's `urlencode`). */
export function encodeQueryComponent(text: string): string {
  if (UNENCODED.test(text)) return text;
  return encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
