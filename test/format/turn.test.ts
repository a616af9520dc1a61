import assert from 'node:assert/strict';
import { test } from 'node:test';
import { finished, finishedInTurns, finishedSoonOrInTurns, TURN_MS } from '../../src/format/turn.js';

function* counting(steps: number, msEach = 0): Generator<void, number> {
  for (let step = 0; step < steps; step++) {
    const until = performance.now() + msEach;
    while (performance.now() < until);
    yield;
  }
  return steps;
}

test('steps that finish within a turn answer at once, without a promise', () => {
  assert.equal(finishedSoonOrInTurns(counting(5)), 5);
  assert.equal(finished(counting(10)), 10);
});

test('steps that take longer than a turn answer a promise, and let timers run between turns', async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  try {
    const answer = finishedSoonOrInTurns(counting(12, TURN_MS / 2));
    assert.ok(answer instanceof Promise);
    assert.equal(await answer, 12);
    assert.ok(ticks >= 2, `${ticks} timer ticks ran while the steps did`);
    assert.equal(await finishedInTurns(counting(3)), 3);
  } finally {
    clearInterval(timer);
  }
});
