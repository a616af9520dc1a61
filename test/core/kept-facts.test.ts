/**
 * Facts kept across states of a store: kept while the store tells the writes since cannot have changed them,
 * forgotten when it cannot tell, and the store asked once per move between two states.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeptFacts, keptFactsOf, writtenBetween, type FactStore, type StoreWrite } from '../../src/core/kept-facts.js';

/** A store whose states are numbered; `writtenSince` answers from `log` (null past `known`) and counts the asks. */
function numberedStore() {
  const log: StoreWrite[][] = [];
  let known = 0;
  const store = {
    asked: 0,
    async changeToken() {
      return String(log.length);
    },
    writtenSince(token: string) {
      store.asked += 1;
      const since = Number(token);
      return since < known ? null : log.slice(since).flat();
    },
    write(collection: string, id: number) {
      log.push([{ collection, id, before: null, after: { id } }]);
      return String(log.length);
    },
    /** Makes every state before the current one unknown (as a write by another process would). */
    lose() {
      known = log.length;
    },
  };
  return store;
}

const forgetTerm = (write: StoreWrite, facts: Map<number, string>) => {
  if (write.collection === 'terms') facts.delete(write.id);
};

describe('kept facts', () => {
  it('outlive writes that cannot have changed them, and go with those that may have', async () => {
    const store = numberedStore();
    const facts = new KeptFacts<number, string>(store, forgetTerm);
    const first = await store.changeToken();
    facts.at(first);
    facts.keep(first, 1, 'one');
    facts.keep(first, 2, 'two');
    const afterPost = store.write('posts', 1);
    assert.deepEqual([...facts.at(afterPost)], [[1, 'one'], [2, 'two']]);
    const afterTerm = store.write('terms', 2);
    assert.deepEqual([...facts.at(afterTerm)], [[1, 'one']]);
    store.write('posts', 2);
    store.lose();
    assert.equal(facts.at(await store.changeToken()).size, 0, 'a store that cannot tell forgets everything');
  });

  it('count their drops: a write that changed none leaves the count, one that dropped a fact or an unknown state moves it', async () => {
    const store = numberedStore();
    const facts = new KeptFacts<number, string>(store, forgetTerm);
    const first = await store.changeToken();
    facts.at(first);
    facts.keep(first, 1, 'one');
    const start = facts.drops;
    facts.at(store.write('posts', 1));
    facts.at(store.write('terms', 9));
    assert.equal(facts.drops, start, 'no kept fact was written');
    facts.at(store.write('terms', 1));
    assert.equal(facts.drops, start + 1, 'a kept fact was dropped');
    const now = store.write('posts', 3);
    facts.at(now);
    facts.keep(now, 2, 'two');
    store.write('posts', 4);
    store.lose();
    facts.at(await store.changeToken());
    assert.equal(facts.drops, start + 2, 'all dropped when the store cannot tell');
    const last = await store.changeToken();
    for (let id = 0; id <= 10_000; id += 1) facts.keep(last, id, String(id));
    assert.equal(facts.drops, start + 3, 'all dropped when too many are kept');
  });

  it('keep nothing read for a state older than the one last checked', async () => {
    const store = numberedStore();
    const facts = new KeptFacts<number, string>(store, forgetTerm);
    const older = await store.changeToken();
    facts.at(older);
    const newer = store.write('posts', 1);
    facts.at(newer);
    facts.keep(older, 1, 'read before the write');
    assert.equal(facts.at(newer).has(1), false);
  });

  it('are not kept for a store that cannot tell what was written', () => {
    const kinds = new WeakMap<FactStore, KeptFacts<number, string>>();
    assert.equal(keptFactsOf(kinds, { changeToken: async () => '1' }, forgetTerm), null);
    const store = numberedStore();
    assert.equal(keptFactsOf(kinds, store, forgetTerm), keptFactsOf(kinds, store, forgetTerm), 'one per store and kind');
  });

  it('ask the store once per move between two states, for every kind', async () => {
    const store = numberedStore();
    const terms = new KeptFacts<number, string>(store, forgetTerm);
    const posts = new KeptFacts<number, string>(store, () => {});
    const first = await store.changeToken();
    for (const facts of [terms, posts]) {
      facts.at(first);
      facts.keep(first, 1, 'kept');
    }
    const second = store.write('posts', 1);
    terms.at(second);
    posts.at(second);
    assert.equal(store.asked, 1);
    assert.deepEqual(writtenBetween(store, first, second), [{ collection: 'posts', id: 1, before: null, after: { id: 1 } }]);
    assert.equal(store.asked, 1);
    const third = store.write('terms', 1);
    assert.deepEqual(writtenBetween(store, second, third)!.map((write) => write.collection), ['terms']);
    assert.equal(store.asked, 2, 'a new pair of states is asked again');
    assert.equal(terms.at(third).has(1), false);
  });
});
