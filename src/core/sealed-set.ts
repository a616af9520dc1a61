/**
 * A `Set` that refuses changes once built: what principals' capability sets are, so that a set can be shared by
 * every principal of the same roles and things derived from it (the response cache's caller key) computed once.
 */
const sealed = new WeakSet<object>();

export class SealedSet<T> extends Set<T> {
  constructor(values: Iterable<T> = []) {
    super();
    for (const value of values) super.add(value);
    sealed.add(this);
  }

  override add(value: T): this {
    if (sealed.has(this)) throw new TypeError('A sealed set cannot be changed.');
    return super.add(value);
  }

  override delete(value: T): boolean {
    if (sealed.has(this)) throw new TypeError('A sealed set cannot be changed.');
    return super.delete(value);
  }

  override clear(): void {
    if (sealed.has(this)) throw new TypeError('A sealed set cannot be changed.');
    super.clear();
  }
}

/** Whether a set can never change (a subclass overriding the guards would not be one). */
export function isSealedSet(value: unknown): value is ReadonlySet<unknown> {
  return value instanceof Set && sealed.has(value)
    && Object.getPrototypeOf(value) === SealedSet.prototype;
}
