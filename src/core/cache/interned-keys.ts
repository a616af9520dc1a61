/**
 * Keys spelt once: the same parts again give the very same string, whose hash a `Map` computed the first time, so
 * looking a fragment up costs neither building its key nor hashing it anew. Parts are walked through nested maps
 * (numbers and short strings hash cheaply, and strings already hashed cost nothing). The texts are what spelling
 * would give, so dropping them (past `maxNodes`, all at once) changes nothing but speed.
 */
export class InternedKeys {
  #root = new KeyNode();
  #nodes = 0;

  constructor(readonly maxNodes: number) {}

  /** Where every walk starts. */
  get root(): KeyNode {
    return this.#root;
  }

  /** The node after `node` for `part`; made when missing. */
  child(node: KeyNode, part: InternablePart): KeyNode {
    const children = node.children ??= new Map();
    let next = children.get(part);
    if (next === undefined) {
      if (++this.#nodes > this.maxNodes) {
        this.#root = new KeyNode();
        this.#nodes = 1;
      }
      next = new KeyNode();
      children.set(part, next);
    }
    return next;
  }
}

/** One path of parts; `text` is its key, once spelt. */
export class KeyNode {
  children: Map<InternablePart, KeyNode> | undefined = undefined;
  text: string | undefined = undefined;
}

export type InternablePart = string | number | boolean | bigint | null | undefined;

/** Whether a part always spells the same (an object's text may change while it stays the same map key). */
export function isInternable(part: unknown): part is InternablePart {
  return part === null || (typeof part !== 'object' && typeof part !== 'function' && typeof part !== 'symbol');
}
