import type { StoredWrite } from '../ports/storage.js';

/** Commits remembered, and most writes a commit may have to be remembered (an import's are not). */
const MOST_COMMITS = 256;
const MOST_WRITES_PER_COMMIT = 256;
/**
 * Most characters the remembered records may hold in all, their text and a few for each member (the log may be
 * all that holds the older versions of large records), and most members looked at to tell one commit's size.
 */
const MOST_CHARS = 32 * 1024 * 1024;
const MOST_MEMBERS_PER_COMMIT = 20_000;
const MEMBER_CHARS = 8;

/**
 * The writes of a store's last commits, for `writtenSince`. Commits are numbered by the store, one after another;
 * a commit of too many writes, or too large, is remembered as unknown, and so is everything before the oldest
 * one kept.
 */
export class WriteLog {
  readonly #commits: (readonly StoredWrite[] | null)[] = [];
  /** The characters each commit kept holds (`MOST_CHARS`), and all of them. */
  readonly #sizes: number[] = [];
  #chars = 0;
  /** The number of the oldest commit kept, and of the newest. */
  #first = 1;
  #last = 0;

  /** Notes commit `commit`; one that does not follow the last noted makes everything before it unknown. */
  add(commit: number, writes: readonly StoredWrite[]): void {
    if (commit !== this.#last + 1) this.#drop(this.#commits.length, commit);
    this.#last = commit;
    const noted = writes.length > MOST_WRITES_PER_COMMIT ? null : once(writes);
    const size = noted === null ? 0 : charsOf(noted);
    this.#commits.push(size > MOST_CHARS ? null : noted);
    this.#sizes.push(size > MOST_CHARS ? 0 : size);
    this.#chars += size > MOST_CHARS ? 0 : size;
    let over = 0;
    for (let chars = this.#chars; this.#commits.length - over > MOST_COMMITS || chars > MOST_CHARS; over += 1) chars -= this.#sizes[over]!;
    if (over > 0) this.#drop(over, this.#first + over);
  }

  /** Drops the oldest `count` commits kept; `first`: the number of the oldest left (or of the next one noted). */
  #drop(count: number, first: number): void {
    this.#commits.splice(0, count);
    for (const size of this.#sizes.splice(0, count)) this.#chars -= size;
    this.#first = first;
  }

  /** The number of the last commit noted (0: none). */
  get last(): number {
    return this.#last;
  }

  /** Makes every commit noted so far unknown. */
  forget(): void {
    this.#drop(this.#commits.length, this.#last + 1);
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
  if (writes.length < 2) return writes;
  const byRecord = new Map<string, StoredWrite>();
  for (const write of writes) {
    const key = `${write.collection}\u0000${write.id}`;
    const first = byRecord.get(key);
    byRecord.set(key, first ? { ...write, before: first.before } : write);
  }
  return byRecord.size === writes.length ? writes : [...byRecord.values()];
}

/**
 * The characters the records of `writes` hold, their text and `MEMBER_CHARS` for each member; past `MOST_CHARS`,
 * or past `MOST_MEMBERS_PER_COMMIT` members looked at, more than `MOST_CHARS`.
 */
function charsOf(writes: readonly StoredWrite[]): number {
  const pending: unknown[] = [];
  for (const write of writes) pending.push(write.before, write.after);
  let chars = 0;
  for (let members = 0; pending.length > 0; members += 1) {
    if (members > MOST_MEMBERS_PER_COMMIT || chars > MOST_CHARS) return MOST_CHARS + 1;
    const value = pending.pop();
    if (typeof value === 'string') chars += value.length;
    else if (Array.isArray(value)) for (let index = 0; index < value.length; index++) pending.push(value[index]);
    else if (value !== null && typeof value === 'object') {
      // Members read in place: a record's strings and numbers need no list of their own.
      const record = value as Record<string, unknown>;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        if (members > MOST_MEMBERS_PER_COMMIT) return MOST_CHARS + 1;
        const member = record[key];
        if (typeof member === 'string') {
          chars += member.length + MEMBER_CHARS;
          members += 1;
        } else if (member !== null && typeof member === 'object') pending.push(member);
        else {
          chars += MEMBER_CHARS;
          members += 1;
        }
      }
    }
    chars += MEMBER_CHARS;
  }
  return chars;
}
