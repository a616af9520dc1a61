import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Libraries that cost tens of milliseconds or more to load, and that only some requests need. */
const HEAVY = ['image-js', 'jpeg-js', 'sharp', 'sanitize-html', 'htmlparser2', 'fast-xml-parser', 'nodemailer', '@fastify/busboy'];

/** Prints each package an ES module is loaded from, from the loader thread. */
const HOOK = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function load(url, context, next) {
  const found = /node_modules\\\\/((@[^/]+\\\\/)?[^/]+)/.exec(url);
  if (found) console.log('esm ' + found[1]);
  return next(url, context);
}\`));
`)}`;

describe('importing quire', () => {
  it('loads no heavy library until it is used', async () => {
    const entry = `${ROOT}dist/js/index.js`;
    assert.ok(existsSync(entry), 'dist/ is missing: run `npm run build` (npm test does) first');
    const script = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const listCommonJs = (prefix) => {
  for (const path of Object.keys(require.cache)) {
    const found = /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(path);
    if (found) console.log(prefix + found[1]);
  }
};
const { createCms } = await import(${JSON.stringify(entry)});
const cms = createCms();
// What the standalone server does on a new store: an administrator with plain fields needs no HTML sanitiser.
await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
listCommonJs('cjs ');
console.log('done');
await import('valibot');
require('@fastify/busboy');
listCommonJs('probe ');`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', HOOK, '--input-type=module', '-e', script], { cwd: ROOT });
    const loaded = new Set(stdout.split('\n').filter((line) => /^(esm|cjs) /.test(line)).map((line) => line.slice(4)));
    assert.match(stdout, /^done$/m);
    // The probe sees the packages the script loads itself afterwards (valibot is bundled into quire's build).
    assert.ok(loaded.has('valibot'), `the probe saw no ES module package: ${stdout}`);
    assert.match(stdout, /^probe @fastify\/busboy$/m, 'CommonJS packages are seen too');
    assert.deepEqual(HEAVY.filter((name) => loaded.has(name)), []);
  });
});
