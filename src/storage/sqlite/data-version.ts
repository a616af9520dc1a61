import type BetterSqlite3 from 'better-sqlite3';
import { WalHeader } from './wal-header.js';

/**
 * A connection's `PRAGMA data_version` — it moves when another connection or process commits — read cheaply.
 * The pragma opens and closes a read transaction (file and shared-memory locks: a few system calls, ~3-4 µs);
 * where the connection's database has a `-shm` file, its WAL-index header is read first (wal-header.ts: one
 * `pread`, ~1 µs) and the pragma runs only when those bytes differ from the last time it ran. Every commit
 * rewrites that header before any connection can see it (its change counter, last frame and the checksum of the
 * log's content), and its format is SQLite's documented WAL-index format, which processes of every SQLite version
 * sharing a database read alike. The bytes are read before the pragma, so a commit landing between the two only
 * makes the next call run the pragma again. Anything unexpected (no such file, a short read, a header SQLite has
 * not built or is writing) leaves the pragma alone to answer.
 */
export class DataVersion {
  private readonly pragma: BetterSqlite3.Statement;
  /** The header's bytes when the pragma last answered `known`. */
  private readonly seen = WalHeader.copySpace();
  /** The pragma's answer while the header holds `seen`; null when the header cannot be trusted. */
  private known: string | null = null;
  /** How many times a header told apart by `byHeader` has moved. */
  private moves = 0;

  /** `owned`: the header is this version's own, closed with it. */
  private constructor(
    connection: BetterSqlite3.Database, private header: WalHeader | null, private readonly owned: boolean, private readonly byHeader = false,
  ) {
    this.pragma = connection.prepare('PRAGMA data_version').pluck();
  }

  /**
   * For a connection to `file` (a WAL database), opened while its `-shm` file is there, once the connection has
   * read: it then keeps that file, and the database in WAL mode (its shared lock refuses the switch), until it
   * closes. `file` null, or a `-shm` file that cannot be opened, reads the pragma every time.
   */
  static of(connection: BetterSqlite3.Database, file: string | null): DataVersion {
    return new DataVersion(connection, file === null ? null : WalHeader.open(file), true);
  }

  /**
   * For a connection to the database whose header `header` reads (null: none), shared with others: whoever reads
   * it next finds the bytes of this version's last read there, until then.
   */
  static over(connection: BetterSqlite3.Database, header: WalHeader | null): DataVersion {
    return new DataVersion(connection, header, false);
  }

  /**
   * For a read-only connection, over a shared header as `over`, but told by the header alone while it can be
   * trusted: a version that moves whenever the header's bytes do, without asking the pragma. Such a connection
   * commits nothing, so its pragma moves only with a commit, and every commit moves the header; the header also
   * moves without a commit where the log restarts, which then only costs a move no data made. The pragma's read
   * transaction is what the connection pays first after a commit (its page cache dropped, its read mark moved):
   * a read after a commit that finds all it needs kept pays none of it. The versions it answers are its own
   * (`h` and a count, or `p` and the pragma's answer while the header cannot be trusted), never a pragma's number.
   */
  static byHeader(connection: BetterSqlite3.Database, header: WalHeader): DataVersion {
    return new DataVersion(connection, header, false, true);
  }

  current(): string {
    const header = this.header;
    if (header === null) return String(this.pragma.get());
    header.read();
    if (this.known !== null && header.holds(this.seen)) return this.known;
    this.known = null;
    if (this.byHeader) {
      if (!header.settled()) return `p${String(this.pragma.get())}`;
      header.copyTo(this.seen);
      this.known = `h${++this.moves}`;
      return this.known;
    }
    const version = String(this.pragma.get());
    // Only once the pragma has answered: one that fails leaves nothing to answer from.
    if (header.settled()) {
      header.copyTo(this.seen);
      this.known = version;
    }
    return version;
  }

  close(): void {
    if (this.owned) this.header?.close();
    this.header = null;
    this.known = null;
  }
}
