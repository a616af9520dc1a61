/**
 * An import runs in one transaction that takes a while; meanwhile the site keeps answering other requests. They
 * must see the site as it was until the import commits, and nothing of it at all when it fails.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { WxrError } from '../../src/wxr/index.js';
import { send } from '../helpers/request.js';
import { postgresForTests } from '../storage/postgres-setup.js';
import { item, makeCms, wxr } from './fixture.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-import-isolation-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const IMPORTED = 40;
const BROKEN = '\t<item><title>Broken</title><wp:post_id>999</wp:post_id>\n\t\t<wp:post_type>post</wp:status>\n\t</item>\n';
const MARK = '<!-- the rest of the file -->\n';

/** An export of `IMPORTED` published posts in one category, then `tail`: the file arrives in two parts. */
function twoParts(tail: string): [string, string] {
  const items = Array.from({ length: IMPORTED }, (_, index) => item({
    id: 100 + index, type: 'post', title: `Imported ${index}`, slug: `imported-${index}`, status: 'publish',
    date: `2024-02-${String(1 + (index % 28)).padStart(2, '0')} 10:00:00`,
    extra: '\t\t<category domain="category" nicename="news"><![CDATA[News]]></category>\n',
  })).join('');
  const file = wxr(`${items}${MARK}${tail}`);
  const at = file.indexOf(MARK);
  return [file.slice(0, at), file.slice(at)];
}

/** What an anonymous visitor is shown of the site's lists. */
async function visible(cms: ReturnType<typeof makeCms>) {
  const posts = await send(cms, 'GET', '/cms/v2/posts?per_page=100');
  const found = await send(cms, 'GET', '/cms/v2/posts?search=imported&per_page=100');
  const categories = await send(cms, 'GET', '/cms/v2/categories');
  const authors = await send(cms, 'GET', '/cms/v2/users');
  return {
    posts: posts.json.map((post: { title: { rendered: string } }) => post.title.rendered),
    total: posts.headers['X-WP-Total'],
    found: found.json.length,
    categories: categories.json.map((term: { slug: string }) => term.slug),
    authors: authors.json.map((user: { slug: string }) => user.slug),
  };
}

const stores: [string, () => StoragePort | Promise<StoragePort>, ((storage: StoragePort) => number) | null][] = [
  // A file's writing connection is on the store's writing thread: its uncommitted rows cannot be counted from here.
  ['SQLite file', () => sqliteStorage({ path: path.join(folder, `site-${Date.now()}-${Math.random()}.db`) }), null],
  ['SQLite :memory:', () => sqliteStorage({ path: ':memory:' }), writtenRows],
  ['memory', () => createMemoryStorage(), null],
];

// On PostgreSQL the import's transaction holds a connection of the pool; other requests read on the others.
const postgres = await postgresForTests('an import in progress, PostgreSQL', { schemaPrefix: 'quire_import' });
if (postgres) {
  stores.push(['PostgreSQL', () => postgresStorage({ connectionString: postgres.server.connectionString, schema: postgres.freshSchema(), max: 4 }), null]);
}

/** The posts the writing connection holds, uncommitted ones included. */
function writtenRows(storage: StoragePort): number {
  const { database } = storage as ReturnType<typeof sqliteStorage>;
  return (database.prepare("SELECT count(*) AS n FROM quire_records WHERE collection = 'posts'").get() as { n: number }).n;
}

for (const [name, open, rowsWritten] of stores) {
  describe(`an import in progress, ${name}`, () => {
    /**
     * Starts an import of `twoParts(tail)` and resolves once every post of the first part is written inside its
     * transaction; `finish` lets the rest of the file through.
     */
    async function paused(cms: ReturnType<typeof makeCms>, tail: string) {
      const [head, rest] = twoParts(tail);
      let finish!: () => void;
      const gate = new Promise<void>((resolve) => { finish = resolve; });
      let written!: () => void;
      const firstPartWritten = new Promise<void>((resolve) => { written = resolve; });
      async function* source() {
        yield head;
        await gate;
        yield rest;
      }
      const outcome = cms.importWxr(source(), {
        onProgress: (progress) => { if (progress.items >= IMPORTED) written(); },
      });
      outcome.catch(() => {});
      await firstPartWritten;
      return { finish, outcome };
    }

    async function site() {
      const storage = await open();
      const cms = makeCms({ storage });
      const admin = await cms.users.create({ login: 'admin', email: 'admin@new.example', roles: ['administrator'] });
      const created = await send(cms, 'POST', '/cms/v2/posts', { json: { title: 'Already here', status: 'publish' }, user: { id: admin.id } });
      assert.equal(created.status, 201);
      return { storage, cms };
    }

    test('readers never see an import that then fails, before or after it fails', async () => {
      const { storage, cms } = await site();
      const before = await visible(cms);
      assert.deepEqual([before.posts, before.total], [['Already here'], '1']);
      const rowsBefore = rowsWritten?.(storage);

      const { finish, outcome } = await paused(cms, BROKEN);
      if (rowsWritten) assert.ok(rowsWritten(storage) >= rowsBefore! + IMPORTED, 'the import has written its posts, uncommitted');
      assert.deepEqual(await visible(cms), before, 'another request, in the middle of the import, sees the site as it was');
      assert.equal((await storage.list('posts', { withTotal: true, limit: 0 })).total, 1);

      finish();
      await assert.rejects(outcome, (error) => error instanceof WxrError && error.code === 'wxr_parse_error');
      assert.deepEqual(await visible(cms), before, 'and after the import failed, nothing of it');
      if (rowsWritten) assert.equal(rowsWritten(storage), rowsBefore);
      await storage.close?.();
    });

    test('readers see an import once it commits, all at once', async () => {
      const { storage, cms } = await site();
      const before = await visible(cms);
      const { finish, outcome } = await paused(cms, '');
      assert.deepEqual(await visible(cms), before);
      finish();
      const summary = await outcome;
      assert.equal(summary.created.posts, IMPORTED);
      const afterwards = await visible(cms);
      assert.equal(afterwards.total, String(IMPORTED + 1));
      assert.equal(afterwards.found, IMPORTED);
      assert.ok(afterwards.categories.includes('news'));
      assert.ok(afterwards.authors.includes('jane'));
      await storage.close?.();
    });
  });
}
