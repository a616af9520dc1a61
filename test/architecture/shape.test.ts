import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, sourceFiles } from './graph.js';

/** The resource shape, read from the sources: modules used through their index, literal route tables. */
const FILES = sourceFiles();
const TEXT = new Map([...FILES.keys()].map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));

describe('resource shape', () => {
  it('reaches the post-type kit, the taxonomy data and media only through their index modules', () => {
    for (const module of ['src/content/post-type', 'src/content/taxonomy', 'src/media']) {
      const deep = [...FILES.values()]
        .filter((file) => !file.path.startsWith(`${module}/`) && !file.path.startsWith('src/cli/'))
        .flatMap((file) => file.imports.filter(({ to }) => to.startsWith(`${module}/`) && to !== `${module}/index.ts`).map(({ to }) => `${file.path} -> ${to}`));
      assert.deepEqual(deep, [], module);
    }
  });

  it('extends no interface across files (no module augmentation)', () => {
    assert.deepEqual([...TEXT].filter(([, text]) => /^\s*declare module\b/m.test(text)).map(([path]) => path), []);
  });

  it('declares routes in literal tables a reader can grep', () => {
    const registering = [...TEXT].filter(([path, text]) => !path.startsWith('src/core/') && /\bregistry\.add\(/.test(text)).map(([path]) => path);
    assert.deepEqual(registering, [], 'resources register with addRoutes and a route table');
    assert.deepEqual([...TEXT].filter(([, text]) => /^\s*path:\s*`/m.test(text)).map(([path]) => path), [], 'route paths are string literals');
    const sources = [...TEXT.values()].join('\n');
    for (const path of [
      "'/posts'", "'/pages'", "'/media'", "'/categories'", "'/tags'", "'/users'", "'/batch/v1'",
      "'/posts/(?P<id>[\\\\d]+)'", "'/posts/(?P<parent>[\\\\d]+)/revisions'", "'/pages/(?P<id>[\\\\d]+)/autosaves'",
      "'/media/(?P<id>[\\\\d]+)/edit'",
    ]) {
      assert.ok(sources.includes(`path: ${path}`), `${path} is declared literally`);
    }
  });

  it('publishes due scheduled posts in one place, which no handler calls', () => {
    const scheduler = 'src/content/post-type/scheduler.ts';
    const callers = [...TEXT].filter(([path, text]) => path !== scheduler && /\bpublishDue(Once|Posts)\s*\(/.test(text)).map(([path]) => path);
    assert.deepEqual(callers, [], 'handlers leave publishing to the route tables (publishingDuePosts)');
    const wrapping = [...TEXT].filter(([, text]) => /\bpublishingDuePosts\(/.test(text)).map(([path]) => path).sort();
    assert.deepEqual(wrapping, ['src/content/index.ts', scheduler, 'src/media/index.ts', 'src/sliders/routes.ts'],
      'posts and pages, their revisions and autosaves, media and the slider stream pass their route tables through it');
  });

  it("writes PHP's empty() once, in src/format/php.ts", () => {
    // Left to go: the users routes' copy, in code being restructured elsewhere.
    const known = ['src/users/routes/load.ts'];
    const copies = [...TEXT].filter(([path, text]) => path !== 'src/format/php.ts'
      && /\b(function|const)\s+isEmpty(Value|Param)?\s*[(=]/.test(text)).map(([path]) => path);
    assert.deepEqual(copies.filter((path) => !known.includes(path)), [], 'import isEmpty from src/format/php.ts');
  });
});

