/** Generations (src/core/cache/generation.ts): when one starts without waiting, and that it still ends on time. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Generations } from '../../../src/core/cache/generation.js';

function sources(options: { known: Map<string, number | null>; read: Map<string, number | null>; clock: { now: number } }) {
  let reads = 0;
  let token = 'a';
  return {
    setToken: (next: string) => { token = next; },
    reads: () => reads,
    sources: {
      changeToken: async () => token,
      nextScheduled: async (state: string) => {
        reads += 1;
        return options.read.get(state) ?? null;
      },
      nextScheduledNow: (state: string) => options.known.get(state),
      now: () => options.clock.now,
    },
  };
}

describe('cache generations', () => {
  it('start without waiting when the next scheduled date is known, and with a read when it is not', async () => {
    const clock = { now: 1_000 };
    const known = new Map<string, number | null>();
    const read = new Map<string, number | null>([['a', null]]);
    const made = sources({ known, read, clock });
    const generations = new Generations(made.sources);
    const settings = {};
    let started = 0;
    generations.onNew(() => { started += 1; });

    assert.equal(generations.known(settings, 1, 'a'), undefined, 'nothing known of state a: only current can tell');
    const first = await generations.current(settings, 1, 'a');
    assert.ok(first);
    assert.equal(made.reads(), 1);
    assert.equal(generations.known(settings, 1, 'a'), first);

    known.set('b', 5_000);
    const second = generations.known(settings, 1, 'b');
    assert.ok(second && second !== first, 'a new state whose date is known starts a generation at once');
    assert.equal(second.token, 'b');
    assert.ok(second.serial > first.serial);
    assert.equal(started, 2);
    assert.equal(made.reads(), 1, 'without reading the store');
    assert.equal(await generations.current(settings, 1, 'b'), second, 'current answers the same one');
    assert.equal(await generations.nothingDue('b'), true);

    clock.now = 5_000;
    assert.equal(generations.known(settings, 1, 'b'), null, 'once the scheduled date has come, nothing may be kept');
    assert.equal(await generations.nothingDue('b'), false);

    const otherSettings = {};
    const third = generations.known(otherSettings, 1, 'b');
    assert.equal(third, null, 'other settings in the same state start another generation, past its date as well');
    assert.equal(started, 3);
  });

  it('start anew for other settings or routes in the same state of the store', () => {
    const made = sources({ known: new Map([['a', null]]), read: new Map(), clock: { now: 0 } });
    const generations = new Generations(made.sources);
    const settings = {};
    const first = generations.known(settings, 1, 'a')!;
    assert.equal(generations.known(settings, 1, 'a'), first);
    const otherSettings = generations.known({}, 1, 'a')!;
    assert.ok(otherSettings.serial > first.serial);
    const otherRoutes = generations.known({}, 2, 'a')!;
    assert.ok(otherRoutes !== otherSettings && otherRoutes.routes === 2);
    assert.equal(generations.known(settings, 1, undefined), undefined, 'without a token nothing is told');
  });
});
