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
  // The consumer has the package's dependencies, Node's types and the frameworks it mounts quire in, but not
  // the optional database drivers' type packages.
  const provided = [...Object.keys(manifest.dependencies), '@types/node', '@types/express', 'hono', '@hono/node-server'];
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
    const examples = [join(root, 'README.md'), ...readdirSync(join(root, 'docs')).map((name) => join(root, 'docs', name))]
      .filter((file) => file.endsWith('.md'))
      .flatMap((file) => codeBlocks(readFileSync(file, 'utf8')).map((code, index) => ({ name: `${relative(root, file)}#${index + 1}`, code })));
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
  });

  test('runs nothing when a consumer installs it', () => {
    const { scripts = {} } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) assert.equal(scripts[hook], undefined, `a "${hook}" script`);
    // A fresh clone still builds before it starts or tests, and the tarball is built when it is packed.
    assert.match(scripts.prestart ?? '', /build/);
    assert.match(scripts.pretest ?? '', /build/);
    assert.match(scripts.prepack ?? '', /build/);
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

/** The fenced blocks marked `ts` (indented ones inside lists too); other languages are not compiled. */
function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^( *)```ts\n([\s\S]*?)^\1```$/gm)].map(([, indent, body]) =>
    body!.split('\n').map((line) => line.slice(indent!.length)).join('\n'));
}

function listFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? listFiles(path) : [path];
  });
}
