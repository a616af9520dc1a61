import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/** The first copy of the WAL-index header at the start of a WAL database's `-shm` file. */
const HEADER_BYTES = 48;
/** Its `iChange` field: a counter every commit moves on by one (in the machine's byte order). */
const CHANGE_OFFSET = 8;
/** Its `isInit` byte: 1 once a connection has built the index. */
const IS_INIT_OFFSET = 12;

/**
 * The WAL-index header of a database, read from its `-shm` file (one `pread`): it is rewritten by every commit, by
 * any connection or process, before anyone can see the commit, and stays the same between commits, so it names the
 * committed state of the database. Checkpoints leave it alone but for a restart of the log, which SQLite makes
 * inside a write transaction (or at a host's explicit request).
 */
export class WalHeader {
  private readonly bytes = Buffer.alloc(HEADER_BYTES);

  private constructor(private fd: number | null) {}

  /** For the database file `file`, whose `-shm` file must be there; null where it cannot be opened. */
  static open(file: string): WalHeader | null {
    try {
      return new WalHeader(openSync(`${file}-shm`, 'r'));
    } catch {
      return null;
    }
  }

  /** The header as a string, or null when it cannot be read or SQLite has not built it. */
  read(): string | null {
    if (this.fd === null) return null;
    let length: number;
    try {
      length = readSync(this.fd, this.bytes, 0, HEADER_BYTES, 0);
    } catch {
      return null;
    }
    if (length !== HEADER_BYTES || this.bytes[IS_INIT_OFFSET] !== 1) return null;
    return this.bytes.toString('latin1');
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
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
