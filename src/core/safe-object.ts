/** Keys that could reach an object's prototype when copied or walked; client input never keeps them. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function isUnsafeKey(key: string): boolean {
  return UNSAFE_KEYS.has(key);
}

/** The deepest structure accepted from a host-parsed body or query (JSON's own limit). */
export const MAX_TREE_DEPTH = 512;

/**
 * Makes a decoded JSON value (or a body or query a host's framework parsed) safe to hand around: every map
 * becomes a prototype-less object, keys that could reach a prototype are dropped, and anything that is not
 * plain data (functions, class instances, cycles) is left out. Deeper than `maxDepth` is cut off.
 * Iterative, so its cost is linear and its stack use flat.
 */
export function toSafeTree(value: unknown, maxDepth = MAX_TREE_DEPTH): unknown {
  if (value === null || typeof value !== 'object') return plainLeaf(value);
  const copy = new SafeCopy(value, maxDepth);
  copy.step(Infinity);
  return copy.root;
}

/** The most values (arrays, objects and scalars) a tree may hold, and the most members of one array or object. */
export interface TreeLimits { maxValues: number; maxMembers: number }

/** A copy within limits, or the first limit it went past. */
export type LimitedTree = { value: unknown; over: null } | { over: keyof TreeLimits };

export const NO_TREE_LIMITS: TreeLimits = { maxValues: Infinity, maxMembers: Infinity };

/** The members copied between two turns of `toSafeTreeInTurns`. */
const MEMBERS_PER_STEP = 4096;

/**
 * `toSafeTree` of a value that may be large (a body a host's framework parsed), copied a few thousand members at a
 * time with `turn()` between: 8 MiB of small objects took one to three seconds in one call. A tree past `limits`
 * is not copied further: the answer is the limit it went past.
 */
export async function toSafeTreeInTurns(
  value: unknown, turn: () => Promise<void>, limits = NO_TREE_LIMITS, maxDepth = MAX_TREE_DEPTH,
): Promise<LimitedTree> {
  if (value === null || typeof value !== 'object') return { value: plainLeaf(value), over: null };
  const copy = new SafeCopy(value, maxDepth, limits);
  while (copy.step(MEMBERS_PER_STEP)) await turn();
  return copy.over === null ? { value: copy.root, over: null } : { over: copy.over };
}

/** A copy under way: the objects still to copy, last found first, and the one being copied. */
class SafeCopy {
  readonly root: Record<string, unknown> | unknown[] | undefined;
  /** The limit the source went past, when it did: the copy stops there. */
  over: keyof TreeLimits | null = null;
  private readonly seen: Set<object>;
  private readonly stack: [object, Record<string, unknown> | unknown[], number][];
  private current: { keys: Iterator<string | number>; source: object; target: Record<string, unknown> | unknown[]; depth: number } | null = null;
  /** The values met so far, the root included. */
  private values = 1;

  constructor(value: object, private readonly maxDepth: number, private readonly limits = NO_TREE_LIMITS) {
    this.root = emptyLike(value);
    this.seen = new Set<object>([value]);
    this.stack = this.root === undefined ? [] : [[value, this.root, 1]];
  }

  /** Copies up to `members` members; whether any are left. */
  step(members: number): boolean {
    for (let done = 0; done < members; done++) {
      if (!this.current) {
        const next = this.stack.pop();
        if (!next) return false;
        const [source, target, depth] = next;
        const keys = Array.isArray(source) ? null : Object.keys(source);
        const count = keys === null ? (source as unknown[]).length : keys.length;
        if (count > this.limits.maxMembers) this.over = 'maxMembers';
        else if ((this.values += count) > this.limits.maxValues) this.over = 'maxValues';
        if (this.over !== null) return false;
        this.current = { keys: keys === null ? (source as unknown[]).keys() : keys.values(), source, target, depth };
      }
      const { keys, source, target, depth } = this.current;
      const next = keys.next();
      if (next.done) {
        this.current = null;
        continue;
      }
      const key = next.value;
      if (typeof key === 'string' && isUnsafeKey(key)) continue;
      const child = (source as Record<string | number, unknown>)[key];
      let copy: unknown;
      if (child === null || typeof child !== 'object') copy = plainLeaf(child);
      else if (this.seen.has(child) || depth >= this.maxDepth) copy = undefined;
      else {
        copy = emptyLike(child);
        if (copy !== undefined) {
          this.seen.add(child);
          this.stack.push([child, copy as Record<string, unknown> | unknown[], depth + 1]);
        }
      }
      if (Array.isArray(target)) target.push(copy === undefined ? null : copy);
      else if (copy !== undefined) target[key as string] = copy;
    }
    return this.current !== null || this.stack.length > 0;
  }
}

function plainLeaf(value: unknown): unknown {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? value : undefined;
}

function emptyLike(value: object): Record<string, unknown> | unknown[] | undefined {
  if (Array.isArray(value)) return [];
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  return emptySafeMap();
}

/**
 * An empty map without a prototype. `Object.create(null)` makes one V8 keeps as a hash table from the start: 192
 * bytes empty, three times an ordinary object, and slower to read. An ordinary object whose prototype is then
 * taken away keeps V8's compact layout (until it holds many keys), so a body's maps hold a third of the memory
 * and its collections take a third of the time.
 */
export function emptySafeMap(): Record<string, unknown> {
  return Object.setPrototypeOf({}, null) as Record<string, unknown>;
}

/**
 * A shallow copy with the same own enumerable properties, `__proto__` included as a plain key (as `{ ...source }`
 * gives). Hot paths use it where more properties follow: a spread followed by more properties is slow in V8.
 */
export function shallowCopy(source: object): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = (source as Record<string, unknown>)[key];
    if (key === '__proto__') Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    else copy[key] = value;
  }
  return copy;
}
