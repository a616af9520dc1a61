/**
 * Lets the event loop take a turn (other requests' I/O, timers) before going on. An upload runs several steps
 * of a few milliseconds each on the main thread (type checks, header and metadata reads, records, the answer);
 * run back to back in one turn they would hold up every other request for their sum. Long loops (preparing a
 * large slider, a store writing a record of long texts) take a turn whenever they have held the loop for `TURN_MS`.
 */
export const TURN_MS = 10;

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}

/**
 * A long loop's pause point: `await take()` once per step lets the event loop take a turn whenever the loop has
 * held it for `TURN_MS` since the last one, and costs nothing otherwise.
 */
export function turnTaker(): () => Promise<void> {
  let turnStarted = performance.now();
  return async () => {
    if (performance.now() - turnStarted <= TURN_MS) return;
    await nextTurn();
    turnStarted = performance.now();
  };
}

/** What a generator of steps returns, its steps run back to back (where the time does not matter). */
export function finished<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** What a generator of steps returns, the event loop taking a turn between steps once they have held it `TURN_MS`. */
export async function finishedInTurns<T>(steps: Generator<unknown, T>): Promise<T> {
  const take = turnTaker();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await take();
  }
}

/**
 * As `finishedInTurns`, but at once (no promise, no turn) where the steps finish within `TURN_MS`: most values need
 * no turn at all, and a promise would cost them one.
 */
export function finishedSoonOrInTurns<T>(steps: Generator<unknown, T>): T | Promise<T> {
  const started = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - started > TURN_MS) return nextTurn().then(() => finishedInTurns(steps));
  }
}
