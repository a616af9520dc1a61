import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The house rules on imports and shape, read from the sources: imports point down only, no file-level cycle, no
 * interface extended across files, resources declare literal route tables, no file over 400 lines.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_LINES = 400;

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    const path = join(folder, name);
    if (statSync(join(ROOT, path)).isDirectory()) found.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) found.push(path);
  }
  return found;
}

const FILES = [...sourceFiles('src'), ...sourceFiles('adapters')].map((file) => file.split('\\').join('/'));
const TEXT = new Map(FILES.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
const IMPORT = /^(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm;

/** Each file's relative imports (type-only ones included), as repository paths. */
const IMPORTS = new Map(FILES.map((file) => {
  const targets = [...TEXT.get(file)!.matchAll(IMPORT)].map((match) =>
    normalize(join(dirname(file), match[1]!)).split('\\').join('/').replace(/\.js$/, '.ts'));
  return [file, targets.filter((target) => TEXT.has(target))];
}));

function importsWhere(from: (file: string) => boolean, to: (target: string) => boolean): string[] {
  return FILES.filter(from).flatMap((file) => IMPORTS.get(file)!.filter(to).map((target) => `${file} -> ${target}`));
}

const under = (...folders: string[]) => (file: string) => folders.some((folder) => file.startsWith(`${folder}/`));

/** The resources: folders that register routes (and the post-type kit and taxonomy data they build on). */
const RESOURCES = [
  'src/content', 'src/media', 'src/users', 'src/comments', 'src/embed', 'src/forms', 'src/sliders', 'src/mailing', 'src/batch',
  'src/discovery', 'src/settings', 'src/search',
];

describe('architecture', () => {
  it('has no file-level import cycle', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      state.set(file, 'open');
      for (const target of IMPORTS.get(file)!) {
        if (state.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target].join(' -> '));
        else if (!state.has(target)) visit(target, [...path, target]);
      }
      state.set(file, 'done');
    };
    for (const file of FILES) if (!state.has(file)) visit(file, [file]);
    assert.deepEqual(cycles, []);
  });

  it('keeps the core free of resources, and stores free of everything but ports and shared helpers', () => {
    assert.deepEqual(importsWhere(under('src/core'), (target) => !under('src/core', 'src/ports', 'src/format')(target)), []);
    assert.deepEqual(importsWhere(under('src/storage'), (target) => !under('src/storage', 'src/ports', 'src/format')(target)), []);
    assert.deepEqual(importsWhere(under('src/ports'), (target) => !under('src/ports')(target)), []);
  });

  it('lets no resource import a concrete store, and keeps content and users apart', () => {
    assert.deepEqual(importsWhere(under(...RESOURCES), under('src/storage')), []);
    assert.deepEqual(importsWhere(under('src/content'), under('src/users')), []);
    assert.deepEqual(importsWhere(under('src/users'), under('src/content')), []);
  });

  it('reaches the post-type kit, the taxonomy data and media only through their index modules', () => {
    for (const module of ['src/content/post-type', 'src/content/taxonomy', 'src/media']) {
      const deep = importsWhere((file) => !file.startsWith(`${module}/`), (target) => target.startsWith(`${module}/`) && target !== `${module}/index.ts`);
      assert.deepEqual(deep.filter((line) => !line.startsWith('src/cli/')), [], module);
    }
  });

  it('extends no interface across files (no module augmentation)', () => {
    assert.deepEqual(FILES.filter((file) => /^\s*declare module\b/m.test(TEXT.get(file)!)), []);
  });

  it('declares routes in literal tables a reader can grep', () => {
    const registering = FILES.filter((file) => !file.startsWith('src/core/') && /\bregistry\.add\(/.test(TEXT.get(file)!));
    assert.deepEqual(registering, [], 'resources register with addRoutes and a route table');
    assert.deepEqual(FILES.filter((file) => /\bpath:\s*`/.test(TEXT.get(file)!)), [], 'route paths are string literals');
    const sources = [...TEXT.values()].join('\n');
    for (const path of [
      "'/posts'", "'/pages'", "'/media'", "'/categories'", "'/tags'", "'/users'", "'/batch/v1'",
      "'/posts/(?P<id>[\\\\d]+)'", "'/posts/(?P<parent>[\\\\d]+)/revisions'", "'/pages/(?P<id>[\\\\d]+)/autosaves'",
      "'/media/(?P<id>[\\\\d]+)/edit'",
    ]) {
      assert.ok(sources.includes(`path: ${path}`), `${path} is declared literally`);
    }
  });

  it('keeps every source file under 400 lines', () => {
    const long = FILES.filter((file) => TEXT.get(file)!.split('\n').length - 1 > MAX_LINES).map((file) => relative(ROOT, join(ROOT, file)));
    assert.deepEqual(long, []);
  });
});
