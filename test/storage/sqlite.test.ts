import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { ListQuery } from '../../src/ports/storage.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { runStorageConformance } from '../../src/testing/storage-conformance.js';
import { idsOf, seed } from '../../src/testing/conformance/support.js';
import { sqlStoreChecks } from './sql-store-checks.js';
import { migrate } from '../../src/storage/sqlite/migrate.js';
import { MIGRATIONS } from '../../src/storage/sqlite/schema.js';

runStorageConformance('sqlite', async () => sqliteStorage({ path: ':memory:' }));
sqlStoreChecks(async () => sqliteStorage({ path: ':memory:' }));

const folder = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const freshFile = () => path.join(folder, `store-${++files}.db`);

const published: ListQuery = {
  where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }],
  orderBy: [{ field: 'date', direction: 'desc' }],
  offset: 2,
  limit: 3,
  withTotal: true,
};

function post(index: number) {
  return {
    type: index % 4 === 0 ? 'page' : 'post',
    status: index % 3 === 0 ? 'draft' : 'publish',
    date: `2024-03-${String(1 + (index % 28)).padStart(2, '0')}T10:00:00`,
    title: `Entry ${index}`,
    content: index % 2 === 0 ? 'Contains the Needle here' : 'nothing to see',
    categories: [index % 3],
  };
}

