import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The published surface: every `exports` entry of package.json resolves (through the package's own name, as a
 * consumer imports it) to built files that export what they should. Needs `npm run build` first (`npm test` does).
 */

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const manifest = JSON.parse(readFileSync(`${packageRoot}package.json`, 'utf8')) as {
  name: string;
  main: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; import: string }>;
};

/** For each subpath, the names it must export as functions (more exports are fine). */
const requiredFunctions: Record<string, string[]> = {
  '.': ['createCms', 'encodeResponse', 'CmsError', 'createFormsApi', 'createSmtpMailer', 'createMemoryOutbox', 'WxrError', 'isWxrError', 'createProgressReporter', 'isStorageError', 'storageError'],
  './node': ['toNodeListener', 'readBody', 'writeResponse'],
  './express': ['toExpress'],
  './hono': ['toHono'],
  './fetch': ['toFetchHandler'],
  './mount': ['mountTarget', 'outsideApi', 'readEventedBody', 'readStreamBody', 'splitTarget', 'BodyCollector'],
  './sqlite': ['sqliteStorage'],
  './postgres': ['postgresStorage'],
  './s3': ['s3BlobStore'],
  './editor': ['neutralNamesMiddleware', 'neutralApiPath'],
  './admin': ['adminHandler', 'createAdminApp', 'diskAssets', 'contentSecurityPolicy'],
  './testing': ['runStorageConformance', 'runBlobStoreConformance'],
};

describe('package exports', () => {
  test('the build exists', () => {
    assert.ok(existsSync(`${packageRoot}dist/js/index.js`), 'dist/ is missing: run `npm run build` first');
  });

  test('every exports entry is listed here, and every listed entry is exported', () => {
    const listed = [...Object.keys(requiredFunctions), './package.json'].sort();
    assert.deepEqual(Object.keys(manifest.exports).sort(), listed, 'update requiredFunctions when exports change');
  });

  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;

    test(`${specifier} points at built files`, () => {
      const files = typeof target === 'string' ? [target] : [target.types, target.import];
      for (const file of files) assert.ok(existsSync(`${packageRoot}${file}`), `${file} exists`);
    });

    if (subpath === './package.json') continue;
    test(`${specifier} exports what it should`, async () => {
      const module = (await import(specifier)) as Record<string, unknown>;
      for (const name of requiredFunctions[subpath] ?? []) {
        assert.equal(typeof module[name], 'function', `${specifier} exports ${name}`);
      }
      const internal = Object.keys(module).filter((name) => name.startsWith('_'));
      assert.deepEqual(internal, [], `${specifier} exports no underscore names`);
    });
  }

  test('quire/package.json is importable and names the package', async () => {
    const imported = (await import(`${manifest.name}/package.json`, { with: { type: 'json' } })) as { default: { name: string } };
    assert.equal(imported.default.name, 'quire');
  });

  test('main, types and the bin point at built files', () => {
    assert.ok(existsSync(`${packageRoot}${manifest.main}`), manifest.main);
    assert.ok(existsSync(`${packageRoot}${manifest.types}`), manifest.types);
    const bin = readFileSync(`${packageRoot}${manifest.bin.quire}`, 'utf8');
    assert.ok(bin.startsWith('#!/usr/bin/env node\n'), 'the bin starts with a node shebang');
  });

  test('the built entries work together: createCms from quire served by quire/fetch', async () => {
    const { createCms } = (await import('quire')) as typeof import('../src/index.js');
    const { toFetchHandler } = (await import('quire/fetch')) as typeof import('../adapters/fetch.js');
    const response = await toFetchHandler(createCms())(new Request('http://site.test/cms-json/'));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('link'), '<http://site.test/cms-json/>; rel="https://api.w.org/"');
    const index = (await response.json()) as { url: string; namespaces: string[] };
    assert.equal(index.url, 'http://site.test');
    assert.ok(index.namespaces.includes('cms/v2'));
  });
});
