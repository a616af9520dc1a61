/** A reading connection's `PRAGMA data_version`, read through the WAL-index header (src/storage/sqlite/data-version.ts). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { DataVersion } from '../../src/storage/sqlite/data-version.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { WalHeader } from '../../src/storage/sqlite/wal-header.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-version-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** A transaction left open, then rolled back, leaves the version where it was. */
function unmovedByUncommitted(writer: Database.Database, insert: Database.Statement, version: DataVersion, last: string): void {
  writer.exec('BEGIN IMMEDIATE');
  insert.run('not yet');
  assert.equal(version.current(), last, 'a transaction still open');
  writer.exec('ROLLBACK');
  assert.equal(version.current(), last, 'a transaction rolled back');
}

function database(name: string) {
  const file = path.join(folder, name);
  const writer = new Database(file);
  writer.pragma('journal_mode = WAL');
  writer.exec('CREATE TABLE things (value)');
  const reader = new Database(file, { readonly: true, fileMustExist: true });
  reader.prepare('SELECT count(*) FROM things').get();
  const pragma = reader.prepare('PRAGMA data_version').pluck();
  return { file, writer, reader, pragma: () => String(pragma.get()) };
}

describe('sqlite data version', () => {
  it('moves on the very next call after every commit by another connection, checkpoints and log restarts included', () => {
    const { file, writer, reader, pragma } = database('commits.db');
    const version = DataVersion.of(reader, file);
    const insert = writer.prepare('INSERT INTO things (value) VALUES (?)');
    let last = version.current();
    for (let round = 0; round < 300; round++) {
      assert.equal(version.current(), last, `round ${round}: nothing committed`);
      if (round % 7 === 3) writer.pragma('wal_checkpoint(TRUNCATE)');
      if (round % 11 === 5) writer.pragma('wal_checkpoint(RESTART)');
      // A checkpoint that resets the log may move the pragma too: the version follows it.
      last = version.current();
      assert.equal(last, pragma(), `round ${round}: after a checkpoint`);
      assert.equal(version.current(), last);
      if (round % 5 === 0) writer.transaction(() => { insert.run(round); insert.run(-round); })();
      else insert.run(round);
      const now = version.current();
      assert.notEqual(now, last, `round ${round}: a commit`);
      assert.equal(now, pragma(), 'the pragma\'s own answer');
      last = now;
    }
    unmovedByUncommitted(writer, insert, version, last);
    version.close();
    reader.close();
    writer.close();
  });

  it('moves for every connection sharing one header on its very next call, whichever reads the header first', () => {
    const { file, writer, reader, pragma } = database('shared.db');
    const header = WalHeader.open(file)!;
    const third = new Database(file, { readonly: true });
    third.prepare('SELECT count(*) FROM things').get();
    const thirdPragma = third.prepare('PRAGMA data_version').pluck();
    const versions = [DataVersion.over(reader, header), DataVersion.over(third, header)];
    const answers = [pragma, () => String(thirdPragma.get())];
    const insert = writer.prepare('INSERT INTO things (value) VALUES (?)');
    let last = versions.map((version) => version.current());
    let text = header.read();
    for (let round = 0; round < 60; round++) {
      assert.equal(header.read(), text, 'the same string while nothing is committed');
      insert.run(round);
      if (round % 9 === 4) writer.pragma('wal_checkpoint(RESTART)');
      // One reads the moved header first; the other must still see the move on its own next call.
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) {
        const now = versions[index]!.current();
        assert.notEqual(now, last[index], `round ${round}: connection ${index}`);
        assert.equal(now, answers[index]!(), 'the pragma\'s own answer');
        last[index] = now;
      }
      const next = header.read();
      assert.notEqual(next, text, `round ${round}: the header names the new state`);
      text = next;
      last = versions.map((version, index) => {
        assert.equal(version.current(), last[index], 'nothing committed since');
        return last[index]!;
      });
    }
    header.close();
    assert.equal(header.read(), null, 'a closed header reads nothing');
    third.close();
    reader.close();
    writer.close();
  });

  it('told by the header alone, moves on the very next call after every commit, and only with the header', () => {
    const { file, writer, reader, pragma } = database('by-header.db');
    const header = WalHeader.open(file)!;
    const version = DataVersion.byHeader(reader, header);
    const insert = writer.prepare('INSERT INTO things (value) VALUES (?)');
    const answers = new Set<string>();
    const moved = (now: string, why: string) => {
      assert.ok(!answers.has(now), `${why}: a version not answered before`);
      answers.add(now);
    };
    let last = version.current();
    moved(last, 'the first');
    for (let round = 0; round < 300; round++) {
      const bytes = header.read();
      assert.equal(version.current(), last, `round ${round}: nothing committed`);
      if (round % 7 === 3) writer.pragma('wal_checkpoint(TRUNCATE)');
      if (round % 11 === 5) writer.pragma('wal_checkpoint(RESTART)');
      // A checkpoint that restarts the log moves the header, and so the version, with no data changed.
      const now = version.current();
      assert.equal(now !== last, header.read() !== bytes, `round ${round}: after a checkpoint, as the header`);
      if (now !== last) moved(now, `round ${round}: a checkpoint`);
      last = now;
      const before = pragma();
      if (round % 5 === 0) writer.transaction(() => { insert.run(round); insert.run(-round); })();
      else insert.run(round);
      assert.notEqual(pragma(), before);
      const next = version.current();
      assert.notEqual(next, last, `round ${round}: a commit`);
      moved(next, `round ${round}: a commit`);
      last = next;
    }
    unmovedByUncommitted(writer, insert, version, last);
    version.close();
    header.close();
    reader.close();
    writer.close();
  });

  it('moves after a commit by another process', () => {
    const { file, writer, reader } = database('process.db');
    const version = DataVersion.of(reader, file);
    const before = version.current();
    for (let round = 0; round < 2; round++) {
      const child = spawnSync(process.execPath, ['-e', `
        const Database = require('better-sqlite3');
        const db = new Database(process.argv[1]);
        db.prepare('INSERT INTO things (value) VALUES (1)').run();
        db.close();`, file], { encoding: 'utf8' });
      assert.equal(child.status, 0, child.stderr);
    }
    assert.notEqual(version.current(), before);
    assert.equal(reader.prepare('SELECT count(*) FROM things').pluck().get(), 2);
    version.close();
    reader.close();
    writer.close();
  });

  it('answers from the pragma alone without a -shm file to read', () => {
    const { file, writer, reader, pragma } = database('no-shm.db');
    const version = DataVersion.of(reader, path.join(folder, 'elsewhere.db'));
    const before = version.current();
    assert.equal(before, pragma());
    writer.prepare('INSERT INTO things (value) VALUES (1)').run();
    assert.notEqual(version.current(), before);
    assert.equal(version.current(), pragma());
    version.close();
    reader.close();
    writer.close();
    assert.ok(file);
  });

  it('lets a store tell its own writes apart from a commit by another connection landing right after them', async () => {
    const file = path.join(folder, 'store.db');
    const store = sqliteStorage({ path: file });
    const other = new Database(file);
    const first = await store.insert('posts', { title: 'one' });
    for (let round = 0; round < 20; round++) {
      const token = await store.changeToken();
      await store.update('posts', first.id, { title: `round ${round}` });
      if (round % 2 === 0) {
        assert.equal(store.writtenSince(token)!.length, 1, 'its own write alone');
        other.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', 'elsewhere') WHERE id = ?").run(first.id);
        assert.equal(store.writtenSince(token), null, 'a commit by another connection: the store cannot tell');
        assert.equal((await store.get('posts', first.id))!.title, 'elsewhere');
      } else {
        other.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', 'elsewhere') WHERE id = ?").run(first.id);
        assert.equal(store.writtenSince(token), null, 'asked only after the other commit');
        assert.equal((await store.list('posts', { shared: true })).items[0]!.title, 'elsewhere');
      }
      assert.notEqual(await store.changeToken(), token);
    }
    other.close();
    await store.close();
  });
});
