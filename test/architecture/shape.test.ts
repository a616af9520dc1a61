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
    const copies = [...TEXT].filter(([path, text]) => path !== 'src/format/php.ts'
      && /\b(function|const)\s+isEmpty(Value|Param)?\s*[(=]/.test(text)).map(([path]) => path);
    assert.deepEqual(copies, [], 'import isEmpty from src/format/php.ts');
  });
});


describe('one rule, written once', () => {
  const READABILITY = 'src/content/post-type/readability.ts';

  /**
   * The marks of deciding whether a post may be read: asking the capability rules for `read_post`, or looking up
   * a status's visibility (`postStatuses[...]`, `.public`). The capability map itself (src/auth) defines them.
   */
  function readabilitySites(path: string, text: string): string[] {
    if (path.startsWith('src/auth/')) return [];
    const marks = [
      /\buserCan\([^;)]*'read_post'/g,
      /\bpostStatuses(\[|\.\w+\s*[!=]==)/g,
      /\bcanRead(Subject)?\s*[(:]/g,
    ];
    return marks.flatMap((mark) => [...text.matchAll(mark)].map((match) => `${path}: ${match[0]}`));
  }

  it('decides whether a post may be read only in the readability module', () => {
    const sites = [...TEXT].flatMap(([path, text]) => (path === READABILITY ? [] : readabilitySites(path, text)));
    assert.deepEqual(sites, [], `call canReadPost, readsPost or isPublicStatus from ${READABILITY}`);
    assert.ok(readabilitySites('src/x.ts', "userCan(user, 'read_post', subject, rules)").length === 1, 'the check sees a read_post question');
    assert.ok(readabilitySites('src/x.ts', "rules.postStatuses[status] === 'public'").length === 1, 'the check sees a status lookup');
  });

  it('is called by every module that shows posts or something of them', () => {
    const callers: Record<string, RegExp> = {
      'src/content/post-type/permissions.ts': /\bcanReadPost\(/,
      'src/content/post-type/visibility.ts': /\breadsPost\(/,
      'src/comments/readability.ts': /\breadsPost\(/,
      'src/content/terms/permissions.ts': /\breadsPost\(/,
      'src/media/handlers.ts': /\bonlyVisible\(/,
      'src/search/handlers-types.ts': /\bpublicStatusCondition\(/,
      'src/embed/local.ts': /\bisPublicStatus\(/,
      'src/sliders/stream.ts': /\bcanReadPost\(/,
      'src/forms/feedback.ts': /\bisPublicStatus\(/,
    };
    const missing = Object.entries(callers).filter(([path, call]) => !call.test(TEXT.get(path) ?? '')).map(([path]) => path);
    assert.deepEqual(missing, []);
  });

  it('writes permissions in one shape: a check of the context (and its dependencies), called from the table', () => {
    const tables = [...TEXT].filter(([path]) => !path.startsWith('src/core/') && /\/routes\.ts$/.test(path));
    assert.ok(tables.length >= 10, 'the route tables are found');
    const unread = tables.filter(([, text]) => (text.match(/\bpermission:/g)?.length ?? 0) !== (text.match(/\bpermission:\s*[^\n]*?,\s*handler:/g)?.length ?? 0));
    assert.deepEqual(unread.map(([path]) => path), [], 'each row names its permission, then its handler, on one line');
    const odd = tables.flatMap(([path, text]) => [...text.matchAll(/\bpermission:\s*([^\n]*?),\s*handler:/g)]
      .map((match) => match[1]!)
      .filter((cell) => cell !== 'allowAnyone' && !/^\(c\) => \w+\(c(, [^()]*(\([^()]*\))?[^()]*)?\)$/.test(cell))
      .map((cell) => `${path}: ${cell}`));
    assert.deepEqual(odd, [], 'permission: allowAnyone, or (c) => canDoIt(c, deps)');
    const factories = [...TEXT].filter(([path, text]) => !path.startsWith('src/core/') && /\)\s*:\s*PermissionCheck\b|=>\s*\(context\)\s*=>/.test(text)).map(([path]) => path);
    assert.deepEqual(factories, [], 'no function builds a permission check; export the check itself');
  });

  it('leaves no file that only forwards another module (re-export shims)', () => {
    const statement = /^(export\s+(\*|(type\s+)?\{[^}]*\})\s+from\s+'[^']+';|import\s[^;]*;)$/;
    const forwarding = [...TEXT].filter(([path, text]) => {
      if (path.endsWith('/index.ts') || path === 'src/index.ts') return false;
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\s*\n\s*/g, ' ').trim();
      const statements = code.split(/(?<=;)\s*/).filter(Boolean);
      return statements.length > 0 && statements.every((one) => statement.test(one));
    }).map(([path]) => path);
    assert.deepEqual(forwarding, [], 'import from the module that defines the names');
  });
});
