/** Small helpers every store uses on JSON records. */

/** Assigns without triggering the `__proto__` setter, so a JSON key of that name stays an ordinary member. */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A value named for an error message. */
export function describeValue(value: unknown): string {
  if (typeof value === 'object' && value !== null) return value.constructor?.name ?? 'object';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return 'a function';
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Deep-copies a value already known to be JSON. */
export function copyJsonOut<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) items[index] = copyJsonOut(value[index]);
    return items as T;
  }
  // Every listed record is copied out: a spread clones its members in one step (own data properties, so a
  // `__proto__` key stays an ordinary member), then only the nested objects are copied in turn.
  const copy = { ...value } as Record<string, unknown>;
  for (const key in copy) {
    const member = copy[key];
    if (member !== null && typeof member === 'object') copy[key] = copyJsonOut(member);
  }
  return copy as T;
}

/**
 * A private copy of a checked JSON value as `JSON.parse(JSON.stringify(value))` gives it, without that round
 * trip: objects and arrays are copied, members left `undefined` are dropped and -0 becomes 0, while strings are
 * shared (they cannot change). For a record of long texts the round trip was two passes over all of them.
 */
export function copyAsJson(value: unknown): unknown {
  if (typeof value === 'number') return value === 0 ? 0 : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) items[index] = copyAsJson(value[index]);
    return items;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== undefined) setMember(copy, key, copyAsJson(member));
  }
  return copy;
}

/** Freezes a JSON value and everything in it, in place; answers it. */
export function freezeJson<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  const members = value as Record<string, unknown>;
  for (const key in members) freezeJson(members[key]);
  return Object.freeze(value);
}
