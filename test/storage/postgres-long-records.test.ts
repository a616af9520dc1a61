/**
 * The PostgreSQL store's long records (src/storage/postgres/long-records.ts): written and read in pieces, giving
 * what the one-statement paths give, without holding the event loop, and leaving nothing behind when a write
 * fails half-way. A private server of its own, since one test ends a connection.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { isStorageError, type StoredRecord } from '../../src/ports/storage.js';
import { postgresStorage, type PostgresStorage } from '../../src/storage/postgres/index.js';
import { LONG_RECORD_CHARS } from '../../src/storage/postgres/long-records.js';
import { postgresForTests } from './postgres-setup.js';
import { longestTurnCpu } from '../helpers/event-loop.js';

const postgres = await postgresForTests('postgres store: long records', { schemaPrefix: 'quire_long' });

const repeated = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

if (postgres) {
  const { server, pool: admin, freshSchema } = postgres;
  /** The record as the driver reads its row in one statement: what the one-statement path answers. */
  const oneStatement = async (store: PostgresStorage, collection: string, id: number) => {
    const { rows } = await admin.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM "${store.schema}".quire_records WHERE collection = $1 AND id = $2`, [collection, id]);
    return rows[0] ? { id, ...rows[0].data } as StoredRecord : null;
  };
  const staged = async (store: PostgresStorage) =>
    Number((await admin.query<{ n: string }>(`SELECT count(*) AS n FROM "${store.schema}".quire_staged`)).rows[0]!.n);
  const lengthOf = async (store: PostgresStorage, id: number) =>
    (await admin.query<{ n: number }>(`SELECT data_length AS n FROM "${store.schema}".quire_records WHERE id = $1`, [id])).rows[0]!.n;

  describe('postgres store: long records', () => {
    it('are written and read in pieces, giving what one statement gives', async () => {
      const store = await postgresStorage({ connectionString: server.connectionString, schema: freshSchema(), max: 4 });
      try {
        // Escapes, two-byte and four-byte characters (some cut by the slices), a `__proto__` member, nesting.
        const content = repeated('<p>"Quoted" — naïve 😀 \\ back\nslash</p>', LONG_RECORD_CHARS + 12_345);
        const record = {
          type: 'post', status: 'publish', title: 'Long', content,
          meta: JSON.parse('{"__proto__": {"kept": true}, "list": [1, 2.5, "three", {"four": null}], "flag": false}') as unknown,
        };
        const inserted = await store.insert('posts', record);
        assert.ok(await lengthOf(store, inserted.id) >= LONG_RECORD_CHARS, 'the record is long');
        assert.equal(await staged(store), 0);
        const stored = await oneStatement(store, 'posts', inserted.id);
        assert.deepStrictEqual(stored, inserted);
        const read = await store.get('posts', inserted.id);
        assert.deepStrictEqual(read, stored);
        assert.equal(JSON.stringify(read), JSON.stringify(stored), 'the members come in the same order');
        assert.ok(Object.hasOwn((read as Record<string, Record<string, unknown>>).meta!, '__proto__'));
        const short = await store.insert('posts', { type: 'post', status: 'publish', title: 'Short', content: 'short' });
        const listed = await store.list('posts', { orderBy: [{ field: 'id', direction: 'asc' }], withTotal: true });
        assert.deepStrictEqual(listed, { items: [stored, short], total: 2 });
        assert.deepStrictEqual(await store.transaction((tx) => tx.list('posts', { orderBy: [{ field: 'id', direction: 'asc' }] })), { items: [stored, short] });
        // Text conditions read the folded strings, staged in pieces as the record is.
        const found = await store.list('posts', { search: { fields: ['title', 'content'], terms: ['NAÏVE 😀 \\ BACK'] }, withTotal: true });
        assert.deepStrictEqual(found, { items: [stored], total: 1 });
        assert.deepStrictEqual((await store.list('posts', { where: [{ field: 'content', op: 'textContains', value: 'slash</P>' }] })).items, [stored]);

        // A long patch of a long record, then a short one.
        const excerpt = repeated('"1\'', LONG_RECORD_CHARS);
        const longPatch = await store.transaction(async (tx) => {
          const changed = await tx.update('posts', inserted.id, { excerpt, title: undefined });
          return { changed, inside: await tx.get('posts', inserted.id) };
        });
        assert.equal(await staged(store), 0);
        const afterLong = await oneStatement(store, 'posts', inserted.id);
        assert.equal(afterLong!.excerpt, excerpt);
        assert.equal(afterLong!.title, undefined);
        assert.deepStrictEqual(longPatch.changed, afterLong);
        assert.deepStrictEqual(longPatch.inside, afterLong);
        assert.deepStrictEqual(store.writtenSince(String(Number(await store.changeToken()) - 1))?.map((write) => write.before), [stored]);
        const shortPatch = await store.update('posts', inserted.id, { title: 'Long again' });
        assert.deepStrictEqual(shortPatch, await oneStatement(store, 'posts', inserted.id));
        assert.equal(shortPatch!.excerpt, excerpt);

        // A short record made long by a long patch, and a long one made short.
        const grown = await store.update('posts', short.id, { content });
        assert.deepStrictEqual(grown, await oneStatement(store, 'posts', short.id));
        const shrunk = await store.update('posts', short.id, { content: 'short again' });
        assert.deepStrictEqual(shrunk, { ...short, content: 'short again' });
        assert.ok(await lengthOf(store, short.id) < LONG_RECORD_CHARS);

        const removed = await store.transaction(async (tx) => (await tx.remove('posts', inserted.id)) && tx.get('posts', inserted.id));
        assert.equal(removed, null);
        assert.equal(await store.update('posts', inserted.id, { excerpt }), null, 'no record: nothing to update');
        assert.equal(await store.remove('posts', inserted.id), false);
        assert.deepStrictEqual((await store.list('posts')).items.map((item) => item.id), [short.id]);
        assert.equal(await staged(store), 0);
      } finally {
        await store.close();
      }
    });

    it('holds the event loop for little main-thread CPU at a time while writing and reading 16 MiB of text', async () => {
      const store = await postgresStorage({ connectionString: server.connectionString, schema: freshSchema(), max: 4 });
      try {
        const size = 8 * 1024 * 1024;
        // JSON escapes each `"`: the record's JSON text is over 30 MiB.
        const content = repeated('"', size);
        const excerpt = repeated('"1\'', size);
        let id = 0;
        const holds = {
          insert: await longestTurnCpu(async () => { ({ id } = await store.insert('posts', { type: 'post', title: 'Large', content })); }),
          update: await longestTurnCpu(() => store.update('posts', id, { excerpt })),
          get: await longestTurnCpu(() => store.get('posts', id)),
          list: await longestTurnCpu(() => store.list('posts', { withTotal: true })),
        };
        const read = await store.get('posts', id);
        assert.equal(read!.content, content);
        assert.equal(read!.excerpt, excerpt);
        for (const [step, cpuMs] of Object.entries(holds)) assert.ok(cpuMs < 50, `${step} held the loop for ${cpuMs.toFixed(0)} ms of CPU`);
      } finally {
        await store.close();
      }
    });

    it('loses nothing and leaves no half record when the connection drops while a long record is being sent', async () => {
      const pool = new pg.Pool({ connectionString: server.connectionString, application_name: 'quire_long_victim', max: 2 });
      const store = await postgresStorage({ pool, schema: freshSchema() });
      try {
        const kept = await store.insert('posts', { type: 'post', title: 'Kept' });
        const write = store.update('posts', kept.id, { content: repeated('"', 8 * 1024 * 1024) });
        let ended = false;
        for (let tries = 0; tries < 2000 && !ended; tries += 1) {
          const { rows } = await admin.query(`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
            WHERE application_name = 'quire_long_victim' AND query LIKE 'INSERT INTO %quire_staged%'`);
          ended = rows.length > 0;
          if (!ended) await delay(2);
        }
        assert.ok(ended, 'the connection was ended while the pieces were sent');
        await assert.rejects(write, (error: unknown) => isStorageError(error, 'store_unavailable'));
        assert.deepStrictEqual(await store.get('posts', kept.id), kept);
        assert.equal(await staged(store), 0);
        // The store goes on.
        const content = repeated('é', LONG_RECORD_CHARS);
        assert.equal((await store.update('posts', kept.id, { content }))!.content, content);
      } finally {
        await store.close();
        await pool.end();
      }
    });

    it('leaves no staged pieces when a long write fails inside a transaction, whether it rolls back or goes on', async () => {
      const store = await postgresStorage({ connectionString: server.connectionString, schema: freshSchema() });
      try {
        const content = repeated('"', LONG_RECORD_CHARS);
        await assert.rejects(store.transaction(async (tx) => {
          await tx.insert('posts', { type: 'post', content });
          throw new Error('changed my mind');
        }), /changed my mind/);
        assert.deepStrictEqual((await store.list('posts', { withTotal: true })), { items: [], total: 0 });
        assert.equal(await staged(store), 0);

        const first = await store.insert('posts', { id: 7, type: 'post', title: 'First' });
        const committed = await store.transaction(async (tx) => {
          await assert.rejects(tx.insert('posts', { id: 7, type: 'post', content }), (error: unknown) => isStorageError(error, 'duplicate_id'));
          return tx.insert('posts', { type: 'post', title: 'Second' });
        });
        assert.deepStrictEqual((await store.list('posts', { orderBy: [{ field: 'id', direction: 'asc' }] })).items, [first, committed]);
        assert.equal(await staged(store), 0);
      } finally {
        await store.close();
      }
    });
  });
}
