/**
 * The throttle port: named counters of recent events (failed logins, comments, sign-ups per client), which the
 * throttles read before doing costly or abusable work. Processes that share a store share the counters.
 */

/** One counter. Times are milliseconds since the epoch. */
export interface ThrottleCounter {
  /** Events counted since the counter started (or was last forgotten). */
  count: number;
  /** Until when the throttle refuses; 0 when it does not. */
  blockedUntil: number;
  /** When the counter may be forgotten; a counter read after this reads as absent. */
  expiresAt: number;
}

export interface ThrottleStore {
  /** The counter under `key`, or null when there is none or it expired by `now`. */
  get(key: string, now: number): Promise<ThrottleCounter | null>;
  /**
   * Reads, changes and writes one counter as one step: no other `update` of the same key, in this process or
   * another one sharing the store, happens in between. `change` sees null for an absent or expired counter and
   * returns the new counter, or null to forget it. Answers what was written.
   */
  update(key: string, now: number, change: (current: ThrottleCounter | null) => ThrottleCounter | null): Promise<ThrottleCounter | null>;
}
