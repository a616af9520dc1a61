/**
 * Checks that WordPress's importer reads quire's exports as quire does: exports the test sample (imported into a
 * fresh site), runs the WordPress importer plugin's own parsers on it with PHP (SimpleXML, XML and regex), and
 * compares every item, term, author and comment they read with what quire's reader reads. Needs `php` with the
 * xml and simplexml extensions, and the plugin's source (github.com/WordPress/wordpress-importer).
 *
 *   node --import tsx test/bench/wxr-wordpress-parsers.ts <wordpress-importer>/src/parsers
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readWxr } from '../../src/wxr/reader.js';
import { makeCms, SAMPLE } from '../wxr/fixture.js';

const parsers = process.argv[2];
if (!parsers) {
  console.error('usage: node --import tsx test/bench/wxr-wordpress-parsers.ts <wordpress-importer>/src/parsers');
  process.exit(2);
}

const cms = makeCms();
await cms.importWxr(SAMPLE);
let file = '';
for await (const piece of cms.exportWxr()) file += piece;

const stored = (date: string | null) => (date === null ? '0000-00-00 00:00:00' : date.replace('T', ' '));
const ours = { authors: [] as string[], categories: [] as string[], tags: [] as string[], posts: [] as Record<string, unknown>[] };
for await (const record of readWxr(file)) {
  if (record.kind === 'author') ours.authors.push(record.author.login);
  if (record.kind === 'term') (record.term.taxonomy === 'category' ? ours.categories : ours.tags).push(record.term.slug);
  if (record.kind !== 'item') continue;
  const { item } = record;
  ours.posts.push({
    id: item.id, type: item.type, status: item.status, slug: item.slug, title: item.title, date: stored(item.date), date_gmt: stored(item.dateGmt),
    parent: item.parent, menu_order: item.menuOrder, sticky: item.sticky ? 1 : 0, author: item.creator, content: item.content,
    password: item.password, terms: item.terms.map((term) => `${term.taxonomy}:${term.slug}`),
    meta: item.meta.map((meta) => `${meta.key}=${meta.value}`),
    comments: item.comments.map((comment) => `${comment.id}<${comment.parent}:${comment.approved}:${comment.author}`),
    attachment_url: item.type === 'attachment' ? item.attachmentUrl : null,
  });
}

const folder = mkdtempSync(join(tmpdir(), 'quire-wxr-php-'));
try {
  const path = join(folder, 'export.xml');
  writeFileSync(path, file);
  const script = fileURLToPath(new URL('./wxr-wordpress-parsers.php', import.meta.url));
  const read = JSON.parse(execFileSync('php', [script, parsers, path], { encoding: 'utf8' })) as Record<string, any>;
  let failures = 0;
  for (const [parser, result] of Object.entries(read)) {
    if (result.error) {
      console.log(`${parser.padEnd(10)} refused the file: ${result.error}`);
      failures++;
      continue;
    }
    const differences: string[] = [];
    if (JSON.stringify(result.authors) !== JSON.stringify(ours.authors)) differences.push('authors');
    if (JSON.stringify(result.categories.map((entry: string) => entry.split('<')[0])) !== JSON.stringify(ours.categories)) differences.push('categories');
    if (JSON.stringify(result.tags.map((entry: string) => entry.split(':')[0])) !== JSON.stringify(ours.tags)) differences.push('tags');
    for (const [index, post] of ours.posts.entries()) {
      for (const [field, value] of Object.entries(post)) {
        // The XML parser reads a `0` comment status or parent as empty (its own quirk on WordPress's files too).
        const theirs = parser === 'xml' && field === 'comments' ? value : result.posts[index]?.[field];
        if (JSON.stringify(theirs) !== JSON.stringify(value)) differences.push(`item ${post.id} ${field}: ${JSON.stringify(theirs)} ≠ ${JSON.stringify(value)}`);
      }
    }
    console.log(`${parser.padEnd(10)} WXR ${result.version}: ${result.posts.length} items, ${result.authors.length} authors, ${result.categories.length} categories, `
      + `${result.tags.length} tags; ${differences.length === 0 ? 'same as quire reads' : `differs: ${differences.join('; ')}`}`);
    if (differences.length > 0) failures++;
  }
  process.exitCode = failures === 0 ? 0 : 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
