import type pg from 'pg';
import { parseJsonInTurns } from '../../format/json-pieces.js';
import { isLongJson, jsonTextPieces } from '../../format/json-text.js';
import { turnTaker } from '../../format/turn.js';

/**
 * Records whose JSON text is long (two texts of 8 MiB, say) travel in pieces, so that no step holds the event
 * loop for long: the driver encodes a statement's parameters, and decodes a row, in one call each, and the JSON
 * text of a whole record is written and parsed at once. Written, the text is built piece by piece with turns
 * between, each piece inserted into `quire_staged` by its own statement inside the writing transaction, and one
 * statement casts the joined pieces to jsonb on the server and removes them. Read, a statement answers the text
 * in slices (one row each, decoded as it arrives) which are parsed piece by piece with turns between. Short
 * records (almost all) keep the one-statement paths: a read answers `data` only when `data_length` (the
 * generated length of its text) is short, so a long record costs one more statement, never a large row.
 */

/** A pool (for reads outside transactions) or one checked-out client (inside a transaction). */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Runs `work` on a connection inside one read-only snapshot of the database. */
export type Snapshot = <T>(work: (db: Queryable) => Promise<T>) => Promise<T>;

/** Records whose JSON text has this many characters or more are written and read in pieces. */
export const LONG_RECORD_CHARS = 1024 * 1024;
/** The characters of JSON text one statement sends. */
const SLICE_CHARS = 512 * 1024;
/** The bytes of JSON text one row brings back. */
const SLICE_BYTES = 512 * 1024;
/** How the text is cut while it is built (a few milliseconds of work a piece). */
const PIECE_SIZES = { longChars: 256 * 1024, pieceChars: 64 * 1024 };

/** The statements of long records, for one schema. */
export class LongRecords {
  private readonly staged: string;

  constructor(schema: string, private readonly records: string) {
    this.staged = `${schema}.quire_staged`;
  }

  /** Whether the JSON text of a record, or of a patch's fields, is long enough to travel in pieces (a lower estimate). */
  isLong(fields: unknown): boolean {
    return isLongJson(fields, LONG_RECORD_CHARS);
  }

  /** A select-list expression: the record's `data` when it is short, else null (read it with `read`). */
  shortData(alias: string): string {
    return `CASE WHEN ${alias}.data_length < ${LONG_RECORD_CHARS} THEN ${alias}.data END`;
  }

  /** A condition: the record's JSON text is short. */
  isShort(alias: string): string {
    return `${alias}.data_length < ${LONG_RECORD_CHARS}`;
  }

  /**
   * Sends the JSON text of `value` into `slot`, a slice a statement, with turns of the event loop while it is
   * built; `stagedJson` then reads it as jsonb. The rows belong to the writing transaction: `unstage` removes
   * them before it commits, and a rollback takes them with the rest.
   */
  async stage(db: Queryable, slot: string, value: unknown): Promise<void> {
    const turn = turnTaker();
    let pending = '';
    let seq = 0;
    const send = async () => {
      await db.query(`INSERT INTO ${this.staged} (slot, seq, piece) VALUES ($1, $2, $3)`, [slot, seq, pending]);
      seq += 1;
      pending = '';
    };
    for (const piece of jsonTextPieces(value, PIECE_SIZES)) {
      pending += piece;
      if (pending.length >= SLICE_CHARS) await send();
      else await turn();
    }
    if (pending !== '' || seq === 0) await send();
  }

  /** The jsonb of the text staged in the slot named by the parameter `param`. */
  stagedJson(param: string): string {
    return `(SELECT string_agg(piece, '' ORDER BY seq) FROM ${this.staged} WHERE slot = ${param})::jsonb`;
  }

  async unstage(db: Queryable): Promise<void> {
    await db.query(`DELETE FROM ${this.staged}`);
  }

  /**
   * A record's stored fields, its JSON text read in slices (one statement, so one state of the record) and
   * parsed in turns; null when there is none. The slices are of its UTF-8 bytes, which the server cuts in constant
   * time each (a cut by characters walks the text from its start every time), decoded here as a stream.
   */
  async read(db: Queryable, collection: string, id: number): Promise<Record<string, unknown> | null> {
    // MATERIALIZED: the text is made once, not once a slice.
    const { rows } = await db.query<{ piece: Uint8Array }>(
      `WITH stored AS MATERIALIZED (
         SELECT convert_to(data::text, 'UTF8') AS bytes FROM ${this.records} WHERE collection = $1 AND id = $2)
       SELECT substring(stored.bytes FROM start FOR $3) AS piece
         FROM stored CROSS JOIN LATERAL generate_series(1, octet_length(stored.bytes), $3) AS start
        ORDER BY start`,
      [collection, id, SLICE_BYTES]);
    if (rows.length === 0) return null;
    const turn = turnTaker();
    const decoder = new TextDecoder();
    const pieces: string[] = [];
    for (let index = 0; index < rows.length; index += 1) {
      pieces.push(decoder.decode(rows[index]!.piece, { stream: index < rows.length - 1 }));
      await turn();
    }
    return await parseJsonInTurns(pieces, turn) as Record<string, unknown>;
  }
}
