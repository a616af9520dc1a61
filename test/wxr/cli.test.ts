import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { assertNoStackTrace, run } from '../cli/helpers.js';
import { item, SAMPLE, SAMPLE_ITEMS, wxr } from './fixture.js';

const folder = mkdtempSync(join(tmpdir(), 'quire-wxr-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** The parts of an export that name the moment it was written. */
const withoutTimes = (file: string) => file.replace(/created="[^"]*"/, '').replace(/<pubDate>[^<]*<\/pubDate>\n/, '');
const items = (file: string) => file.match(/<item>/g)?.length ?? 0;

describe('quire import and quire export', () => {
  test('import a WordPress export, export it, import that into a new store, and export the same file again', async () => {
    const source = join(folder, 'site.xml');
    writeFileSync(source, SAMPLE);
    const first = join(folder, 'first.db');
    const imported = await run(['import', source, '--data', first, '--site-url', 'https://new.example']).finished;
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /^quire import: created 3 users, 3 categories, 2 tags, 7 posts, 3 pages, 1 attachments, 3 comments$/m);
    assert.match(imported.stdout, /skipped: taxonomy:nav_menu 1, type:nav_menu_item 1/);
    // Not a terminal: plain progress lines on standard error, ending with the finished counts.
    assert.match(imported.stderr, /^quire import: 12 items \(\d+\/s\), 3 authors, 6 terms, 3 comments, 0 files, 0\.0 MB read \[done\]$/m);
    assert.doesNotMatch(imported.stderr, /\x1b\[/);

    const exported = await run(['export', '--data', first, '--site-url', 'https://new.example']).finished;
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(items(exported.stdout), 11);
    assert.match(exported.stdout, /<wp:base_site_url>https:\/\/new\.example<\/wp:base_site_url>/);

    const copy = join(folder, 'copy.xml');
    writeFileSync(copy, exported.stdout);
    const second = join(folder, 'second.db');
    assert.equal((await run(['import', copy, '--data', second, '--site-url', 'https://new.example']).finished).code, 0);
    const output = join(folder, 'again.xml');
    const again = await run(['export', '--data', second, '--site-url', 'https://new.example', '--output', output]).finished;
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, '');
    assert.equal(withoutTimes(readFileSync(output, 'utf8')), withoutTimes(exported.stdout));
  });

  test('a malformed file exits with its line, no stack trace, and an untouched store', async () => {
    const bad = join(folder, 'bad.xml');
    const file = wxr(`${SAMPLE_ITEMS}\t<item>\n\t\t<wp:post_id>99</wp:post_id>\n\t\t<wp:post_type>post</wp:post_typo>\n\t</item>\n`);
    writeFileSync(bad, file);
    const line = file.slice(0, file.indexOf('</wp:post_typo>')).split('\n').length;
    const data = join(folder, 'bad.db');
    const refused = await run(['import', bad, '--data', data]).finished;
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`^quire: .*bad\\.xml: line ${line}: </wp:post_typo> does not close <wp:post_type> \\(opened on line ${line}\\)$`, 'm'));
    assert.match(refused.stderr, /^quire: nothing was imported\.$/m);
    assertNoStackTrace(refused.stderr);
    const exported = await run(['export', '--data', data]).finished;
    assert.equal(items(exported.stdout), 0);
    assert.doesNotMatch(exported.stdout, /<wp:author>/);
  });

  test('an export to a file larger than the stream\'s buffer many times over prints no listener warning', async () => {
    const paragraph = `<p>${'The harbour at dawn. '.repeat(1000)}</p>`;
    const posts = Array.from({ length: 40 }, (_, index) => item({
      id: index + 1, title: `Post ${index + 1}`, slug: `post-${index + 1}`, status: 'publish', type: 'post', date: '2024-01-01 00:00:00', content: paragraph,
    })).join('');
    const source = join(folder, 'large.xml');
    writeFileSync(source, wxr(posts));
    const data = join(folder, 'large.db');
    assert.equal((await run(['import', source, '--data', data]).finished).code, 0);
    const output = join(folder, 'large-out.xml');
    const exported = await run(['export', '--data', data, '-o', output]).finished;
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stderr, '');
    assert.equal(items(readFileSync(output, 'utf8')), 40);
  });

  test('mistakes on the command line are explained', async () => {
    const cases: [string[], RegExp][] = [
      [['import', 'a.xml', '--port', '80'], /--port is not an option of 'quire import'/],
      [['import', join(folder, 'missing.xml'), '--storage', 'memory'], /cannot read .*missing\.xml: ENOENT/],
    ];
    for (const [args, message] of cases) {
      const finished = await run(args).finished;
      assert.notEqual(finished.code, 0, args.join(' '));
      assert.match(finished.stderr, message);
      assertNoStackTrace(finished.stderr);
    }
  });
});
