/**
 * Builds dist/: the JavaScript as a few bundled ES modules (esbuild), the type declarations from tsc.
 *
 * Loading a few files instead of the ~430 modules tsc writes makes `import('quire')` several times faster; code
 * splitting keeps what only some hosts need (image codecs, WXR, store drivers, S3, mail) in chunks loaded on
 * first use. Every module of the build sits in dist/js/, so a chunk finds the image and render workers beside itself.
 * Dependencies stay external (the host installs them) except valibot: quire uses four of its functions, and
 * loading the whole library cost a fifth of the import time. It stays a dependency for the declarations.
 *
 *   node .ci/build.mjs          JavaScript and declarations (npm run build)
 *   node .ci/build.mjs --js     JavaScript only, in about a second (npm start)
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const jsOnly = process.argv.includes('--js');

/** Output name (dist/js/<name>.js) → source. package.json's exports and bin point at these. */
const ENTRIES = {
  index: 'src/index.ts',
  node: 'adapters/node.ts',
  express: 'adapters/express.ts',
  hono: 'adapters/hono.ts',
  fetch: 'adapters/fetch.ts',
  sqlite: 'src/storage/sqlite/index.ts',
  postgres: 'src/storage/postgres/index.ts',
  s3: 'src/storage/blobs/s3.ts',
  editor: 'src/editor/index.ts',
  cli: 'src/cli/main.ts',
  'image-worker': 'src/media/images/pool/worker.ts',
  'render-worker': 'src/content/render/pool/worker.ts',
};

/** Bundled into the build, tree-shaken; their licences are copied beside the output. */
const BUNDLED = ['valibot'];
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const external = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.devDependencies })
  .filter((name) => !BUNDLED.includes(name))
  .flatMap((name) => [name, `${name}/*`]);

rmSync(`${root}dist/js`, { recursive: true, force: true });
if (!jsOnly) rmSync(`${root}dist`, { recursive: true, force: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: ENTRIES,
  outdir: 'dist/js',
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: true,
  // Whitespace only: names stay readable in stack traces.
  minifyWhitespace: !process.env.QUIRE_BUILD_READABLE,
  define: { QUIRE_IMAGE_WORKER: JSON.stringify('./image-worker.js'), QUIRE_RENDER_WORKER: JSON.stringify('./render-worker.js') },
  logLevel: 'warning',
  metafile: Boolean(process.env.QUIRE_BUILD_META),
});

if (result.metafile) writeFileSync(`${root}dist/meta.json`, JSON.stringify(result.metafile));
for (const name of BUNDLED) copyFileSync(`${root}node_modules/${name}/LICENSE.md`, `${root}dist/js/${name}.LICENSE.md`);

if (!jsOnly) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--emitDeclarationOnly'], { cwd: root, stdio: 'inherit' });
}
