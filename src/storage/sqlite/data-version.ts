import { closeSync, openSync, readSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';

/** The two copies of the WAL-index header at the start of a WAL database's `-shm` file, 48 bytes each. */
const HEADER_BYTES = 96;
/** The header's first field, the WAL-index format's version (in the machine's byte order). */
const WAL_INDEX_VERSION = 3_007_000;
/** The header's `isInit` byte: 1 once a connection has built the index. */
const IS_INIT_OFFSET = 12;

/**
 * A connection's `PRAGMA data_version` — it moves when another connection or process commits — read cheaply.
 * The pragma opens and closes a read transaction (file and shared-memory locks: a few system calls, ~3-4 µs);
 * where the connection's database has a `-shm` file, its WAL-index header is read first (one `pread`, ~1 µs)
 * and the pragma runs only when those bytes differ from the last time it ran. Every commit rewrites that header
 * before any connection can see it (its change counter, last frame and the checksum of the log's content), and
 * its format is SQLite's documented WAL-index format, which processes of every SQLite version sharing a
 * database read alike. The bytes are read before the pragma, so a commit landing between the two only makes
 * the next call run the pragma again. Anything unexpected (no such file, a short read, a header SQLite has not
 * built) leaves the pragma alone to answer.
 */
export class DataVersion {
  private readonly pragma: BetterSqlite3.Statement;
  private readonly read = Buffer.alloc(HEADER_BYTES);
  private readonly seen = Buffer.alloc(HEADER_BYTES);
  /** The pragma's answer while the header holds `seen`; null when the header cannot be trusted. */
  private known: string | null = null;

  private constructor(connection: BetterSqlite3.Database, private shm: number | null) {
    this.pragma = connection.prepare('PRAGMA data_version').pluck();
  }

  /**
   * For a connection to `file` (a WAL database), opened while its `-shm` file is there, once the connection has
   * read: it then keeps that file, and the database in WAL mode (its shared lock refuses the switch), until it closes. `file` null, or a `-shm` file that cannot be opened, reads the pragma every time.
   */
  static of(connection: BetterSqlite3.Database, file: string | null): DataVersion {
    let shm: number | null = null;
    if (file !== null) {
      try {
        shm = openSync(`${file}-shm`, 'r');
      } catch {
        shm = null;
      }
    }
    return new DataVersion(connection, shm);
  }

  current(): string {
    if (this.shm === null) return String(this.pragma.get());
    let length: number;
    try {
      length = readSync(this.shm, this.read, 0, HEADER_BYTES, 0);
    } catch {
      length = 0;
    }
    if (this.known !== null && length === HEADER_BYTES && this.read.equals(this.seen)) return this.known;
    this.known = null;
    const version = String(this.pragma.get());
    // Only once the pragma has answered: one that fails leaves nothing to answer from.
    if (length === HEADER_BYTES && isBuilt(this.read)) {
      this.read.copy(this.seen);
      this.known = version;
    }
    return version;
  }

  close(): void {
    if (this.shm === null) return;
    closeSync(this.shm);
    this.shm = null;
    this.known = null;
  }
}

function isBuilt(header: Buffer): boolean {
  const version = header.readUInt32LE(0) === WAL_INDEX_VERSION || header.readUInt32BE(0) === WAL_INDEX_VERSION;
  return version && header[IS_INIT_OFFSET] === 1 && header.subarray(0, HEADER_BYTES / 2).equals(header.subarray(HEADER_BYTES / 2));
}
