import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NAMESPACE_DECLARATIONS } from '../../src/core/names.js';
import { RESOURCES } from '../../src/resources.js';
import { ROOT, resourceFolders, sourceFiles } from './graph.js';

/** Resources are declared once (`defineResource`), and what the core decides for every resource stays in the core. */
const FILES = sourceFiles();
const TEXT = new Map([...FILES.keys()].map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));

/** The source without its comments, so that names explained in documentation comments do not count as written. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\'"`])\/\/.*$/gm, '$1');
}

/** The files outside `except` whose code writes `name` as a whole string literal. */
function writing(name: string, except: string): string[] {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const literal = new RegExp(`(['"\`])${escaped}\\1`);
  return [...TEXT].filter(([path, text]) => path !== except && literal.test(code(text))).map(([path]) => path);
}

describe('resources, declared once', () => {
  it('lists every declared resource in the one list createCms assembles, once', () => {
    const declared = [...TEXT].flatMap(([, text]) => [...code(text).matchAll(/export const (\w+) = defineResource\(/g)].map((found) => found[1]!));
    const listed = code(TEXT.get('src/resources.ts')!).match(/RESOURCES = \[([^\]]*)\]/)![1]!.split(',').map((name) => name.trim()).filter(Boolean);
    assert.deepEqual([...listed].sort(), [...declared].sort());
    assert.equal(RESOURCES.length, new Set(RESOURCES).size);
    assert.equal(new Set(listed).size, listed.length);
  });

  it('writes no name twice: each namespace, and its WordPress name, is written once, in its declaration', () => {
    const names = NAMESPACE_DECLARATIONS.flatMap((namespace) => [namespace.name, namespace.wordpressName]);
    assert.ok(names.includes('cms/v2') && names.includes('contact-form-7/v1'));
    for (const name of new Set(names)) assert.deepEqual(writing(name, 'src/core/names.ts'), [], `'${name}' is written outside src/core/names.ts`);
    const declarations = code(TEXT.get('src/core/names.ts')!).match(/\bnamespace\('[^']*'(?:, '[^']*')?\)/g) ?? [];
    assert.equal(declarations.length, NAMESPACE_DECLARATIONS.length, 'one declaration per namespace');
  });

  it('finds a name written twice when there is one', () => {
    TEXT.set('src/forms/stray.ts', "registry.addRoutes('forms/v1', table); // 'cms/v2'");
    try {
      assert.deepEqual(writing('forms/v1', 'src/core/names.ts'), ['src/forms/stray.ts']);
      assert.deepEqual(writing('cms/v2', 'src/core/names.ts'), [], 'a comment is not a declaration');
    } finally {
      TEXT.delete('src/forms/stray.ts');
    }
  });

  it('every resource folder declares its resource in its index module', () => {
    const declaring = [...TEXT].filter(([, text]) => /\bdefineResource\(/.test(code(text))).map(([path]) => path).filter((path) => !path.startsWith('src/core/'));
    assert.deepEqual(declaring.filter((path) => !path.endsWith('/index.ts')), []);
    assert.deepEqual([...new Set(declaring.map((path) => path.split('/').slice(0, 2).join('/')))].sort(), resourceFolders());
  });
});

describe('the response cache, one policy', () => {
  it('no resource builds a cache key: nothing outside the core imports the cache or its key makers', () => {
    const importing = [...FILES.values()].filter((file) => !file.path.startsWith('src/core/') && file.path !== 'src/cms.ts' && file.path !== 'src/index.ts')
      .flatMap((file) => file.imports.filter(({ to }) => to.startsWith('src/core/cache/')).map(({ to }) => `${file.path} -> ${to}`));
    assert.deepEqual(importing, [], 'only the core, the assembly and the package entry know the cache');
    const keyMakers = [...TEXT].filter(([path, text]) => !path.startsWith('src/core/cache/') && /\b(identityOf|answerKey|fragmentKey|listKey)\s*\(/.test(code(text)))
      .map(([path]) => path);
    assert.deepEqual(keyMakers, ['src/core/dispatch.ts', 'src/core/render.ts'], 'keys are made by the policy, which the flow and rendering ask');
  });

  it('keyed records name their identity, not a key', () => {
    const keyed = [...TEXT].filter(([path, text]) => !path.startsWith('src/core/') && /\bkeyed(Item|Collection)\(/.test(text)).map(([path]) => path);
    assert.ok(keyed.length > 0);
    for (const path of keyed) assert.doesNotMatch(code(TEXT.get(path)!), /\bkey:\s*`/, path);
  });

  it('decides when to forget in one place: no resource keeps its own memory of the change token', () => {
    const readers = [...TEXT].filter(([path, text]) => resourceFolders().some((folder) => path.startsWith(`${folder}/`)) && /\bchangeToken\b/.test(code(text)))
      .map(([path]) => path);
    // The stored settings are read again when the token the dispatcher hands them differs, and so is the user of a
    // remembered credential (its principal is reused only under the token it was read in); the webhooks' outbox
    // wraps the store and hands its token through unchanged.
    assert.deepEqual(readers, ['src/settings/store.ts', 'src/users/authenticate.ts', 'src/webhooks/outbox.ts']);
  });
});
