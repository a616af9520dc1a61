/**
 * The import graph of the package's own source (src/ and adapters/), read statically: every `import`,
 * `export … from`, dynamic `import()` and `declare module` of a relative path, resolved to a file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SOURCE_FOLDERS = ['src', 'adapters'];

export interface Edge {
  /** Imported file, relative to the package root (`src/core/errors.ts`). */
  to: string;
  /** Whether only types cross the edge (erased when compiled). */
  typeOnly: boolean;
}

export interface SourceFile {
  path: string;
  lines: number;
  imports: Edge[];
}

function listTs(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    const path = `${folder}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) found.push(...listTs(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = relative(ROOT, resolve(ROOT, dirname(from), specifier)).replace(/\.js$/, '.ts');
  return target.endsWith('.ts') ? target : `${target}.ts`;
}

const STATIC = /^[ \t]*(import|export)\s+(type\s+)?((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+))\s+from\s+['"]([^'"]+)['"]/gm;
const BARE = /^[ \t]*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const AUGMENTED = /^[ \t]*declare\s+module\s+['"]([^'"]+)['"]/gm;

/**
 * The relative imports of one file. Statements are matched at the start of a line, as the house style writes
 * them; a clause whose every name is marked `type` is type-only. `declare module` augmentation counts as a
 * (type-only) import of the augmented file.
 */
function importsOf(path: string, text: string): Edge[] {
  const edges: Edge[] = [];
  const add = (specifier: string | undefined, typeOnly: boolean) => {
    const to = specifier === undefined ? null : resolveSpecifier(path, specifier);
    if (to) edges.push({ to, typeOnly });
  };
  for (const [, , typeKeyword, clause, specifier] of text.matchAll(STATIC)) {
    const names = clause!.startsWith('{') ? clause!.slice(1, -1).split(',').map((name) => name.trim()).filter(Boolean) : [];
    add(specifier, typeKeyword !== undefined || (names.length > 0 && names.every((name) => name.startsWith('type '))));
  }
  for (const [, specifier] of text.matchAll(BARE)) add(specifier, false);
  for (const [, specifier] of text.matchAll(DYNAMIC)) add(specifier, false);
  for (const [, specifier] of text.matchAll(AUGMENTED)) add(specifier, true);
  return edges;
}

let cached: Map<string, SourceFile> | null = null;

/** Every source file of src/ and adapters/, by path. */
export function sourceFiles(): Map<string, SourceFile> {
  if (cached) return cached;
  cached = new Map();
  for (const path of SOURCE_FOLDERS.flatMap(listTs).sort()) {
    const text = readFileSync(join(ROOT, path), 'utf8');
    cached.set(path, { path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), imports: importsOf(path, text) });
  }
  return cached;
}

/** Strongly connected groups of more than one file (or a file importing itself): the import cycles. */
export function importCycles(files: Map<string, SourceFile>, includeTypeOnly: boolean): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const strongConnect = (path: string): void => {
    index.set(path, counter);
    low.set(path, counter);
    counter += 1;
    stack.push(path);
    onStack.add(path);
    for (const edge of files.get(path)?.imports ?? []) {
      if ((edge.typeOnly && !includeTypeOnly) || !files.has(edge.to)) continue;
      if (!index.has(edge.to)) {
        strongConnect(edge.to);
        low.set(path, Math.min(low.get(path)!, low.get(edge.to)!));
      } else if (onStack.has(edge.to)) {
        low.set(path, Math.min(low.get(path)!, index.get(edge.to)!));
      }
    }
    if (low.get(path) === index.get(path)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== path);
      const selfImport = files.get(path)?.imports.some((edge) => edge.to === path) ?? false;
      if (group.length > 1 || selfImport) cycles.push(group.sort());
    }
  };
  for (const path of files.keys()) if (!index.has(path)) strongConnect(path);
  return cycles;
}

/**
 * The top-level folders that declare a resource (`defineResource({…})`, src/core/resource.ts), sorted: the
 * resources' area of the layering table.
 */
export function resourceFolders(): string[] {
  const folders = new Set<string>();
  for (const path of sourceFiles().keys()) {
    if (path.startsWith('src/core/') || !/\bdefineResource\(/.test(readFileSync(join(ROOT, path), 'utf8'))) continue;
    folders.add(path.split('/').slice(0, 2).join('/'));
  }
  return [...folders].sort();
}
