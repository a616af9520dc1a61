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
  const root = emptyLike(value);
  if (root === undefined) return undefined;
  const seen = new Set<object>([value]);
  const stack: [object, Record<string, unknown> | unknown[], number][] = [[value, root, 1]];
  while (stack.length > 0) {
    const [source, target, depth] = stack.pop()!;
    const keys = Array.isArray(source) ? source.keys() : Object.keys(source).values();
    for (const key of keys) {
      if (typeof key === 'string' && isUnsafeKey(key)) continue;
      const child = (source as Record<string | number, unknown>)[key];
      let copy: unknown;
      if (child === null || typeof child !== 'object') copy = plainLeaf(child);
      else if (seen.has(child) || depth >= maxDepth) copy = undefined;
      else {
        copy = emptyLike(child);
        if (copy !== undefined) {
          seen.add(child);
          stack.push([child, copy as Record<string, unknown> | unknown[], depth + 1]);
        }
      }
      if (Array.isArray(target)) target.push(copy === undefined ? null : copy);
      else if (copy !== undefined) target[key as string] = copy;
    }
  }
  return root;
}

function plainLeaf(value: unknown): unknown {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? value : undefined;
}

function emptyLike(value: object): Record<string, unknown> | unknown[] | undefined {
  if (Array.isArray(value)) return [];
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  return Object.create(null) as Record<string, unknown>;
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