describe('sqlite store: files', () => {
  it('finds everything again after reopening the file', async () => {
    const file = freshFile();
    const first = sqliteStorage({ path: file });
    await seed(first, 'posts', Array.from({ length: 40 }, (_, index) => post(index)));
    await first.update('posts', 6, { title: 'Renamed', content: 'a NEEDLE too' });
    await first.remove('posts', 40);
    await first.insert('terms', { name: 'News', slug: 'news' });
    const searches: ListQuery = { search: { fields: ['title', 'content'], terms: ['needle'] }, withTotal: true };
    const before = {
      posts: await first.list('posts', { withTotal: true }),
      published: await first.list('posts', published),
      search: await first.list('posts', searches),
      inCategory: await first.list('posts', { where: [{ field: 'categories', op: 'containsAny', values: [1] }] }),
      terms: await first.list('terms'),
    };
    await first.close();

    const second = sqliteStorage({ path: file });
    assert.deepEqual({
      posts: await second.list('posts', { withTotal: true }),
      published: await second.list('posts', published),
      search: await second.list('posts', searches),
      inCategory: await second.list('posts', { where: [{ field: 'categories', op: 'containsAny', values: [1] }] }),
      terms: await second.list('terms'),
    }, before);
    assert.equal(before.posts.total, 39);
    assert.equal(before.search.total, 21);
    assert.equal((await second.insert('posts', post(41))).id, 41, 'ids continue above every id held, even a removed one');
    assert.equal(second.schemaVersion(), MIGRATIONS.length);
    const migrations = second.database.prepare('SELECT count(*) AS applied FROM quire_migrations').get() as { applied: number };
    assert.equal(migrations.applied, MIGRATIONS.length, 'reopening applies no migration twice');
    await second.close();
  });

  it('leaves nothing of a transaction that failed half-way, on disk either', async () => {
    const file = freshFile();
    const store = sqliteStorage({ path: file });
    await store.insert('posts', post(1));
    await assert.rejects(store.transaction(async (tx) => {
      await tx.insert('posts', post(2));
      await tx.update('posts', 1, { title: 'changed' });
      await tx.insert('revisions', { parent: 1 });
      await tx.insert('posts', { id: 1, title: 'clash' });
    }), (error) => (error as { code?: string }).code === 'duplicate_id');
    await store.close();

    const reopened = sqliteStorage({ path: file });
    assert.deepEqual(idsOf(await reopened.list('posts')), [1]);
    assert.equal((await reopened.get('posts', 1))!.title, 'Entry 1');
    assert.deepEqual(await reopened.list('revisions', { withTotal: true }), { items: [], total: 0 });
    assert.equal((await reopened.insert('posts', post(3))).id, 2, 'the rolled-back insert did not use up an id');
    await reopened.close();
  });

  it('opens files in WAL mode', async () => {
    const store = sqliteStorage({ path: freshFile() });
    assert.equal(store.database.pragma('journal_mode', { simple: true }), 'wal');
    await store.close();
  });

  it('works on a host connection and leaves it open', async () => {
    const file = freshFile();
    const database = new Database(file);
    const store = sqliteStorage({ database });
    await store.insert('posts', post(1));
    await store.close();
    assert.equal(database.open, true);
    const row = database.prepare("SELECT count(*) AS records FROM quire_records WHERE collection = 'posts'").get() as { records: number };
    assert.equal(row.records, 1);
    const again = sqliteStorage({ database });
    assert.equal((await again.get('posts', 1))!.title, 'Entry 1');
    database.close();
  });

  it('brings an older database up to date, applying only the missing migrations', async () => {
    // A file as the first release left it: schema version 1, records written with its statements.
    const file = freshFile();
    const old = new Database(file);
    old.pragma("encoding = 'UTF-16be'");
    migrate(old, MIGRATIONS.slice(0, 1));
    const records = Array.from({ length: 30 }, (_, index) => post(index));
    records.push({ ...post(30), type: 7 as never }, { ...post(31), status: null as never });
    for (const [index, record] of records.entries()) {
      const { key } = old.prepare('INSERT INTO quire_records (collection, id, data) VALUES (?, ?, jsonb(?)) RETURNING key')
        .get('posts', index + 1, JSON.stringify(record)) as { key: number };
      old.prepare('INSERT INTO quire_text (rowid, title, excerpt, content) VALUES (?, ?, NULL, ?)').run(key, record.title.toLowerCase(), record.content.toLowerCase());
    }
    old.prepare("INSERT INTO quire_collections (name, last_id) VALUES ('posts', ?)").run(records.length);
    old.close();

    const upgraded = sqliteStorage({ path: file });
    assert.equal(upgraded.schemaVersion(), MIGRATIONS.length);
    const applied = upgraded.database.prepare('SELECT version FROM quire_migrations ORDER BY version').pluck().all();
    assert.deepEqual(applied, MIGRATIONS.map((migration) => migration.version));
    const index = upgraded.database.prepare("SELECT count(*) AS found FROM sqlite_master WHERE name = 'quire_records_parent_type_date'").get() as { found: number };
    assert.equal(index.found, 1);
    const expected = (where: (record: typeof records[number]) => boolean) => records.filter(where).length;
    const isPublishedPost = (record: typeof records[number]) => record.type === 'post' && record.status === 'publish';
    assert.equal((await upgraded.list('posts', published)).total, expected(isPublishedPost));
    assert.equal((await upgraded.list('posts', { withTotal: true, limit: 0 })).total, records.length);
    assert.equal((await upgraded.list('posts', { where: [{ field: 'type', op: 'in', values: ['page', 'post'] }], withTotal: true })).total, expected((record) => record.type !== 7));
    // Writes after the upgrade keep the counts in step.
    await upgraded.update('posts', 2, { status: 'publish', type: 'post' });
    await upgraded.remove('posts', 3);
    await upgraded.insert('posts', { type: 'post', status: 'publish' });
    const current = (await upgraded.list('posts', { orderBy: [{ field: 'date', direction: 'desc' }] })).items;
    assert.equal((await upgraded.list('posts', published)).total, current.filter((record) => record.type === 'post' && record.status === 'publish').length);
    assert.equal((await upgraded.list('posts', { search: { fields: ['content'], terms: ['needle'] }, withTotal: true })).total, 15);
    // Term arrays written before the members index existed are found through it.
    const inCategory = (await upgraded.list('posts', { where: [{ field: 'categories', op: 'containsAny', values: [1] }], withTotal: true })).total;
    assert.equal(inCategory, current.filter((record) => (record.categories as number[] | undefined)?.includes(1)).length);
    assert.ok(inCategory! > 5);
    await upgraded.close();
  });

  it('gives the members rows of a version 5 database what term lists read', async () => {
    const file = freshFile();
    const old = new Database(file);
    migrate(old, MIGRATIONS.slice(0, 5));
    const records = Array.from({ length: 40 }, (_, index) => post(index));
    for (const [index, record] of records.entries()) {
      old.prepare('INSERT INTO quire_records (collection, id, data) VALUES (?, ?, jsonb(?))').run('posts', index + 1, JSON.stringify(record));
    }
    old.prepare("INSERT INTO quire_collections (name, last_id) VALUES ('posts', ?)").run(records.length);
    old.close();

    const upgraded = sqliteStorage({ path: file });
    const query: ListQuery = { ...published, where: [...published.where!, { field: 'categories', op: 'containsAny', values: [1] }], limit: 100 };
    const expected = records.map((record, index) => ({ ...record, id: index + 1 }))
      .filter((record) => record.type === 'post' && record.status === 'publish' && record.categories.includes(1))
      .sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
    const listed = await upgraded.list('posts', query);
    assert.deepEqual(listed.items.map((item) => item.id), expected.slice(2).map((record) => record.id));
    assert.equal(listed.total, expected.length);
    // Changes after the upgrade move records in and out of the list.
    await upgraded.update('posts', expected[0]!.id, { status: 'draft' });
    await upgraded.update('posts', expected[1]!.id, { date: '2020-01-01T00:00:00' });
    assert.equal((await upgraded.list('posts', query)).total, expected.length - 1);
    assert.equal((await upgraded.list('posts', { ...query, offset: 0 })).items.at(-1)!.id, expected[1]!.id);
    await upgraded.close();
  });

  it('refuses a database that a newer version migrated further, and leaves it untouched', async () => {
    const file = freshFile();
    const store = sqliteStorage({ path: file });
    await store.insert('posts', post(1));
    store.database.prepare("INSERT INTO quire_migrations (version, name, applied_at) VALUES (99, 'from the future', '2099-01-01')").run();
    await store.close();
    assert.throws(() => sqliteStorage({ path: file }), /schema version 99/);
    const database = new Database(file, { readonly: true });
    assert.equal((database.prepare('SELECT count(*) AS records FROM quire_records').get() as { records: number }).records, 1);
    database.close();
  });

  it('makes a usable copy with backup()', async () => {
    const store = sqliteStorage({ path: freshFile() });
    await seed(store, 'posts', Array.from({ length: 10 }, (_, index) => post(index)));
    const copyFile = freshFile();
    const before = await store.list('posts', published);
    await store.backup(copyFile);
    await store.insert('posts', post(11));
    const copy = sqliteStorage({ path: copyFile });
    assert.equal((await copy.list('posts', { withTotal: true, limit: 0 })).total, 10);
    assert.deepEqual(await copy.list('posts', published), before);
    await copy.close();
    await store.close();
  });
});

