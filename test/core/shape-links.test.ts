/** `compactLinks` gives what the plain spelling of its rule gives, on links of every shape. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Links, LinkTarget } from '../../src/core/context.js';
import { compactLinks } from '../../src/core/shape.js';

const API = 'https://api.w.org/';

/** The rule spelt plainly: each rel's targets copied, attributes in their order then `href`, `curies` last. */
function expected(links: Links | undefined): Record<string, Record<string, unknown>[]> | null {
  if (!links) return null;
  const output: Record<string, Record<string, unknown>[]> = {};
  let shortened = false;
  for (const [rel, targets] of Object.entries(links)) {
    if (targets.length === 0) continue;
    const name = rel.startsWith(API) ? `wp:${rel.slice(API.length)}` : rel;
    if (name !== rel) shortened = true;
    output[name] = [...(output[name] ?? []), ...targets.map((target) => {
      const { href, ...attributes } = target;
      const ordered: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(attributes)) if (value !== undefined) ordered[key] = value;
      ordered.href = href;
      return ordered;
    })];
  }
  if (shortened) output.curies = [{ name: 'wp', href: `${API}{rel}`, templated: true }];
  return Object.keys(output).length > 0 ? output : null;
}

test('compacted links keep every rel, target and attribute in the order of the plain rule', () => {
  let seed = 7;
  const random = (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % below;
  };
  const rels = ['self', 'collection', `${API}term`, 'wp:term', `${API}featuredmedia`, 'author', 'version-history', `${API}action-publish`, 'curies'];
  for (let round = 0; round < 500; round++) {
    const links: Links = {};
    for (const rel of rels) {
      if (random(3) === 0) continue;
      const targets: LinkTarget[] = [];
      for (let count = random(4); count > 0; count--) {
        const target: Record<string, unknown> = {};
        // `href` anywhere among the attributes, some attributes undefined.
        const keys = ['embeddable', 'href', 'taxonomy', 'count', 'id', 'templated'].filter(() => random(2) === 0);
        if (!keys.includes('href')) keys.splice(random(keys.length + 1), 0, 'href');
        for (const key of keys) target[key] = key === 'href' ? `https://example.test/${round}/${count}` : random(4) === 0 ? undefined : random(10);
        targets.push(target as unknown as LinkTarget);
      }
      links[rel] = targets;
    }
    const compacted = compactLinks(links);
    assert.deepEqual(compacted, expected(links));
    // Same key order too (JSON text), which `deepEqual` does not check.
    assert.equal(JSON.stringify(compacted), JSON.stringify(expected(links)));
  }
  assert.equal(compactLinks(undefined), null);
  assert.equal(compactLinks({ self: [] }), null);
});
