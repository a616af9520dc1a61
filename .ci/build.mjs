/**
 * Builds dist/: the JavaScript as a few bundled ES modules (esbuild), the type declarations from tsc.
 *
 * Loading a few files instead of the ~430 modules tsc writes makes `import('quire')` several times faster; code
 * splitting keeps what only some hosts need (image codecs, WXR, store drivers, S3, mail) in chunks loaded on
 * first use. Every module of the build sits in dist/js/, so a chunk finds the image and render workers beside itself.
 * Dependencies stay external (the host installs them) except valibot: quire uses four of its functions, and
 * loading the whole library cost a fifth of the import time. It stays a dependency for the declarations.
 *
 * The authoring app (`quire/admin`) is a browser bundle of its own, built by .ci/build-admin.mjs into dist/admin/.
 *
 *   node .ci/build.mjs          JavaScript, the authoring app and declarations (npm run build)
 *   node .ci/build.mjs --js     JavaScript only, in about a second (npm start); the authoring app only when missing
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildAdmin } from './build-admin.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const jsOnly = process.argv.includes('--js');

/** Output name (dist/js/<name>.js) → source. package.json's exports and bin point at these. */
const ENTRIES = {
  index: 'src/index.ts',
  node: 'adapters/node.ts',
  express: 'adapters/express.ts',
  hono: 'adapters/hono.ts',
  fetch: 'adapters/fetch.ts',
  mount: 'src/core/mount.ts',
  sqlite: 'src/storage/sqlite/index.ts',
  postgres: 'src/storage/postgres/index.ts',
  s3: 'src/storage/blobs/s3.ts',
  editor: 'src/editor/index.ts',
  admin: 'src/admin/index.ts',
  testing: 'src/testing/index.ts',
  cli: 'src/cli/bin.ts',
  'image-worker': 'src/media/images/pool/worker.ts',
  'render-worker': 'src/content/render/pool/worker.ts',
  'sqlite-writer': 'src/storage/sqlite/writer-worker.ts',
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
  // Not minified: a stack trace and the source line node prints with an uncaught error stay readable, and each
  // module starts with a comment naming its src/ file. The maps turn lines into src/ ones where node uses them
  // (the `quire` command reads them when it writes a trace, src/cli/stack-traces.ts; a host runs
  // `node --enable-source-maps`).
  sourcemap: true,
  define: { QUIRE_IMAGE_WORKER: JSON.stringify('./image-worker.js'), QUIRE_RENDER_WORKER: JSON.stringify('./render-worker.js'), QUIRE_SQLITE_WRITER: JSON.stringify('./sqlite-writer.js'), QUIRE_ADMIN_ASSETS: JSON.stringify('../admin/') },
  logLevel: 'warning',
  metafile: Boolean(process.env.QUIRE_BUILD_META),
});

// The package ships src/, which the maps point at: their copies of it only cost space, and memory where node
// loads the maps. The bundled dependency's text stays, as it is not shipped.
for (const name of readdirSync(`${root}dist/js`).filter((file) => file.endsWith('.map'))) {
  const map = JSON.parse(readFileSync(`${root}dist/js/${name}`, 'utf8'));
  map.sourcesContent = map.sources.map((source, index) => (/(^|\/)node_modules\//.test(source) ? map.sourcesContent[index] : null));
  writeFileSync(`${root}dist/js/${name}`, JSON.stringify(map));
}

if (result.metafile) writeFileSync(`${root}dist/meta.json`, JSON.stringify(result.metafile));
for (const name of BUNDLED) copyFileSync(`${root}node_modules/${name}/LICENSE.md`, `${root}dist/js/${name}.LICENSE.md`);

if (!jsOnly || !existsSync(`${root}dist/admin/manifest.json`)) await buildAdmin(root);

if (!jsOnly) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--emitDeclarationOnly'], { cwd: root, stdio: 'inherit' });
}
