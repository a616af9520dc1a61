/**
 * The revision histories of an answer's records (`revisionHistories`): read in batches, with records of many
 * revisions read on their own, they tell each record's history exactly as `revisionSummary` does, whatever the
 * records had before; the records last found crowded are read on their own at once the next time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { revisionHistories } from '../../../src/content/post-type/fragment-revision.js';
import { revisionSummary } from '../../../src/content/post-type/links.js';
import type { ListQuery, StoragePort } from '../../../src/ports/storage.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';

/**
 * A store that records the revision-history queries made through it: `in` (a batch) or the parent's id. `telling`:
 * whether it tells what was written since a change token (then histories are kept across writes).
 */
function recorded(storage: StoragePort, telling = false) {
  const queries: (string | number)[] = [];
  const wrapper = Object.create(storage) as StoragePort;
  if (!telling) wrapper.writtenSince = undefined;
  wrapper.list = (collection: string, query?: ListQuery) => {
    const parent = query?.where?.find((condition) => 'field' in condition && condition.field === 'parent');
    if (parent && 'op' in parent) queries.push(parent.op === 'in' ? 'in' : (parent as { value: number }).value);
    return storage.list(collection, query);
  };
  return { storage: wrapper, queries };
}

describe('revisionHistories', () => {
  it('tells every history as revisionSummary does, across batches, remembered crowded records and deletions', async () => {
    const memory = createMemoryStorage();
    const { storage, queries } = recorded(memory);
    const ids: number[] = [];
    for (let index = 0; index < 6; index += 1) ids.push((await memory.insert('posts', { type: 'post', status: 'publish', parent: 0, date: `2024-01-0${index + 1}T00:00:00` })).id);
    const [crowded, few, none] = [ids[0]!, ids[1]!, ids[2]!];
    const revisionsOf = new Map<number, number[]>();
    const addRevision = async (parent: number, minute: number) => {
      const { id } = await memory.insert('posts', { type: 'revision', status: 'inherit', parent, date: `2024-02-01T00:${String(minute).padStart(2, '0')}:00` });
      revisionsOf.set(parent, [...(revisionsOf.get(parent) ?? []), id]);
    };
    for (let minute = 0; minute < 30; minute += 1) await addRevision(crowded, 30 + minute);
    await addRevision(few, 1);
    for (const id of ids.slice(3)) await addRevision(id, 2);
    // Same date as another revision of the record: the newer id is the newest, as the store orders ties.
    await addRevision(few, 1);

    const expectExact = async () => {
      const historyOf = revisionHistories(storage, [...ids, crowded].map((id) => ({ id })));
      for (const id of ids) assert.deepEqual(await historyOf(id), await revisionSummary(memory, id), `post ${id}`);
    };
    await expectExact();
    assert.equal(queries[0], 'in', 'a batch first');
    assert.ok(queries.includes(crowded), 'the crowded record read on its own');

    queries.length = 0;
    await expectExact();
    assert.equal(queries[0], crowded, 'remembered: read on its own before the batch');
    assert.equal(queries.filter((query) => query === 'in').length, 1, 'one batch for the others');

    // Fewer revisions now: read on its own once more, then batched with the others again.
    for (const id of revisionsOf.get(crowded)!.slice(1)) await memory.remove('posts', id);
    queries.length = 0;
    await expectExact();
    assert.equal(queries[0], crowded);
    queries.length = 0;
    await expectExact();
    assert.deepEqual(queries, ['in']);

    // A record without revisions, and one whose revisions all went.
    for (const id of revisionsOf.get(few)!) await memory.remove('posts', id);
    await expectExact();
    assert.deepEqual(await revisionHistories(storage, [{ id: none }])(none), { count: 0, latestId: null });
  });

  it('keeps histories across writes to other records where the store tells what was written', async () => {
    const memory = createMemoryStorage();
    const { storage, queries } = recorded(memory, true);
    const ids: number[] = [];
    for (let index = 0; index < 4; index += 1) ids.push((await memory.insert('posts', { type: 'post', status: 'publish', parent: 0, date: `2024-01-0${index + 1}T00:00:00` })).id);
    const [first, second, other] = [ids[0]!, ids[1]!, ids[3]!];
    const revision = (parent: number) => memory.insert('posts', { type: 'revision', status: 'inherit', parent, date: '2024-02-01T00:00:00' });
    const page = ids.slice(0, 3);
    const expectExact = async () => {
      const historyOf = revisionHistories(storage, page.map((id) => ({ id })));
      for (const id of page) assert.deepEqual(await historyOf(id), await revisionSummary(memory, id), `post ${id}`);
    };
    await revision(first);
    await expectExact();
    assert.deepEqual(queries, ['in']);

    // A write to a post outside the page, and a revision of it: nothing of the page is read again.
    queries.length = 0;
    await memory.update('posts', other, { title: 'edited' });
    await revision(other);
    await expectExact();
    assert.deepEqual(queries, []);

    // A revision of a post on the page, added, moved to another parent, removed: that post's history is read again.
    const added = await revision(second);
    queries.length = 0;
    await expectExact();
    assert.deepEqual(queries, [second]);
    await memory.update('posts', added.id, { parent: first });
    queries.length = 0;
    await expectExact();
    assert.deepEqual(queries, ['in'], 'both parents, old and new, read again');
    await memory.remove('posts', added.id);
    queries.length = 0;
    await expectExact();
    assert.deepEqual(queries, [first]);
  });
});
