/**
 * Lets the event loop take a turn (other requests' I/O, timers) before going on. An upload runs several steps
 * of a few milliseconds each on the main thread (type checks, header and metadata reads, records, the answer);
 * run back to back in one turn they would hold up every other request for their sum. Long loops (preparing a
 * large slider) take a turn whenever they have held the loop for `TURN_MS`.
 */
export const TURN_MS = 10;

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
