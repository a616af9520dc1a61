import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './graph.js';

/**
 * Narrow faces: the package entry and the post-type kit export what a host or another resource needs, and no
 * more. The ceilings only come down; raise one only with a name a host or a resource imports.
 */
const CEILINGS: Record<string, number> = {
  'src/index.ts': 175,
  'src/content/post-type/index.ts': 79,
};

/** The names a module exports through `export { … } from` lists (the form both faces are written in). */
function exportedNames(text: string): string[] {
  const names: string[] = [];
  for (const [, list] of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const entry of list!.split(',')) {
      const name = entry.trim().replace(/^type\s+/, '').split(/\s+as\s+/).at(-1)!.trim();
      if (name !== '') names.push(name);
    }
  }
  return names;
}

describe('narrow faces', () => {
  for (const [path, ceiling] of Object.entries(CEILINGS)) {
    it(`${path} exports at most ${ceiling} names, each once`, () => {
      const text = readFileSync(join(ROOT, path), 'utf8');
      assert.doesNotMatch(text, /^export\s+\*/m, 'name what is exported');
      const names = exportedNames(text);
      assert.equal(new Set(names).size, names.length, 'no name exported twice');
      assert.ok(names.length <= ceiling, `${names.length} names: export only what a host or a resource imports`);
    });
  }

  it('leaves the adapters\' mounting helpers to quire/mount', () => {
    const text = readFileSync(join(ROOT, 'src/index.ts'), 'utf8');
    assert.doesNotMatch(text, /from '\.\/core\/mount\.js'/);
    for (const name of ['mountTarget', 'outsideApi', 'readEventedBody', 'readStreamBody', 'splitTarget', 'compileTrustProxy']) {
      assert.ok(!exportedNames(text).includes(name), name);
    }
  });

  it('counts names as the faces write them', () => {
    assert.deepEqual(exportedNames("export { a, type B, c as d } from './x.js';\nexport type {\n  E,\n  F,\n} from './y.js';"), ['a', 'B', 'd', 'E', 'F']);
  });
});
