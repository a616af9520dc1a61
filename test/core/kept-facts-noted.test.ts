/**
 * A fact noted without being kept (`CurrentFacts.note`): found in the very state of the store it was noted in, for
 * the key it was noted for, and in no other state, whatever the writes since; never among the kept facts, so no
 * write drops it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeptFacts, type StoreWrite } from '../../src/core/kept-facts.js';

function numberedStore() {
  const log: StoreWrite[] = [];
  return {
    async changeToken() {
      return String(log.length);
    },
    writtenSince: (token: string) => log.slice(Number(token)),
    write(collection: string, id: number) {
      log.push({ collection, id, before: null, after: { id } });
    },
  };
}

const forget = (write: StoreWrite, facts: Map<number, string>) => {
  if (write.collection === 'posts') facts.delete(write.id);
};

describe('a fact noted without keeping it', () => {
  it('is found in the same state only, for its own key', async () => {
    const store = numberedStore();
    const kept = new KeptFacts(store, forget);
    (await kept.current()).note(1, 'one');
    const same = await kept.current();
    assert.equal(same.noted(1), 'one');
    assert.equal(same.noted(2), undefined, 'another key');
    assert.equal(same.facts.get(1), undefined, 'not kept');
    const drops = kept.drops;
    // A write that cannot have changed it still moves the state: it is not found any more.
    store.write('terms', 7);
    assert.equal((await kept.current()).noted(1), undefined);
    assert.equal(kept.drops, drops, 'nothing kept was dropped');
  });

  it('is the last one noted, and a reader of an older state does not find a newer one', async () => {
    const store = numberedStore();
    const kept = new KeptFacts(store, forget);
    const before = await kept.current();
    store.write('posts', 1);
    const after = await kept.current();
    after.note(1, 'new');
    assert.equal(before.noted(1), undefined, 'noted in a later state');
    after.note(2, 'two');
    assert.equal(after.noted(1), undefined, 'only the last is noted');
    assert.equal(after.noted(2), 'two');
  });
});
