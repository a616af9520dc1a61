import { closeSync, constants, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/** The two copies of the WAL-index header at the start of a WAL database's `-shm` file, 48 bytes each. */
const BOTH_BYTES = 96;
const HEADER_BYTES = 48;
const HEADER_WORDS = HEADER_BYTES / 4;
/** The header's first field, the WAL-index format's version (in the machine's byte order). */
const WAL_INDEX_VERSION = 3_007_000;
/** Its `iChange` field: a counter every commit moves on by one (in the machine's byte order). */
const CHANGE_OFFSET = 8;
/** Its `isInit` byte: 1 once a connection has built the index. */
const IS_INIT_OFFSET = 12;

/**
 * The WAL-index header of a database, read from its `-shm` file (one `pread` of both copies into the same bytes
 * each time, nothing allocated while it stays the same): it is rewritten by every commit, by any connection or
 * process, before anyone can see the commit, and stays the same between commits, so it names the committed state
 * of the database. SQLite writes the second copy first and the first last, and a reader believes the header only
 * while both agree, so a commit is visible to no one before the first copy has changed. Checkpoints leave it alone
 * but for a restart of the log, which SQLite makes inside a write transaction (or at a host's explicit request).
 */
export class WalHeader {
  private readonly buffer = new ArrayBuffer(BOTH_BYTES);
  private readonly bytes = new Uint8Array(this.buffer);
  private readonly words = new Int32Array(this.buffer);
  private readonly first = Buffer.from(this.buffer, 0, HEADER_BYTES);
  /** The first copy as last turned into a string, and that string (null when the last read found none). */
  private readonly named = new Int32Array(HEADER_WORDS);
  private text: string | null = null;
  private length = 0;

  private constructor(private fd: number | null) {}

  /**
   * For the database file `file`, whose `-shm` file must be there; null where it cannot be opened. Opened without
   * updating the file's access time where the system allows it (the file's owner), which would otherwise write
   * the file's inode after each commit.
   */
  static open(file: string): WalHeader | null {
    const name = `${file}-shm`;
    try {
      return new WalHeader(openSync(name, constants.O_RDONLY | (constants.O_NOATIME ?? 0)));
    } catch {
      try {
        return new WalHeader(openSync(name, 'r'));
      } catch {
        return null;
      }
    }
  }

  /**
   * Reads the header again: its first copy as a string (the same string while it stays the same), or null when it
   * cannot be read or SQLite has not built it.
   */
  read(): string | null {
    if (this.fd === null) return null;
    try {
      this.length = readSync(this.fd, this.bytes, 0, BOTH_BYTES, 0);
    } catch {
      this.length = 0;
    }
    if (this.length !== BOTH_BYTES || this.bytes[IS_INIT_OFFSET] !== 1) {
      this.text = null;
      return null;
    }
    if (this.text !== null && sameWords(this.words, this.named, HEADER_WORDS)) return this.text;
    this.named.set(this.words.subarray(0, HEADER_WORDS));
    this.text = this.first.toString('latin1');
    return this.text;
  }

  /** The first copy as the last read found it (what `read` returned). */
  latest(): string | null {
    return this.text;
  }

  /** Whether the last read found a header SQLite has finished writing: built, both copies alike. */
  settled(): boolean {
    if (this.length !== BOTH_BYTES || this.bytes[IS_INIT_OFFSET] !== 1) return false;
    const version = this.first.readUInt32LE(0) === WAL_INDEX_VERSION || this.first.readUInt32BE(0) === WAL_INDEX_VERSION;
    return version && sameWords(this.words, this.words.subarray(HEADER_WORDS), HEADER_WORDS);
  }

  /** Whether the last read found exactly the bytes `copy` holds (see `copyTo`). */
  holds(copy: Int32Array): boolean {
    return this.length === BOTH_BYTES && sameWords(this.words, copy, BOTH_BYTES / 4);
  }

  /** Copies the bytes of the last read to `copy` (made by `copySpace`). */
  copyTo(copy: Int32Array): void {
    copy.set(this.words);
  }

  static copySpace(): Int32Array {
    return new Int32Array(BOTH_BYTES / 4);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.text = null;
    this.length = 0;
  }
}

function sameWords(a: Int32Array, b: Int32Array, count: number): boolean {
  for (let index = 0; index < count; index++) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * How one commit moved the header, when nothing else can have moved it too: `before` read while the committing
 * connection held the write lock (so no other commit could land), `after` read after its `COMMIT`. A commit that
 * changed rows moves the change counter by exactly one, so a second step means another commit landed in between;
 * one that changed none leaves the header as it was. Anything else is told as unknown (null).
 */
export function ownStep(before: string | null, after: string | null, changedRows: boolean): { from: string; to: string } | null {
  if (before === null || after === null) return null;
  if (!changedRows) return before === after ? { from: before, to: after } : null;
  const counter = (header: string) => {
    const bytes = Buffer.from(header, 'latin1');
    return endianness() === 'LE' ? bytes.readUInt32LE(CHANGE_OFFSET) : bytes.readUInt32BE(CHANGE_OFFSET);
  };
  return counter(after) === ((counter(before) + 1) >>> 0) ? { from: before, to: after } : null;
}