describe('sqlite store: change token', () => {
  it('sees a commit made through another connection or process on its very next call', async () => {
    const file = freshFile();
    const first = sqliteStorage({ path: file });
    const second = sqliteStorage({ path: file });
    await first.insert('posts', post(1));
    let seen = await second.changeToken();
    const next = async (what: string, changed: boolean) => {
      const token = await second.changeToken();
      if (changed) assert.notEqual(token, seen, what);
      else assert.equal(token, seen, what);
      seen = token;
    };
    await first.insert('posts', post(2));
    await next('an insert through the other connection', true);
    await first.update('posts', 1, { title: 'renamed' });
    await next('an update through the other connection', true);
    await first.list('posts', { withTotal: true });
    await first.get('posts', 1);
    await second.list('posts', published);
    await next('reads on either connection', false);
    await assert.rejects(first.transaction(async (tx) => {
      await tx.insert('posts', post(3));
      await next('a write the other connection has not committed', false);
      throw new Error('rolled back');
    }), /rolled back/);
    await next('a transaction the other connection rolled back', false);
    await first.transaction(async (tx) => { await tx.remove('posts', 2); });
    await next('a transaction the other connection committed', true);

    // A write by another process, straight into the table: the token moves and the counts follow.
    const child = spawnSync(process.execPath, ['-e', `
      const Database = require('better-sqlite3');
      const db = new Database(process.argv[1]);
      db.prepare("INSERT INTO quire_records (collection, id, data) VALUES ('posts', 50, jsonb(?))").run(process.argv[2]);
      db.close();`, file, JSON.stringify(post(5))], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    await next('a commit by another process', true);
    assert.equal((await second.list('posts', { withTotal: true, limit: 0 })).total, 2);
    assert.equal((await first.list('posts', published)).total, 2);
    await first.close();
    await second.close();
  });
});

describe('sqlite store: writes since a change token', () => {
  it('names its own writes, and tells nothing once another connection or process has committed', async () => {
    const file = freshFile();
    const store = sqliteStorage({ path: file });
    const other = sqliteStorage({ path: file });
    const first = await store.insert('posts', post(1));
    const token = await store.changeToken();
    const updated = await store.update('posts', first.id, { title: 'renamed' });
    assert.deepEqual(store.writtenSince(token), [{ collection: 'posts', id: first.id, before: first, after: updated }]);

    await other.insert('posts', post(2));
    assert.equal(store.writtenSince(token), null, 'a commit through another connection: the store cannot tell');
    const later = await store.changeToken();
    assert.deepEqual(store.writtenSince(later), []);
    await store.remove('posts', first.id);
    assert.deepEqual(store.writtenSince(later), [{ collection: 'posts', id: first.id, before: updated, after: null }]);

    const last = await store.changeToken();
    const child = spawnSync(process.execPath, ['-e', `
      const Database = require('better-sqlite3');
      const db = new Database(process.argv[1]);
      db.prepare("INSERT INTO quire_records (collection, id, data) VALUES ('terms', 50, jsonb(?))").run('{"name":"x"}');
      db.close();`, file], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    assert.equal(store.writtenSince(last), null, 'a commit by another process: the store cannot tell');
    await store.close();
    await other.close();
  });
});

describe('sqlite store: planner statistics', () => {
  it('follow the text index\'s own tables as they grow, not only the tables quire queries', async () => {
    const store = sqliteStorage({ path: ':memory:' });
    const rowsSeen = () => Number((store.database.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'quire_text_data'").get() as { stat: string }).stat);
    const atStart = rowsSeen();
    for (let index = 0; index < 1500; index++) {
      await store.insert('posts', { type: 'post', status: 'publish', title: `Entry ${index}`, content: `Words about entry ${index}` });
    }
    // FTS5 reads these tables with statements of its own; statistics left from the empty start made a merge of
    // a grown index choose plans that took hundreds of milliseconds.
    assert.ok(rowsSeen() >= 10 * atStart, `statistics of quire_text_data still say ${rowsSeen()} rows (at start ${atStart})`);
    await store.close();
  });
});

describe('sqlite store: query plans', () => {
  it('answers typical lists from indexes, without sorting or scanning', async () => {
    const store = sqliteStorage({ path: ':memory:' });
    await seed(store, 'posts', Array.from({ length: 500 }, (_, index) => post(index)));
    const plan = store.explain('posts', published);
    assert.deepEqual(plan, ['SEARCH r USING INDEX quire_records_type_status_date (collection=? AND f_type=? AND f_status=?)']);
    const dateWindow = store.explain('posts', {
      ...published,
      where: [...published.where!, { field: 'date', op: 'gte', value: '2024-03-05' }, { field: 'date', op: 'lt', value: '2024-03-09' }],
    });
    assert.deepEqual(dateWindow, ['SEARCH r USING INDEX quire_records_type_status_date (collection=? AND f_type=? AND f_status=? AND f_date>? AND f_date<?)']);
    const bySlug = store.explain('posts', { where: [{ field: 'slug', op: 'eq', value: 'entry-3' }] });
    assert.match(bySlug.join('\n'), /USING INDEX quire_records_slug \(collection=\? AND f_slug=\?\)/);
    const children = store.explain('posts', {
      where: [{ field: 'parent', op: 'eq', value: 0 }],
      orderBy: [{ field: 'menu_order', direction: 'asc' }],
      limit: 10,
    });
    assert.deepEqual(children, ['SEARCH r USING INDEX quire_records_parent (collection=? AND f_parent=?)']);
    const inCategory = store.explain('posts', { ...published, where: [...published.where!, { field: 'categories', op: 'containsAny', values: [1, 2] }] });
    assert.deepEqual(inCategory.slice(0, 3), [
      'SEARCH r USING INDEX quire_records_type_status_date (collection=? AND f_type=? AND f_status=?)',
      'LIST SUBQUERY 1',
      'SEARCH quire_members USING COVERING INDEX quire_members_list (field=? AND value=?)',
    ]);
    // One category: its members rows come in date order, each leading to its record; nothing is sorted.
    const oneCategory = store.explain('posts', { ...published, where: [...published.where!, { field: 'categories', op: 'containsAny', values: [1] }] });
    assert.deepEqual(oneCategory, [
      'SEARCH m USING COVERING INDEX quire_members_list (field=? AND value=? AND collection=? AND type=?)',
      'SEARCH r USING INTEGER PRIMARY KEY (rowid=?)',
    ]);
    const byAuthor = store.explain('posts', { ...published, where: [...published.where!, { field: 'author', op: 'eq', value: 3 }] });
    assert.deepEqual(byAuthor, ['SEARCH r USING INDEX quire_records_author_type_status_date (collection=? AND f_author=? AND f_type=? AND f_status=?)']);
    await store.close();
  });

  it('writes a transaction\'s texts to the text index together, and finds them from inside it', async () => {
    const store = sqliteStorage({ path: ':memory:' });
    const indexed = () => (store.database.prepare("SELECT count(*) AS n FROM quire_text WHERE quire_text MATCH '\"needle\"'").get() as { n: number }).n;
    const needle: ListQuery = { search: { fields: ['title', 'content'], terms: ['needle'] }, withTotal: true, limit: 0 };
    await seed(store, 'posts', Array.from({ length: 10 }, (_, index) => post(index)));
    assert.equal(indexed(), 5);
    await store.transaction(async (tx) => {
      for (let index = 10; index < 510; index++) await tx.insert('posts', post(index));
      assert.equal(indexed(), 5, 'the texts wait for the end of the transaction');
      for (let index = 510; index < 2510; index++) await tx.insert('posts', post(index));
      assert.ok(indexed() > 5, 'unless many wait');
      await tx.update('posts', 1, { content: 'the needle moved in' });
      await tx.remove('posts', 2);
      // Records 1 to 10 hold post(0) to post(9); post(n) mentions the needle when n is even.
      assert.equal((await tx.list('posts', needle)).total, 5 + 1250, 'the transaction finds its own texts');
      assert.equal((await store.list('posts', needle)).total, 5, 'a read beside it sees committed records only');
      for (let index = 2510; index < 2520; index++) await tx.insert('posts', post(index));
    });
    assert.equal(indexed(), 1260);
    assert.equal((await store.list('posts', needle)).total, 1260);

    await assert.rejects(store.transaction(async (tx) => {
      await tx.insert('posts', { title: 'lost needle' });
      await tx.update('posts', 5, { content: 'nothing' });
      assert.equal((await tx.list('posts', needle)).total, 1260);
      throw new Error('rolled back');
    }), /rolled back/);
    await store.transaction(async (tx) => {
      await tx.insert('posts', { title: 'kept needle' });
      await assert.rejects(tx.transaction(async (inner) => {
        await inner.insert('posts', { title: 'inner needle' });
        await inner.remove('posts', 7);
        throw new Error('inner rolled back');
      }), /inner rolled back/);
    });
    const found = await store.list('posts', { ...needle, limit: undefined, orderBy: [{ field: 'id', direction: 'desc' }] });
    assert.equal(found.total, 1261);
    assert.equal(found.items[0]!.title, 'kept needle');
    assert.ok(found.items.some((item) => item.id === 5) && found.items.some((item) => item.id === 7));
    // The index answers exactly what reading every record answers.
    const scanned = await store.list('posts', { where: [{ op: 'or', conditions: [{ field: 'title', op: 'textContains', value: 'ne' }, { field: 'content', op: 'textContains', value: 'needle' }] }], withTotal: true, limit: 0 });
    assert.equal(scanned.total, 1261);
    await store.close();
  });

  it('narrows text search with the trigram index and still checks every match exactly', async () => {
    const store = sqliteStorage({ path: ':memory:' });
    await seed(store, 'posts', Array.from({ length: 200 }, (_, index) => post(index)));
    const query: ListQuery = { search: { fields: ['title', 'excerpt', 'content'], terms: ['NEEDLE'] }, withTotal: true };
    assert.match(store.explain('posts', query).join('\n'), /SCAN quire_text VIRTUAL TABLE/);
    assert.equal((await store.list('posts', query)).total, 100);
    // Short terms and fields outside the text index fall back to reading the records.
    const short = store.explain('posts', { search: { fields: ['title', 'content'], terms: ['ne'] } }).join('\n');
    assert.doesNotMatch(short, /quire_text/);
    const otherField = store.explain('posts', { search: { fields: ['title', 'slug'], terms: ['needle'] } }).join('\n');
    assert.doesNotMatch(otherField, /quire_text/);
    await store.close();
  });
});
