/** The time source. Scheduling, dates and "now" in every resource come from here, so tests can fix time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved: for tests and reproducible runs. */
export function fixedClock(start: Date | string): Clock & { set(at: Date | string): void; advance(milliseconds: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set(at) {
      current = new Date(at);
    },
    advance(milliseconds) {
      current = new Date(current.getTime() + milliseconds);
    },
  };
}
