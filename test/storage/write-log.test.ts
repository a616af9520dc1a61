/** The log of a store's last commits behind `writtenSince`, and PostgreSQL's own commits noted in it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredWrite } from '../../src/ports/storage.js';
import { OwnCommits } from '../../src/storage/postgres/own-commits.js';
import { WriteLog } from '../../src/storage/write-log.js';

const wrote = (id: number, title = `post ${id}`): StoredWrite => ({ collection: 'posts', id, before: null, after: { id, title } });
const ids = (writes: readonly StoredWrite[] | null) => writes?.map((write) => write.id) ?? null;

describe('the write log', () => {
  it('tells the writes of the commits after one, while every one of them is known', () => {
    const log = new WriteLog();
    log.add(1, [wrote(1)]);
    log.add(2, [wrote(2), wrote(3)]);
    assert.deepEqual(ids(log.since(0)), [1, 2, 3]);
    assert.deepEqual(ids(log.since(1)), [2, 3]);
    assert.deepEqual(log.since(2), []);
    assert.equal(log.since(3), null, 'a commit not noted yet');
    assert.equal(log.last, 2);
    log.add(5, [wrote(4)]);
    assert.equal(log.since(2), null, 'the commits between were not noted');
    assert.deepEqual(ids(log.since(4)), [4]);
    log.forget();
    assert.equal(log.since(4), null);
    assert.deepEqual(log.since(5), []);
    log.add(6, [wrote(5)]);
    assert.deepEqual(ids(log.since(5)), [5]);
  });

  it('names a record written twice in a commit once, as it was before and after', () => {
    const log = new WriteLog();
    log.add(1, [wrote(1, 'a'), { collection: 'posts', id: 1, before: { id: 1, title: 'a' }, after: { id: 1, title: 'b' } }]);
    assert.deepEqual(log.since(0), [{ collection: 'posts', id: 1, before: null, after: { id: 1, title: 'b' } }]);
  });

  it('keeps the records of its commits within a bound of characters, the oldest going first', () => {
    const log = new WriteLog();
    const large = (id: number) => ({ collection: 'posts', id, before: { id, content: 'x'.repeat(12 * 1024 * 1024) }, after: { id, content: 'y' } });
    log.add(1, [large(1)]);
    log.add(2, [large(2)]);
    assert.deepEqual(ids(log.since(0)), [1, 2]);
    log.add(3, [large(3)]);
    assert.equal(log.since(0), null, 'the oldest commit went to make room');
    assert.deepEqual(ids(log.since(1)), [2, 3]);
    log.add(4, [{ collection: 'posts', id: 4, before: null, after: { id: 4, content: 'z'.repeat(40 * 1024 * 1024) } }]);
    assert.equal(log.since(3), null, 'a commit larger than the bound is unknown');
    assert.deepEqual(log.since(4), []);
    log.add(5, [wrote(5)]);
    assert.deepEqual(ids(log.since(4)), [5]);
    const deep = { id: 6, layers: Array.from({ length: 30_000 }, (_, index) => ({ index })) };
    log.add(6, [{ collection: 'slides', id: 6, before: null, after: deep }]);
    assert.equal(log.since(5), null, 'a record of too many members is not walked through');
  });
});

describe("PostgreSQL's own commits", () => {
  it('are told only up to the newest generation handed out, when every one after the token is theirs', () => {
    const commits = new OwnCommits();
    commits.seen('10');
    assert.deepEqual(commits.since('10'), []);
    commits.committed({ generation: 11, written: [wrote(1)] });
    assert.deepEqual(ids(commits.since('10')), [1], 'before its token is handed out too');
    commits.seen('11');
    commits.committed({ generation: 12, written: [wrote(2)] });
    commits.seen('12');
    assert.deepEqual(ids(commits.since('10')), [1, 2]);
    assert.equal(commits.since('13'), null, 'a token not handed out');
    assert.equal(commits.since('not a token'), null);

    // Another writer's commit: once a token shows it, no token before it is answered.
    commits.seen('13');
    assert.equal(commits.since('12'), null);
    assert.deepEqual(commits.since('13'), []);
    commits.committed({ generation: 14, written: [wrote(3)] });
    commits.seen('14');
    assert.equal(commits.since('11'), null);
    assert.deepEqual(ids(commits.since('13')), [3]);

    // A commit whose generation could not be told makes everything before it unknown.
    commits.committed({ generation: null, written: [wrote(4)] });
    commits.seen('15');
    assert.equal(commits.since('14'), null);
    // One that wrote nothing changes nothing.
    commits.committed({ generation: null, written: [] });
    assert.deepEqual(commits.since('15'), []);
  });
});
