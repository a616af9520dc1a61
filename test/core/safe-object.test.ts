import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toSafeTree, toSafeTreeInTurns } from '../../src/core/safe-object.js';

function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * below);
  };
}

class Instance {
  field = 1;
}

/** A random tree of what a host's framework may hand over: shared and cyclic members, instances, unsafe keys. */
function randomTree(next: (below: number) => number): unknown {
  const made: object[] = [];
  const value = (depth: number): unknown => {
    const kind = next(depth > 6 ? 6 : 10);
    if (kind === 0) return next(100);
    if (kind === 1) return `s${next(100)}`;
    if (kind === 2) return next(2) === 0;
    if (kind === 3) return null;
    if (kind === 4) return next(2) === 0 ? undefined : () => 1;
    if (kind === 5 && made.length > 0) return made[next(made.length)];
    if (kind === 6) return new Instance();
    const isArray = kind === 7;
    const container: Record<string, unknown> | unknown[] = isArray ? [] : next(3) === 0 ? Object.create(null) : {};
    made.push(container);
    for (let count = next(6); count > 0; count -= 1) {
      if (Array.isArray(container)) container.push(value(depth + 1));
      else container[['a', 'b', '__proto__', 'constructor', 'prototype', `k${next(9)}`][next(6)]!] = value(depth + 1);
    }
    return container;
  };
  return value(0);
}

describe('safe trees', () => {
  it('are the same copied in turns as at once, on random trees', async () => {
    const next = random(37);
    let turns = 0;
    for (let round = 0; round < 600; round += 1) {
      // Some trees of thousands of members, so that the copy is cut into steps anywhere.
      const tree = round % 3 === 0 ? Array.from({ length: 500 + next(3000) }, () => randomTree(next)) : randomTree(next);
      const maxDepth = 1 + next(8);
      const inTurns = await toSafeTreeInTurns(tree, async () => {
        turns += 1;
      }, undefined, maxDepth);
      assert.deepStrictEqual(inTurns, { value: toSafeTree(tree, maxDepth), over: null }, `round ${round}`);
    }
    assert.ok(turns > 100, `${turns} turns`);
  });

  it('copy 8 MiB of small objects a host parsed a few thousand members at a time', async () => {
    const parsed = JSON.parse(`{"content":[${'{"a":1},'.repeat(1024 * 1024 - 8)}1]}`) as unknown;
    let turns = 0;
    const { value: copied } = await toSafeTreeInTurns(parsed, async () => {
      turns += 1;
    }) as { value: unknown };
    assert.equal((copied as { content: unknown[] }).content.length, 1024 * 1024 - 7);
    assert.equal(Object.getPrototypeOf((copied as { content: object[] }).content[0]), null);
    // Two members an object (its place in the list, its `a`), at most 4,096 between turns.
    assert.ok(turns >= (2 * 1024 * 1024) / 4096, `${turns} turns`);
  });
});
