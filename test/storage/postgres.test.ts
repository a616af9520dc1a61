import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { isStorageError } from '../../src/ports/storage.js';
import type { ListQuery } from '../../src/ports/storage.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { migrate } from '../../src/storage/postgres/migrate.js';
import { MIGRATIONS } from '../../src/storage/postgres/schema.js';
import { runStorageConformance } from '../../src/testing/storage-conformance.js';
import { idsOf, seed } from '../../src/testing/conformance/support.js';
import { postgresForTests } from './postgres-setup.js';
import { sqlStoreChecks } from './sql-store-checks.js';

const postgres = await postgresForTests('postgres store', { schemaPrefix: 'quire_test', poolSize: 20 });

if (postgres) {
  const { server, pool, freshSchema } = postgres;
  runStorageConformance('postgres', async () => postgresStorage({ pool, schema: freshSchema() }));
  sqlStoreChecks(async () => postgresStorage({ pool, schema: freshSchema() }));

  const published: ListQuery = {
    where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }],
    orderBy: [{ field: 'date', direction: 'desc' }],
    offset: 20,
    limit: 10,
    withTotal: true,
  };
  const post = (index: number) => ({
    type: index % 5 === 0 ? 'page' : 'post',
    status: index % 7 === 0 ? 'draft' : 'publish',
    date: new Date(Date.UTC(2020, 0, 1) + index * 3_600_000).toISOString().slice(0, 19),
    title: `Entry ${index}`,
    content: index % 50 === 0 ? 'the rare needle' : 'common words only',
    slug: `entry-${index}`,
  });

  describe('postgres store: several processes on one database', () => {
    it('assigns distinct ids, serialises transactions and keeps check-then-insert safe', async () => {
      const schema = freshSchema();
      const store = await postgresStorage({ pool, schema });
      await store.insert('counters', { value: 0 });
      const rounds = 30;
      const writerScript = fileURLToPath(new URL('./postgres-writer.ts', import.meta.url));
      const runWriter = (name: string) => new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', writerScript, server.connectionString, schema, name, String(rounds)], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let errors = '';
        child.stderr.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${name} exited with ${code}: ${errors}`))));
      });
      await Promise.all([runWriter('first'), runWriter('second')]);

      const entries = await store.list('entries', { withTotal: true });
      assert.equal(entries.total, 2 * rounds);
      assert.deepEqual(idsOf(entries), Array.from({ length: 2 * rounds }, (_, index) => index + 1));
      for (const writer of ['first', 'second']) {
        const own = await store.list('entries', { where: [{ field: 'writer', op: 'eq', value: writer }], orderBy: [{ field: 'id', direction: 'asc' }] });
        assert.deepEqual(own.items.map((item) => item.round), Array.from({ length: rounds }, (_, index) => index));
      }
      assert.equal((await store.get('counters', 1))!.value, 2 * rounds, 'no increment was lost');
      const slugs = (await store.list('posts')).items.map((item) => item.slug);
      assert.deepEqual([...slugs].sort(), Array.from({ length: 7 }, (_, index) => `slug-${index}`));
      assert.equal((await store.list('entries', { limit: 0, withTotal: true })).total, 2 * rounds, 'the counts kept up');
      const { rows } = await pool.query(`SELECT (SELECT count(*)::int FROM ${schema}.quire_counts WHERE collection = 'entries') AS keys,
        (SELECT count(*)::int FROM ${schema}.quire_count_changes) AS unmerged`);
      assert.deepEqual(rows[0], { keys: 1, unmerged: 0 }, 'the counts were merged after each write');
      await store.close();
    });
  });

  describe('postgres store: change token', () => {
    it('changes in one process on its very next call after another process commits a write, and only then', async () => {
      const schema = freshSchema();
      const store = await postgresStorage({ pool, schema });
      await store.insert('posts', { type: 'post', status: 'publish', title: 'first' });
      const writerScript = fileURLToPath(new URL('./postgres-token-writer.ts', import.meta.url));
      const child = spawn(process.execPath, ['--import', 'tsx', writerScript, server.connectionString, schema], { stdio: ['pipe', 'pipe', 'pipe'] });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
      const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      /** Has the other process carry out a command; resolves to the token it sees afterwards. */
      const inOtherProcess = async (command: string): Promise<string> => {
        child.stdin.write(`${command}\n`);
        const answer = await answers.next();
        if (answer.done) throw new Error(`the other process ended: ${errors}`);
        return answer.value.replace(/^done /, '');
      };
      try {
        let mine = await store.changeToken();
        assert.equal(await inOtherProcess('read'), mine, 'both processes see one generation');
        for (const write of ['insert', 'update', 'remove']) {
          const theirs = await inOtherProcess(write);
          const next = await store.changeToken();
          assert.notEqual(next, mine, `the other process's ${write} shows at once`);
          assert.equal(next, theirs);
          mine = next;
        }
        assert.equal(await inOtherProcess('read'), mine, 'reads leave it alone');
        assert.equal(await inOtherProcess('rollback'), mine, 'a rolled-back transaction leaves it alone');
        assert.equal(await store.changeToken(), mine);
        assert.equal((await store.list('posts', { where: [{ field: 'status', op: 'eq', value: 'publish' }], withTotal: true })).total, 1);
        await store.update('posts', 1, { title: 'mine' });
        assert.notEqual(await inOtherProcess('read'), mine, 'and the other way round');
      } finally {
        child.stdin.end();
        await new Promise((resolve) => child.once('exit', resolve));
        await store.close();
      }
    });

    it('goes up once per writing transaction, whoever writes the rows', async () => {
      const schema = freshSchema();
      const store = await postgresStorage({ pool, schema });
      const before = Number(await store.changeToken());
      await store.transaction(async (tx) => {
        for (let index = 0; index < 20; index++) await tx.insert('posts', post(index));
        await tx.update('posts', 3, { status: 'draft' });
        await tx.remove('posts', 4);
      });
      assert.equal(Number(await store.changeToken()), before + 1);
      // A statement from outside the store (a host's maintenance script) is counted as well.
      await pool.query(`DELETE FROM ${schema}.quire_records WHERE collection = 'posts' AND id = 5`);
      assert.equal(Number(await store.changeToken()), before + 2);
      assert.equal((await store.list('posts', { limit: 0, withTotal: true })).total, 18);
      // Ids count from 1: the update drafted post(2), the removes took post(3) and post(4).
      const records = Array.from({ length: 20 }, (_, index) => post(index));
      records[2]!.status = 'draft';
      const left = records.filter((_, index) => index !== 3 && index !== 4);
      assert.equal((await store.list('posts', published)).total, left.filter((record) => record.type === 'post' && record.status === 'publish').length);
      await store.close();
    });
  });

  describe('postgres store: writes since a change token', () => {
    it('tells its own commits, and nothing once another connection or process has committed', async () => {
      const schema = freshSchema();
      const store = await postgresStorage({ pool, schema });
      const other = await postgresStorage({ pool, schema });
      try {
        const start = await store.changeToken();
        const first = await store.insert('posts', { type: 'post', title: 'first' });
        const afterFirst = await store.changeToken();
        assert.deepEqual(store.writtenSince(start), [{ collection: 'posts', id: first.id, before: null, after: first }]);
        first.title = 'changed by the caller';
        assert.equal(store.writtenSince(start)![0]!.after!.title, 'first', 'the log keeps its own copy');

        // Another store on the same schema commits: no token before its commit is answered once a later one is out.
        await other.update('posts', first.id, { title: 'theirs' });
        assert.deepEqual(store.writtenSince(afterFirst), [], 'their commit is not known until a token shows it');
        const afterTheirs = await store.changeToken();
        assert.equal(store.writtenSince(afterFirst), null);
        assert.equal(store.writtenSince(start), null);

        // Own commits after it are told from its state on.
        const renamed = (await store.update('posts', first.id, { title: 'mine' }))!;
        const removed = await store.transaction(async (tx) => {
          await tx.insert('terms', { id: 7, name: 'tag' });
          return tx.remove('terms', 7);
        });
        assert.equal(removed, true);
        assert.equal(store.writtenSince(afterFirst), null);
        const writes = store.writtenSince(afterTheirs)!;
        assert.deepEqual(writes.map(({ collection, id, before, after }) => [collection, id, before?.title ?? before?.name ?? null, after?.title ?? after?.name ?? null]), [
          ['posts', first.id, 'theirs', 'mine'],
          // Written twice in one commit: once, as it was before the first and after the last.
          ['terms', 7, null, null],
        ]);
        assert.equal(renamed.title, 'mine');

        // A statement from outside any store (a host's script): the next token makes every older one unknown.
        const beforeScript = await store.changeToken();
        await pool.query(`UPDATE ${schema}.quire_records SET data = data || '{"title":"script"}' WHERE collection = 'posts'`);
        await store.insert('posts', { type: 'post', title: 'second' });
        assert.equal(store.writtenSince(beforeScript), null, 'the script\'s generation is not one of the store\'s commits');
        await store.changeToken();
        assert.equal(store.writtenSince(beforeScript), null);

        // A rolled-back savepoint's writes are not told; a transaction writing nothing moves nothing.
        const beforeSavepoint = await store.changeToken();
        await store.transaction(async (tx) => {
          await tx.transaction(async (inner) => {
            await inner.insert('posts', { type: 'post', title: 'undone' });
            throw new Error('undo');
          }).catch(() => {});
          await tx.insert('posts', { type: 'post', title: 'kept' });
        });
        await store.transaction(async (tx) => tx.get('posts', first.id));
        assert.deepEqual(store.writtenSince(beforeSavepoint)!.map((write) => write.after?.title), ['kept']);
        assert.equal(store.writtenSince(String(Number(await store.changeToken()) + 1)), null, 'a token not handed out');
      } finally {
        await other.close();
        await store.close();
      }
    });
  });

  describe('postgres store: transactions', () => {
    it('keeps a transaction\'s writes from everyone else until it ends, and leaves nothing when it fails', async () => {
      const schema = freshSchema();
      const store = await postgresStorage({ pool, schema });
      const otherProcess = await postgresStorage({ pool, schema });
      await seed(store, 'posts', [post(1), post(2)]);
      let otherWriteDone = false;
      let otherWrite: Promise<unknown> | undefined;
      const failure = new Error('half-way');
      await assert.rejects(store.transaction(async (tx) => {
        await tx.insert('posts', post(3));
        await tx.update('posts', 1, { title: 'changed' });
        await tx.remove('posts', 2);
        await tx.insert('revisions', { parent: 1 });
        assert.equal(await otherProcess.get('posts', 3), null, 'uncommitted insert is invisible');
        assert.equal((await otherProcess.get('posts', 1))!.title, 'Entry 1', 'uncommitted update is invisible');
        assert.deepEqual(idsOf(await otherProcess.list('posts')), [1, 2]);
        otherWrite = otherProcess.insert('posts', post(4)).then((record) => { otherWriteDone = true; return record; });
        await delay(50);
        assert.equal(otherWriteDone, false, 'a write from elsewhere waits for the transaction');
        throw failure;
      }), (error) => error === failure);
      const written = (await otherWrite) as { id: number };
      assert.equal(written.id, 3, 'the failed transaction used up no id');
      assert.deepEqual((await store.list('posts')).items.map((item) => item.title), ['Entry 1', 'Entry 2', 'Entry 4']);
      assert.deepEqual(await store.list('revisions', { withTotal: true }), { items: [], total: 0 });
      await otherProcess.close();
      await store.close();
    });

    it('refuses strings PostgreSQL cannot hold, storing nothing', async () => {
      const store = await postgresStorage({ pool, schema: freshSchema() });
      await store.insert('posts', { title: 'fine' });
      for (const bad of [{ title: 'nul \u0000 inside' }, { title: 'lone \ud800 surrogate' }, { ['key\u0000']: 1 }, { nested: { deep: ['\udc00'] } }]) {
        await assert.rejects(store.insert('posts', bad), (error) => isStorageError(error, 'invalid_record'), JSON.stringify(bad));
        await assert.rejects(store.update('posts', 1, bad), (error) => isStorageError(error, 'invalid_record'), JSON.stringify(bad));
      }
      assert.deepEqual((await store.list('posts', { withTotal: true })), { items: [{ id: 1, title: 'fine' }], total: 1 });
      assert.deepEqual((await store.insert('posts', { title: 'paired 😀 surrogates' })).title, 'paired 😀 surrogates');
      await store.close();
    });
  });

  describe('postgres store: schema', () => {
    it('migrates once, and refuses a schema that a newer version migrated further', async () => {
      const schema = freshSchema();
      const first = await postgresStorage({ pool, schema });
      await first.insert('posts', post(1));
      assert.equal(await first.schemaVersion(), MIGRATIONS.length);
      await first.close();
      const second = await postgresStorage({ pool, schema });
      assert.equal(await second.schemaVersion(), MIGRATIONS.length);
      const { rows } = await pool.query(`SELECT count(*)::int AS applied FROM ${schema}.quire_migrations`);
      assert.equal(rows[0].applied, MIGRATIONS.length);
      assert.equal((await second.get('posts', 1))!.title, 'Entry 1');
      await second.close();
      await pool.query(`INSERT INTO ${schema}.quire_migrations (version, name) VALUES (99, 'from the future')`);
      await assert.rejects(postgresStorage({ pool, schema }), /version 99/);
    });

    it('brings a schema of the first release up to date, counting the records it holds', async () => {
      const schema = freshSchema();
      await migrate(pool, schema, MIGRATIONS.slice(0, 1));
      // Rows as the first release wrote them.
      const records: (ReturnType<typeof post> & { categories?: unknown })[] = Array.from({ length: 40 }, (_, index) => ({ ...post(index), categories: index % 4 === 0 ? [`${index % 3}`] : [index % 3, 2.0] }));
      records.push({ ...post(40), type: 3 as never, categories: 1 }, { ...post(41), status: undefined as never });
      for (const [index, record] of records.entries()) {
        const folded = Object.fromEntries(Object.entries(record).filter(([, value]) => typeof value === 'string').map(([field, value]) => [field, (value as string).toLowerCase()]));
        await pool.query(`INSERT INTO ${schema}.quire_records (collection, id, data, folded) VALUES ('posts', $1, $2, $3)`, [index + 1, JSON.stringify(record), JSON.stringify(folded)]);
      }
      await pool.query(`INSERT INTO ${schema}.quire_collections (name, last_id) VALUES ('posts', $1)`, [records.length]);

      const store = await postgresStorage({ pool, schema });
      assert.equal(await store.schemaVersion(), MIGRATIONS.length);
      const isPublishedPost = (record: typeof records[number]) => record.type === 'post' && record.status === 'publish';
      assert.equal((await store.list('posts', published)).total, records.filter(isPublishedPost).length);
      assert.equal((await store.list('posts', { limit: 0, withTotal: true })).total, records.length);
      const token = await store.changeToken();
      await store.update('posts', 2, { type: 'post', status: 'publish' });
      assert.notEqual(await store.changeToken(), token);
      records[1] = { ...records[1]!, type: 'post', status: 'publish' };
      assert.equal((await store.list('posts', published)).total, records.filter(isPublishedPost).length);
      assert.equal((await store.list('posts', { search: { fields: ['content'], terms: ['needle'] }, withTotal: true })).total, 1);
      // Term arrays stored before the members table existed are found through it, types kept apart.
      const holding = (value: unknown) => records.filter((record) => Array.isArray(record.categories) && record.categories.includes(value)).length;
      assert.equal((await store.list('posts', { where: [{ field: 'categories', op: 'containsAny', values: [1] }], withTotal: true })).total, holding(1));
      assert.equal((await store.list('posts', { where: [{ field: 'categories', op: 'containsAny', values: ['1'] }], withTotal: true })).total, holding('1'));
      assert.equal((await store.list('posts', { where: [{ field: 'categories', op: 'containsAll', values: [2, 0] }], withTotal: true })).total,
        records.filter((record) => Array.isArray(record.categories) && record.categories.includes(0) && record.categories.includes(2)).length);
      // A posts list of one term reads the type, status and date the upgrade copied into the members rows.
      const termList = await store.list('posts', { ...published, offset: 0, limit: 100, where: [...published.where!, { field: 'categories', op: 'containsAny', values: [2] }] });
      const expected = records.map((record, index) => ({ ...record, id: index + 1 }))
        .filter((record) => isPublishedPost(record) && Array.isArray(record.categories) && record.categories.includes(2))
        .sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
      assert.deepEqual(termList.items.map((item) => item.id), expected.map((record) => record.id));
      assert.equal(termList.total, expected.length);
      await store.close();
    });

    it('uses the connection\'s current schema by default, and ends the pool it made', async () => {
      const store = await postgresStorage({ connectionString: server.connectionString, max: 2 });
      assert.equal(store.schema, 'public');
      const created = await store.insert('posts', post(1));
      assert.equal((await store.get('posts', created.id))!.slug, 'entry-1');
      await store.close();
      assert.equal(store.pool.ended, true);
    });
  });

  describe('postgres store: query plans', () => {
    it('answers typical lists and text searches from indexes', async () => {
      // With sequential scans priced out, the plans show whether the queries can use the indexes at all
      // (the planner rightly prefers scanning a table this small).
      const planPool = new pg.Pool({ connectionString: server.connectionString, max: 2, options: '-c enable_seqscan=off' });
      const seedPool = new pg.Pool({ connectionString: server.connectionString, max: 2 });
      try {
        // Seeded with the usual settings: the writes' own statements are not what this test looks at.
        const schema = freshSchema();
        const seeder = await postgresStorage({ pool: seedPool, schema });
        await seed(seeder, 'posts', Array.from({ length: 5000 }, (_, index) => ({ ...post(index), categories: [index % 4] })));
        await seeder.close();
        const store = await postgresStorage({ pool: planPool, schema });
        await planPool.query(`VACUUM ANALYZE "${store.schema}".quire_records, "${store.schema}".quire_members`);
        const typical = (await store.explain('posts', published)).join('\n');
        assert.match(typical, /Index Scan Backward using quire_records_type_status_date/);
        assert.doesNotMatch(typical, /Seq Scan on quire_records/);
        const inCategories = (await store.explain('posts', { ...published, where: [...published.where!, { field: 'categories', op: 'containsAny', values: [1, 3] }] })).join('\n');
        assert.match(inCategories, /quire_members/);
        // One category: the members index in date order leads to the page's records; the total is kept counted.
        const inCategory = (await store.explain('posts', { ...published, where: [...published.where!, { field: 'categories', op: 'containsAny', values: [3] }] })).join('\n');
        assert.match(inCategory, /Index Only Scan Backward using quire_members_list/);
        assert.match(inCategory, /quire_member_counts/);
        assert.doesNotMatch(inCategory, /Seq Scan/);
        const byAuthor = (await store.explain('posts', { ...published, where: [...published.where!, { field: 'author', op: 'eq', value: 3 }] })).join('\n');
        assert.match(byAuthor, /Index (Only )?Scan Backward using quire_records_author_type_status_date/);
        const format = (await store.explain('posts', { where: [{ field: 'format', op: 'eq', value: 'aside' }] })).join('\n');
        assert.match(format, /quire_records_data/, 'equality on any field can use the GIN index on data');
        const search = (await store.explain('posts', { search: { fields: ['title', 'excerpt', 'content'], terms: ['NEEDLE'] } })).join('\n');
        assert.match(search, /quire_records_text_content/);
        assert.equal((await store.list('posts', { search: { fields: ['title', 'excerpt', 'content'], terms: ['NEEDLE'] }, withTotal: true })).total, 100);
        await store.close();
      } finally {
        await Promise.all([planPool.end(), seedPool.end()]);
      }
    });
  });
}
