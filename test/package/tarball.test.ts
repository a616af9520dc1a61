import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * Packs the package as `npm publish` would (from the built dist: `npm test` builds first) and looks at it as a
 * consumer does, in a scratch project outside this checkout so nothing of ours leaks into module resolution.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  exports: Record<string, unknown>;
};

let scratch: string;
let installed: string;

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'quire-consumer-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'],
  })) as { filename: string }[];
  installed = join(scratch, 'node_modules', 'quire');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(scratch, packed[0]!.filename), '-C', installed, '--strip-components=1']);
  // The consumer has the package's dependencies, Node's types, the frameworks it mounts quire in and the block
  // editor's api-fetch, but not the optional database drivers' type packages.
  const provided = [...Object.keys(manifest.dependencies), '@types/node', '@types/express', 'hono', '@hono/node-server', '@wordpress/api-fetch'];
  for (const name of provided) {
    const link = join(scratch, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), link, 'dir');
  }
});

after(() => rmSync(scratch, { recursive: true, force: true }));

describe('the packed package', () => {
  test('compiles against every export with strict settings and without the drivers\' type packages', () => {
    const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json');
    const imports = subpaths.map((subpath, index) => `import * as module${index} from '${join('quire', subpath)}';`);
    writeFileSync(join(scratch, 'consumer.ts'), [
      ...imports,
      `export const loaded = [${subpaths.map((_, index) => `module${index}`).join(', ')}];`,
      "import { createCms } from 'quire';",
      "import { sqliteStorage } from 'quire/sqlite';",
      "export const cms = createCms({ storage: sqliteStorage({ path: ':memory:' }) });",
      // What a store written outside quire needs besides the port, from the package's root.
      "import { isStorageError, storageError, type Condition, type ListQuery, type ListResult, type Scalar, type SortKey, type StorageErrorCode, type StoragePort, type TextSearch } from 'quire';",
      "export const code: StorageErrorCode = 'duplicate_id';",
      "export const refused = isStorageError(storageError(code, 'taken'), 'duplicate_id');",
      "export const scalar: Scalar = 'a';",
      "export const byTitle: SortKey = { field: 'title', direction: 'asc' };",
      "export const words: TextSearch = { fields: ['title'], terms: ['tomato'] };",
      "export const where: Condition = { field: 'title', op: 'eq', value: scalar };",
      "export const query: ListQuery = { where: [where], orderBy: [byTitle] };",
      "export const listed = (store: StoragePort): Promise<ListResult> => store.list('posts', query);",
      // Every store has a change token, and says so in its type.
      "export const token: Promise<string> = sqliteStorage({ path: ':memory:' }).changeToken();",
      // Each adapter's `user` gets that adapter's request: a helper typed for Express or Hono fits as it is.
      "import type { Request } from 'express';",
      "import type { Context } from 'hono';",
      "import { toExpress } from 'quire/express';",
      "import { toHono } from 'quire/hono';",
      "const expressSession = (req: Request) => (req.cookies ? { id: 1 } : null);",
      "const honoSession = (c: Context) => (c.req.header('cookie') ? { id: 1 } : null);",
      'export const middlewares = [toExpress(cms, { user: expressSession }), toHono(cms, { user: honoSession })];',
      '',
    ].join('\n'));
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true,
        skipLibCheck: false, types: ['node'],
      },
      files: ['consumer.ts'],
    }));
    const compiled = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch], { encoding: 'utf8' });
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
  });

  test('compiles every TypeScript example of the README and the guides against the package alone', () => {
    const all = [join(root, 'README.md'), ...readdirSync(join(root, 'docs')).map((name) => join(root, 'docs', name))]
      .filter((file) => file.endsWith('.md'))
      .flatMap((file) => codeBlocks(readFileSync(file, 'utf8'), relative(root, file)).map((block, index) => ({ name: `${relative(root, file)}#${index + 1}`, ...block })));
    const examples = all.filter((example) => !example.browser);
    assert.ok(examples.length >= 10);
    const folder = join(scratch, 'examples');
    mkdirSync(folder, { recursive: true });
    const files = examples.map(({ name, code }) => {
      const file = join(folder, `${name.replace(/[^\w]+/g, '_')}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      return file;
    });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
    copyFileSync(join(root, 'test', 'package', 'example-prelude.d.ts'), join(folder, 'example-prelude.d.ts'));
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true,
        skipLibCheck: false, types: ['node'],
      },
      files: ['example-prelude.d.ts', ...files],
    }));
    const compiled = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: folder, encoding: 'utf8' });
    assert.equal(compiled.status, 0, compiled.stdout);

    // Code for a page is compiled as a bundler resolves it, with the DOM's types and none of Node's.
    const browser = all.filter((example) => example.browser);
    assert.ok(browser.length >= 2);
    const pageFolder = join(scratch, 'browser-examples');
    mkdirSync(pageFolder, { recursive: true });
    const pageFiles = browser.map(({ name, code }) => {
      const file = join(pageFolder, `${name.replace(/[^\w]+/g, '_')}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      return file;
    });
    // What the page's examples take as given: the caller's Basic credentials.
    writeFileSync(join(pageFolder, 'page-prelude.d.ts'), 'declare const credentials: string;\n');
    writeFileSync(join(pageFolder, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], strict: true, noEmit: true,
        skipLibCheck: false, types: [],
      },
      files: ['page-prelude.d.ts', ...pageFiles],
    }));
    const bundled = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: pageFolder, encoding: 'utf8' });
    assert.equal(bundled.status, 0, bundled.stdout);
  });

  test('runs nothing when a consumer installs it', () => {
    const { scripts = {} } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) assert.equal(scripts[hook], undefined, `a "${hook}" script`);
    // A fresh clone still builds before it starts or tests, and the tarball is built when it is packed.
    assert.match(scripts.prestart ?? '', /build/);
    assert.match(scripts.pretest ?? '', /build/);
    assert.match(scripts.prepack ?? '', /build/);
  });

  test('runs its conformance suites, from quire/testing, against stores written outside the repository', () => {
    const folder = join(scratch, 'own-stores');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
    // A host's own stores: records kept through quire's memory store behind a layer of the host's own (as a
    // store over another system would be), and a blob store written from scratch over a Map.
    writeFileSync(join(folder, 'stores.mjs'), OWN_STORES);
    writeFileSync(join(folder, 'storage.test.mjs'), [
      "import { runStorageConformance } from 'quire/testing';",
      "import { layeredStore } from './stores.mjs';",
      "runStorageConformance('a layered store', async () => layeredStore());",
    ].join('\n'));
    // Run as a project of its own: without the variable that makes node:test report to this test run instead.
    const { NODE_TEST_CONTEXT: _, ...environment } = process.env;
    const storage = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'storage.test.mjs'], { cwd: folder, encoding: 'utf8', env: environment });
    assert.equal(storage.status, 0, storage.stdout.slice(-3000) + storage.stderr);
    assert.ok(Number(/^# pass (\d+)$/m.exec(storage.stdout)?.[1]) >= 40, 'the whole suite ran');
    assert.match(storage.stdout, /^# fail 0$/m);

    // Any runner: a minimal one that collects the tests and runs them in order; a broken store fails.
    writeFileSync(join(folder, 'blobs.mjs'), [
      "import { runBlobStoreConformance } from 'quire/testing';",
      "import { mapBlobStore } from './stores.mjs';",
      'const tests = [];',
      'const prefix = [];',
      'const runner = { describe: (name, body) => { prefix.push(name); body(); prefix.pop(); }, it: (name, body) => { tests.push([[...prefix, name].join(" > "), body]); } };',
      "runBlobStoreConformance('a Map blob store', async () => mapBlobStore(), runner);",
      "runBlobStoreConformance('an unsorted Map blob store', async () => mapBlobStore({ unsorted: true }), runner);",
      'for (const [name, body] of tests) {',
      '  try { await body(); console.log(`ok ${name}`); } catch (error) { console.log(`not ok ${name}: ${error.message.split("\\n")[0]}`); }',
      '}',
    ].join('\n'));
    const blobs = spawnSync(process.execPath, ['blobs.mjs'], { cwd: folder, encoding: 'utf8', env: environment });
    assert.equal(blobs.status, 0, blobs.stderr);
    const results = blobs.stdout.trim().split('\n');
    const ranOn = (store: string) => results.filter((line) => line.replace(/^(not )?ok /, '').startsWith(`${store} > `)).length;
    assert.ok(ranOn('a Map blob store') >= 5, blobs.stdout);
    assert.equal(ranOn('an unsorted Map blob store'), ranOn('a Map blob store'), blobs.stdout);
    assert.equal(results.length, 2 * ranOn('a Map blob store'), blobs.stdout);
    assert.deepEqual(results.filter((line) => line.startsWith('not ok')).map((line) => line.split(' > ')[0]), ['not ok an unsorted Map blob store'], blobs.stdout);
  });

  test('ships the sources its source maps point at, and no link in its docs leaves the package', () => {
    const files = listFiles(installed);
    const maps = files.filter((file) => file.endsWith('.map'));
    assert.ok(maps.length > 0);
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      sources.forEach((source, index) => {
        // A dependency bundled into the build (valibot) is not shipped as a file: the map carries its text.
        if (/(^|\/)node_modules\//.test(source) && typeof sourcesContent?.[index] === 'string') return;
        assert.ok(existsSync(resolve(dirname(map), source)), `${relative(installed, map)} points at missing ${source}`);
      });
    }
    for (const doc of files.filter((file) => file.endsWith('.md'))) {
      for (const [, target] of readFileSync(doc, 'utf8').matchAll(/\]\(([^)#\s]+)[^)]*\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const inside = resolve(dirname(doc), target!);
        assert.ok(inside.startsWith(installed) && existsSync(inside), `${relative(installed, doc)} links to ${target} outside the package`);
      }
      for (const [, named] of readFileSync(doc, 'utf8').matchAll(/`(\.\.?\/[^`\s]+\.md)`/g)) {
        const inside = resolve(dirname(doc), named!);
        assert.ok(inside.startsWith(installed) && existsSync(inside), `${relative(installed, doc)} names ${named}, which is not in the package`);
      }
    }
  });
});

/** Stores a host writes itself, as plain JavaScript against the package's exports. */
const OWN_STORES = `
import { assertBlobKey, assertBlobPrefix, createMemoryStorage } from 'quire';

/** Every call goes through the host's own layer, which copies what it is given and what it hands back. */
export function layeredStore() {
  const copy = (value) => (value === undefined ? value : structuredClone(value));
  const wrap = (target) => ({
    get: async (collection, id) => copy(await target.get(collection, id)),
    list: async (collection, query) => copy(await target.list(collection, query)),
    insert: async (collection, record) => copy(await target.insert(collection, record)),
    update: async (collection, id, patch) => copy(await target.update(collection, id, patch)),
    remove: (collection, id) => target.remove(collection, id),
    transaction: (work) => target.transaction((tx) => work(wrap(tx))),
    ...(target.changeToken ? { changeToken: () => target.changeToken() } : {}),
  });
  return { ...wrap(createMemoryStorage()), close: async () => {} };
}

export function mapBlobStore({ unsorted = false } = {}) {
  const blobs = new Map();
  return {
    async put(key, bytes, { contentType }) { blobs.set(assertBlobKey(key), { bytes: Uint8Array.from(bytes), contentType }); },
    async get(key) {
      const blob = blobs.get(assertBlobKey(key));
      return blob ? { key, size: blob.bytes.length, contentType: blob.contentType, bytes: Uint8Array.from(blob.bytes) } : null;
    },
    async exists(key) { return blobs.has(assertBlobKey(key)); },
    async remove(key) { return blobs.delete(assertBlobKey(key)); },
    async list(prefix) {
      assertBlobPrefix(prefix);
      const found = [...blobs].filter(([key]) => key.startsWith(prefix)).map(([key, blob]) => ({ key, size: blob.bytes.length, contentType: blob.contentType }));
      return unsorted ? found.reverse() : found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}
`;

/**
 * The fenced blocks marked `ts` (indented ones inside lists too), each to be compiled; one right after a
 * `<!-- browser code -->` comment is code for a page, compiled as a bundler does. A block right after an
 * `<!-- not compiled: reason -->` comment is left out; code in a block of another language must carry one, so
 * no example escapes the compiler by its fence. A fence with more than a language after it is refused.
 */
function codeBlocks(markdown: string, file: string): { code: string; browser: boolean }[] {
  assert.doesNotMatch(markdown, /^ *```\w*[^\w\n]/m, `${file}: a fence with more than a language after it`);
  const blocks: { code: string; browser: boolean }[] = [];
  for (const match of markdown.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)) {
    const [, indent, language, body] = match;
    const before = markdown.slice(0, match.index).trimEnd().split('\n').at(-1)!.trim();
    if (/^<!-- not compiled: \S.* -->$/.test(before)) continue;
    const code = body!.split('\n').map((line) => line.slice(indent!.length)).join('\n');
    if (language === 'ts') blocks.push({ code, browser: before === '<!-- browser code -->' });
    else if (!['sh', 'json', 'xml'].includes(language!)) {
      assert.doesNotMatch(code, /^\s*(import|export|const|let|await|function)\b|=>/m, `${file}: a \`\`\`${language} block holds code: make it \`\`\`ts, or mark it <!-- not compiled: reason -->`);
    }
  }
  return blocks;
}

function listFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? listFiles(path) : [path];
  });
}
