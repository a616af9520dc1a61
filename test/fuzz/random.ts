/**
 * A small seeded generator (sfc32, seeded through splitmix32), so that a run and every case in it replay exactly
 * from their numbers. Math.random is never used by the fuzzer.
 */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    let state = seed >>> 0;
    const next = () => {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = next();
    this.#b = next();
    this.#c = next();
    this.#d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.uint32() / 0x100000000;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.below(items.length)]!;
  }

  /** One of the choices, each with its weight: `weighted([[3, 'a'], [1, 'b']])`. */
  weighted<T>(choices: readonly (readonly [number, T])[]): T {
    const total = choices.reduce((sum, [weight]) => sum + weight, 0);
    let roll = this.float() * total;
    for (const [weight, value] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return choices[choices.length - 1]![1];
  }

  /** Up to `max` distinct items of the list, in random order. */
  some<T>(items: readonly T[], max: number): T[] {
    const pool = [...items];
    const count = Math.min(pool.length, this.between(0, max));
    const chosen: T[] = [];
    for (let i = 0; i < count; i++) chosen.push(pool.splice(this.below(pool.length), 1)[0]!);
    return chosen;
  }
}

/** The seed of case `index` of a run: each case replays on its own from (run seed, index). */
export function caseSeed(runSeed: number, index: number): number {
  let z = (Math.imul(runSeed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x2c1b3c6d);
  z = Math.imul(z ^ (z >>> 12), 0x297a2d39);
  return (z ^ (z >>> 15)) >>> 0;
}
