/**
 * Builds the authoring app (src/admin/app) into dist/admin/: one minified script and one stylesheet with hashed
 * names, and manifest.json naming them, which the server-side handler (src/admin) reads to write the page. The
 * WordPress packages and React are bundled here, at the package's build; nothing is bundled at a user's install
 * and nothing is loaded from elsewhere at run time.
 *
 * Some packages nest their own copy of a shared package (an older @wordpress/components under
 * @wordpress/patterns…); two copies of a data store or of React break the editor, so every @wordpress/* and React
 * import resolves to the single top-level copy.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { relative } from 'node:path';
import { build } from 'esbuild';

/** Client-side media processing (a WebAssembly image library, video conversion): the app leaves it off and the
 *  server makes the image sizes, so these are left out of the bundle. */
const LEFT_OUT = /^@wordpress\/(vips|video-conversion)(\/.*)?$/;
/** Every time zone's rules (700 KiB): the editor formats dates in UTC and the site's offset, as the reference's
 *  own editor does when it loads no zone data; UTC alone stays. */
const ZONE_DATA = /^\.\/data\/packed\/latest\.json$/;
const UTC_ONLY = JSON.stringify({ version: 'utc-only', zones: ['Etc/UTC|UTC|0|0||'], links: ['Etc/UTC|UTC'] });
const SHARED = /^(@wordpress\/[^/]+|react|react-dom)(\/.*)?$/;

/** @param {string} root the package root, ending with `/` */
export async function buildAdmin(root) {
  const out = `${root}dist/admin`;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const oneCopy = {
    name: 'one-copy',
    setup(build) {
      build.onResolve({ filter: LEFT_OUT }, (args) => ({ path: args.path, namespace: 'left-out' }));
      build.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
      build.onResolve({ filter: ZONE_DATA }, (args) => (/moment-timezone/.test(args.importer) ? { path: 'utc-only', namespace: 'zone-data' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'zone-data' }, () => ({ contents: UTC_ONLY, loader: 'json' }));
      build.onResolve({ filter: SHARED }, (args) => {
        if (args.pluginData === 'one-copy') return undefined;
        // The packages' stylesheets, which some of them leave out of their "exports".
        if (/^@wordpress\/[^/]+\/build-style\/[\w-]+\.css$/.test(args.path)) return { path: `${root}node_modules/${args.path}` };
        return build.resolve(args.path, { kind: args.kind, resolveDir: root, pluginData: 'one-copy' });
      });
    },
  };
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: 'src/admin/app/main.tsx' },
    outdir: 'dist/admin/assets',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.svg': 'file', '.png': 'file', '.gif': 'file', '.jpg': 'file' },
    define: {
      'process.env.NODE_ENV': '"production"',
      'globalThis.IS_GUTENBERG_PLUGIN': 'false',
      'process.env.IS_GUTENBERG_PLUGIN': 'false',
      'globalThis.SCRIPT_DEBUG': 'false',
      'process.env.IS_WORDPRESS_CORE': 'false',
    },
    legalComments: 'linked',
    plugins: [oneCopy],
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => relative('dist/admin', path));
  writeFileSync(`${out}/LICENSES.md`, licenceList(root, result.metafile));
  // The script and the stylesheet also gzipped once here, for clients that accept it.
  const gzip = outputs.filter((path) => /\.(js|css)$/.test(path));
  for (const path of gzip) writeFileSync(`${out}/${path}.gz`, gzipSync(readFileSync(`${out}/${path}`), { level: 9 }));
  const manifest = {
    script: outputs.find((path) => /^assets\/app-[^/]+\.js$/.test(path)),
    stylesheet: outputs.find((path) => /^assets\/app-[^/]+\.css$/.test(path)),
    files: outputs.filter((path) => !path.endsWith('.map')),
    gzip,
  };
  if (!manifest.script || !manifest.stylesheet) throw new Error('the admin build wrote no script or stylesheet');
  if (process.env.QUIRE_BUILD_META) writeFileSync(`${root}dist/admin-meta.json`, JSON.stringify(result.metafile));
  writeFileSync(`${out}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * The packages bundled into the app with their licences (the WordPress packages are GPL-2.0-or-later, React and
 * most others MIT), written beside the bundle as dist/admin/LICENSES.md; each package's licence text is in its
 * own repository and npm page.
 */
function licenceList(root, metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (!match || packages.has(match[1])) continue;
    const directory = input.slice(0, match.index + match[0].length);
    try {
      const manifest = JSON.parse(readFileSync(`${root}${directory}package.json`, 'utf8'));
      packages.set(match[1], `${manifest.version} ${typeof manifest.license === 'string' ? manifest.license : 'see the package'}`);
    } catch {
      packages.set(match[1], 'see the package');
    }
  }
  const lines = [...packages].sort(([a], [b]) => a.localeCompare(b)).map(([name, about]) => `- ${name} ${about}`);
  return `# Bundled in the authoring app\n\nThe script and the stylesheet in assets/ bundle these packages (version, licence):\n\n${lines.join('\n')}\n`;
}
