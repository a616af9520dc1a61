import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { importCycles, resourceFolders, ROOT, sourceFiles, type SourceFile } from './graph.js';

/**
 * Imports point down only. Each area of the source (a folder, or a single top-level file) and the areas its files
 * may import besides its own. Resources may use each other and everything below them; nothing below imports up.
 * The resources are the folders that declare one (`defineResource`).
 */
const RESOURCES = resourceFolders();
const ANYTHING = null;

const MAY_IMPORT: Record<string, readonly string[] | null> = {
  // The host-facing top: the package entry, the assembly and the command line.
  'src/index.ts': ANYTHING,
  // Moving a whole site in and out (WXR): above the resources it fills.
  'src/wxr': ['src/core', 'src/format', 'src/ports', 'src/auth', 'src/services', 'src/deps.ts', ...RESOURCES],
  'src/cms.ts': ANYTHING,
  // The one list of resources createCms assembles.
  'src/resources.ts': ['src/core', 'src/deps.ts', ...RESOURCES],
  'src/cli': ANYTHING,
  // Client-side helpers for the block editor: they only know the names.
  'src/editor': ['src/core'],
  // The authoring app: the browser code under app/ and the handler serving it; the app talks to the API over HTTP.
  'src/admin': ['src/editor', 'src/core'],
  // Adapters only convert, through the package's public surface and the mounting helpers (`quire/mount`, with
  // the client-address rules they compile once).
  adapters: ['src/index.ts', 'src/core/mount.ts', 'src/core/client-address.ts'],
  'src/core/mount.ts': ['src/core', 'src/core/client-address.ts', 'src/format'],
  'src/core/client-address.ts': ['src/format'],
  // Resources: each registers its routes; no concrete store, no assembly.
  ...Object.fromEntries(RESOURCES.map((area) => [area, ['src/core', 'src/format', 'src/ports', 'src/auth', 'src/services', 'src/deps.ts', ...RESOURCES]])),
  // The dependency object's type: the ports, the settings and the services resources share, never a resource.
  'src/deps.ts': ['src/core', 'src/ports', 'src/auth', 'src/services'],
  // The types of the services resources hand each other (post events, uploads, …), below every resource.
  'src/services': ['src/core', 'src/format', 'src/ports', 'src/auth'],
  'src/auth': ['src/core', 'src/format', 'src/ports'],
  // Port implementations: stores, blob stores, mailers.
  'src/storage': ['src/ports', 'src/format'],
  // The conformance suites (`quire/testing`): they test stores through the ports alone.
  'src/testing': ['src/ports'],
  'src/mail': ['src/ports', 'src/format'],
  // The dispatcher, registry, arguments and shaping: nothing above them.
  'src/core': ['src/format'],
  'src/format': [],
  'src/ports': [],
};

/** Areas that sit side by side and must not import each other (in either direction). */
const APART: readonly [string, string][] = [
  ['src/content', 'src/users'],
];

/**
 * Imports the rules forbid that are accepted for now, as `from -> to`, each with its reason. The test fails on any
 * forbidden import not listed here, and on any entry that no longer occurs, so the list only shrinks.
 */
const KNOWN_OFFENDERS: readonly string[] = [];

/** The area a file belongs to: the longest key of MAY_IMPORT that is the file or a folder holding it. */
function areaOf(path: string): string | undefined {
  return Object.keys(MAY_IMPORT)
    .filter((area) => path === area || path.startsWith(`${area}/`))
    .sort((a, b) => b.length - a.length)[0];
}

function forbiddenImports(files: ReadonlyMap<string, SourceFile> = sourceFiles()): string[] {
  const found = new Set<string>();
  for (const file of files.values()) {
    const area = areaOf(file.path);
    const allowed = area === undefined ? [] : MAY_IMPORT[area];
    for (const { to } of file.imports) {
      const target = areaOf(to);
      const apart = APART.some(([a, b]) => (area === a && target === b) || (area === b && target === a));
      const permitted = allowed === ANYTHING || target === area || (target !== undefined && allowed!.includes(target));
      if (apart || !permitted) found.add(`${file.path} -> ${to}`);
    }
  }
  return [...found].sort();
}

describe('imports', () => {
  it('finds the resources from their declarations', () => {
    assert.ok(RESOURCES.length >= 12, RESOURCES.join(', '));
    for (const area of ['src/content', 'src/forms', 'src/users', 'src/batch']) assert.ok(RESOURCES.includes(area), area);
    assert.equal(RESOURCES.includes('src/wxr'), false, 'the WXR import and export registers no route');
  });

  it('every source file belongs to an area of the layering table', () => {
    const unplaced = [...sourceFiles().keys()].filter((path) => areaOf(path) === undefined);
    assert.deepEqual(unplaced, [], 'add the new folder to MAY_IMPORT');
  });

  it('point down only: no import the layering table forbids, beyond the known offenders', () => {
    const forbidden = forbiddenImports();
    assert.deepEqual(forbidden.filter((edge) => !KNOWN_OFFENDERS.includes(edge)), [], 'new imports that point up or across');
    assert.deepEqual(KNOWN_OFFENDERS.filter((edge) => !forbidden.includes(edge)), [], 'fixed: remove these from KNOWN_OFFENDERS');
  });

  it('form no cycle between files, type-only imports included', () => {
    assert.deepEqual(importCycles(sourceFiles(), true), []);
  });

  it('the checker sees a cycle and an upward import when there is one', () => {
    const files = new Map([
      ['src/core/a.ts', { path: 'src/core/a.ts', lines: 1, imports: [{ to: 'src/core/b.ts', typeOnly: true }] }],
      ['src/core/b.ts', { path: 'src/core/b.ts', lines: 1, imports: [{ to: 'src/core/a.ts', typeOnly: false }] }],
    ]);
    assert.deepEqual(importCycles(files, true), [['src/core/a.ts', 'src/core/b.ts']]);
    assert.deepEqual(importCycles(files, false), []);
    assert.equal(areaOf('src/core/dispatch.ts'), 'src/core');
    assert.equal(MAY_IMPORT[areaOf('src/core/dispatch.ts')!]!.includes(areaOf('src/content/posts/index.ts')!), false);
    assert.equal(MAY_IMPORT['src/forms']!.includes('src/deps.ts'), true);
    for (const area of RESOURCES) assert.equal(MAY_IMPORT['src/deps.ts']!.includes(area), false, area);
    const upward = new Map([['src/deps.ts', { path: 'src/deps.ts', lines: 1, imports: [{ to: 'src/media/config.ts', typeOnly: true }] }]]);
    assert.deepEqual(forbiddenImports(upward), ['src/deps.ts -> src/media/config.ts']);
  });

  it('src/services holds types only: it declares no value and imports only types', () => {
    const services = [...sourceFiles().values()].filter((file) => areaOf(file.path) === 'src/services');
    assert.ok(services.length > 0);
    for (const file of services) {
      assert.deepEqual(file.imports.filter((edge) => !edge.typeOnly), [], file.path);
      const text = readFileSync(join(ROOT, file.path), 'utf8');
      assert.doesNotMatch(text, /^[ \t]*(export\s+)?(default\s+)?(declare\s+)?(const|let|var|function|async|class|abstract|enum|namespace)\b/m, file.path);
    }
  });
});
