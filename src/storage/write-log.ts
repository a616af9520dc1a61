import type { StoredWrite } from '../ports/storage.js';

/** Commits remembered, and most writes a commit may have to be remembered (an import's are not). */
const MOST_COMMITS = 256;
const MOST_WRITES_PER_COMMIT = 256;

/**
 * The writes of a store's last commits, for `writtenSince`. Commits are numbered by the store, one after another;
 * a commit of too many writes is remembered as unknown, and so is everything before the oldest one kept.
 */
export class WriteLog {
  readonly #commits: (readonly StoredWrite[] | null)[] = [];
  /** The number of the oldest commit kept, and of the newest. */
  #first = 1;
  #last = 0;

  /** Notes commit `commit`; one that does not follow the last noted makes everything before it unknown. */
  add(commit: number, writes: readonly StoredWrite[]): void {
    if (commit !== this.#last + 1) {
      this.#commits.length = 0;
      this.#first = commit;
    }
    this.#last = commit;
    this.#commits.push(writes.length > MOST_WRITES_PER_COMMIT ? null : once(writes));
    if (this.#commits.length > MOST_COMMITS) {
      this.#commits.shift();
      this.#first += 1;
    }
  }

  /** The number of the last commit noted (0: none). */
  get last(): number {
    return this.#last;
  }

  /** Makes every commit noted so far unknown. */
  forget(): void {
    this.#commits.length = 0;
    this.#first = this.#last + 1;
  }

  /** The writes of the commits after commit `commit` up to the last noted, or null when one of them is unknown. */
  since(commit: number): StoredWrite[] | null {
    if (!Number.isSafeInteger(commit) || commit > this.#last) return null;
    if (commit === this.#last) return [];
    if (commit + 1 < this.#first) return null;
    const writes: StoredWrite[] = [];
    for (let number = commit + 1; number <= this.#last; number += 1) {
      const noted = this.#commits[number - this.#first];
      if (!noted) return null;
      writes.push(...noted);
    }
    return writes;
  }
}

/** Each record written once: as it was before its first write and after its last. */
function once(writes: readonly StoredWrite[]): readonly StoredWrite[] {
  const byRecord = new Map<string, StoredWrite>();
  for (const write of writes) {
    const key = `${write.collection}\u0000${write.id}`;
    const first = byRecord.get(key);
    byRecord.set(key, first ? { ...write, before: first.before } : write);
  }
  return byRecord.size === writes.length ? writes : [...byRecord.values()];
}
