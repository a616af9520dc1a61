/**
 * Collects the string literals of the rendering tests into literals.json, as extra golden inputs.
 *
 *   node --import tsx test/content/render/golden/harvest.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const HERE = new URL('.', import.meta.url).pathname;
const ROOT = join(HERE, '../../../..');
const FOLDERS = ['test/content/render', 'test/comments'];

const literals = new Set<string>();
for (const folder of FOLDERS) {
  let names: string[];
  try {
    names = readdirSync(join(ROOT, folder));
  } catch {
    continue;
  }
  for (const name of names.filter((file) => file.endsWith('.test.ts')).sort()) {
    const path = join(ROOT, folder, name);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text.length >= 2) literals.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
writeFileSync(join(HERE, 'literals.json'), `${JSON.stringify([...literals], null, 0).replaceAll('","', '",\n"')}\n`);
console.log(`${literals.size} literals`);
