import { INDEXED_FIELDS, MEMBER_INDEXED_FIELDS, TEXT_INDEXED_FIELDS } from '../sql/fields.js';
import { literal, sqlType, typedValueSql } from './dialect.js';

/** Where the tables live, and what the database offers. */
export interface SchemaContext {
  /** The quoted schema name. */
  schema: string;
  /** The qualified name of pg_trgm's GIN operator class, or null when the extension is not available. */
  trigramOps: string | null;
}

/**
 * The schema, as numbered migrations applied in order on open (see migrate.ts). A released migration never
 * changes: a schema change is a new entry at the end.
 *
 * One table holds every collection's records, like the SQLite store:
 * - `collection`, `id`: the port's identity and primary key;
 * - `data`: the record (without `id`) as jsonb, with a GIN index (`jsonb_path_ops`) that answers equality and
 *   array containment on any field;
 * - `folded`: the record's string fields lower-cased by the store (what text conditions read), with trigram
 *   indexes on the searched fields when pg_trgm is available;
 * - `f_<field>`: stored generated columns with the typed value of the indexed fields, for the list indexes.
 *
 * Migration 2 adds, kept by a trigger on `quire_records` in the transaction of every write, whoever writes:
 * - `quire_counts`: each collection's number of records per `f_type` and `f_status`, for totals (sql/counts.ts),
 *   one row per key. The trigger does not update it: updating one row many times in one transaction leaves a
 *   chain of row versions that every later update walks, so a bulk import would slow down quadratically.
 *   It appends `+1`/`-1` rows to `quire_count_changes` instead, which a total adds in, and which the store
 *   merges into `quire_counts` at the end of each of its write transactions (one in-place update per key, which
 *   PostgreSQL can make without touching the index).
 * - `quire_changes`: one row whose `generation` goes up once in every transaction that writes records (the
 *   change token). `xid` notes the transaction that last raised it, so later writes of the same transaction
 *   leave the row alone; a rolled-back raise is undone with the rest.
 *
 * Migration 7 adds `data_length`, the length of the record's JSON text (generated), and `quire_staged`, where a
 * writing transaction puts the JSON text of a long record piece by piece before one statement casts it to jsonb.
 */
export interface Migration {
  version: number;
  name: string;
  statements(context: SchemaContext): string[];
}

function generatedColumns(): string[] {
  return [...INDEXED_FIELDS.values()].map(({ field, column, type }) => {
    const collation = type === 'string' ? ' COLLATE "C"' : '';
    return `${column} ${sqlType(type)}${collation} GENERATED ALWAYS AS (${typedValueSql(`(data -> ${literal(field)})`, type)}) STORED`;
  });
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'records, id counters, list indexes, text indexes',
    statements: ({ schema, trigramOps }) => [
      `CREATE TABLE ${schema}.quire_collections (
        name text COLLATE "C" PRIMARY KEY,
        last_id bigint NOT NULL
      )`,
      `CREATE TABLE ${schema}.quire_records (
        collection text COLLATE "C" NOT NULL,
        id bigint NOT NULL,
        data jsonb NOT NULL,
        folded jsonb NOT NULL,
        ${generatedColumns().join(',\n        ')},
        PRIMARY KEY (collection, id)
      )`,
      // Lists of one type and status, newest (or recently modified) first: the most common list of all.
      `CREATE INDEX quire_records_type_status_date ON ${schema}.quire_records (collection, f_type, f_status, f_date NULLS FIRST, id)`,
      `CREATE INDEX quire_records_type_status_modified ON ${schema}.quire_records (collection, f_type, f_status, f_modified NULLS FIRST, id)`,
      // Scheduled posts come due by their GMT date.
      `CREATE INDEX quire_records_status_date_gmt ON ${schema}.quire_records (collection, f_status, f_date_gmt NULLS FIRST, id)`,
      // Collections without types (comments, revisions by date), and author archives.
      `CREATE INDEX quire_records_date ON ${schema}.quire_records (collection, f_date NULLS FIRST, id)`,
      `CREATE INDEX quire_records_author ON ${schema}.quire_records (collection, f_author, f_date NULLS FIRST, id)`,
      // Children of a parent in menu order (pages, revisions, comment threads, terms).
      `CREATE INDEX quire_records_parent ON ${schema}.quire_records (collection, f_parent, f_menu_order NULLS FIRST, id)`,
      `CREATE INDEX quire_records_slug ON ${schema}.quire_records (collection, f_slug, id)`,
      `CREATE INDEX quire_records_sticky ON ${schema}.quire_records (collection, id) WHERE f_sticky`,
      `CREATE INDEX quire_records_data ON ${schema}.quire_records USING gin (data jsonb_path_ops)`,
      ...(trigramOps === null ? [] : TEXT_INDEXED_FIELDS.map((field) =>
        `CREATE INDEX quire_records_text_${field} ON ${schema}.quire_records USING gin ((folded ->> ${literal(field)}) ${trigramOps})`)),
    ],
  },
  {
    version: 2,
    name: 'record counts per type and status, change generation',
    statements: ({ schema }) => [
      `CREATE TABLE ${schema}.quire_counts (
        collection text COLLATE "C" NOT NULL,
        type text COLLATE "C",
        status text COLLATE "C",
        records bigint NOT NULL
      )`,
      `CREATE INDEX quire_counts_key ON ${schema}.quire_counts (collection, type, status)`,
      `INSERT INTO ${schema}.quire_counts (collection, type, status, records)
        SELECT collection, f_type, f_status, count(*) FROM ${schema}.quire_records GROUP BY 1, 2, 3`,
      // No index: rows only pass through, from the trigger to the next merge.
      `CREATE TABLE ${schema}.quire_count_changes (
        collection text COLLATE "C" NOT NULL,
        type text COLLATE "C",
        status text COLLATE "C",
        change bigint NOT NULL
      )`,
      `CREATE TABLE ${schema}.quire_changes (
        generation bigint NOT NULL,
        xid bigint NOT NULL
      )`,
      `INSERT INTO ${schema}.quire_changes (generation, xid) VALUES (1, 0)`,
      `CREATE FUNCTION ${schema}.quire_records_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'UPDATE' OR OLD.f_type IS DISTINCT FROM NEW.f_type OR OLD.f_status IS DISTINCT FROM NEW.f_status THEN
          IF TG_OP <> 'DELETE' THEN
            INSERT INTO ${schema}.quire_count_changes (collection, type, status, change) VALUES (NEW.collection, NEW.f_type, NEW.f_status, 1);
          END IF;
          IF TG_OP <> 'INSERT' THEN
            INSERT INTO ${schema}.quire_count_changes (collection, type, status, change) VALUES (OLD.collection, OLD.f_type, OLD.f_status, -1);
          END IF;
        END IF;
        UPDATE ${schema}.quire_changes SET generation = generation + 1, xid = txid_current() WHERE xid <> txid_current();
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER quire_records_changed AFTER INSERT OR UPDATE OR DELETE ON ${schema}.quire_records
        FOR EACH ROW EXECUTE PROCEDURE ${schema}.quire_records_changed()`,
    ],
  },
  {
    version: 3,
    name: 'author archives of one type and status',
    statements: ({ schema }) => [
      // An author's posts of one status, newest first, with their total, from the index alone.
      `CREATE INDEX quire_records_author_type_status_date ON ${schema}.quire_records (collection, f_author, f_type, f_status, f_date NULLS FIRST, id)`,
    ],
  },
  {
    version: 4,
    name: 'elements of term arrays',
    statements: ({ schema }) => [
      // One row per string or number element of a record's term array, kept by a trigger; jsonb keeps '2' and 2
      // apart, as the documents do.
      `CREATE TABLE ${schema}.quire_members (
        field text COLLATE "C" NOT NULL,
        value jsonb NOT NULL,
        collection text COLLATE "C" NOT NULL,
        id bigint NOT NULL,
        PRIMARY KEY (field, value, collection, id)
      )`,
      `CREATE INDEX quire_members_record ON ${schema}.quire_members (collection, id)`,
      `INSERT INTO ${schema}.quire_members (field, value, collection, id)
        SELECT element.field, element.value, r.collection, r.id FROM ${schema}.quire_records r
        CROSS JOIN LATERAL (${elementsOf('r')}) AS element
        ON CONFLICT DO NOTHING`,
      `CREATE FUNCTION ${schema}.quire_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND NOT (${MEMBER_INDEXED_FIELDS.map((field) => `OLD.data -> ${literal(field)} IS DISTINCT FROM NEW.data -> ${literal(field)}`).join(' OR ')}) THEN
          RETURN NULL;
        END IF;
        IF TG_OP <> 'INSERT' THEN
          DELETE FROM ${schema}.quire_members WHERE collection = OLD.collection AND id = OLD.id;
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO ${schema}.quire_members (field, value, collection, id)
            SELECT element.field, element.value, NEW.collection, NEW.id FROM (${elementsOf('NEW')}) AS element
            ON CONFLICT DO NOTHING;
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER quire_members_changed AFTER INSERT OR UPDATE OR DELETE ON ${schema}.quire_records
        FOR EACH ROW EXECUTE PROCEDURE ${schema}.quire_members_changed()`,
    ],
  },
  {
    version: 5,
    name: 'term lists by date',
    statements: ({ schema }) => [
      // The members rows carry what a posts list of one term filters and orders on (the typed columns' values),
      // so the list walks one index in date order and counts its total from that index (sql/member-lists.ts).
      `ALTER TABLE ${schema}.quire_members ADD COLUMN type text COLLATE "C", ADD COLUMN status text COLLATE "C",
        ADD COLUMN date text COLLATE "C"`,
      `UPDATE ${schema}.quire_members m SET type = r.f_type, status = r.f_status, date = r.f_date
        FROM ${schema}.quire_records r WHERE r.collection = m.collection AND r.id = m.id`,
      `CREATE INDEX quire_members_list ON ${schema}.quire_members (field, value, collection, type, date NULLS FIRST, id) INCLUDE (status)`,
      // The trigger now also follows changes of type, status and date.
      `CREATE OR REPLACE FUNCTION ${schema}.quire_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND NOT (${MEMBER_INDEXED_FIELDS.map((field) => `OLD.data -> ${literal(field)} IS DISTINCT FROM NEW.data -> ${literal(field)}`).join(' OR ')}
            OR OLD.f_type IS DISTINCT FROM NEW.f_type OR OLD.f_status IS DISTINCT FROM NEW.f_status OR OLD.f_date IS DISTINCT FROM NEW.f_date) THEN
          RETURN NULL;
        END IF;
        IF TG_OP <> 'INSERT' THEN
          DELETE FROM ${schema}.quire_members WHERE collection = OLD.collection AND id = OLD.id;
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO ${schema}.quire_members (field, value, collection, id, type, status, date)
            SELECT element.field, element.value, NEW.collection, NEW.id, NEW.f_type, NEW.f_status, NEW.f_date FROM (${elementsOf('NEW')}) AS element
            ON CONFLICT DO NOTHING;
        END IF;
        RETURN NULL;
      END
      $$`,
    ],
  },
  {
    version: 6,
    name: 'term counts per type and status',
    statements: ({ schema }) => [
      // Counting a term's members rows from their index still takes some 10 ms at 17,000 rows (more right after an
      // import, before autovacuum marks the pages all-visible), so the totals of term lists are kept as
      // `quire_counts` are: one row per key, plus +1/-1 rows the trigger appends and the store merges at the end
      // of each of its write transactions.
      `CREATE TABLE ${schema}.quire_member_counts (
        field text COLLATE "C" NOT NULL,
        value jsonb NOT NULL,
        collection text COLLATE "C" NOT NULL,
        type text COLLATE "C",
        status text COLLATE "C",
        records bigint NOT NULL
      )`,
      `CREATE INDEX quire_member_counts_key ON ${schema}.quire_member_counts (field, value, collection, type, status)`,
      `CREATE TABLE ${schema}.quire_member_count_changes (
        field text COLLATE "C" NOT NULL,
        value jsonb NOT NULL,
        collection text COLLATE "C" NOT NULL,
        type text COLLATE "C",
        status text COLLATE "C",
        change bigint NOT NULL
      )`,
      `CREATE INDEX quire_member_count_changes_key ON ${schema}.quire_member_count_changes (field, value, collection, type, status)`,
      `INSERT INTO ${schema}.quire_member_counts (field, value, collection, type, status, records)
        SELECT field, value, collection, type, status, count(*) FROM ${schema}.quire_members GROUP BY 1, 2, 3, 4, 5`,
      `CREATE OR REPLACE FUNCTION ${schema}.quire_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND NOT (${MEMBER_INDEXED_FIELDS.map((field) => `OLD.data -> ${literal(field)} IS DISTINCT FROM NEW.data -> ${literal(field)}`).join(' OR ')}
            OR OLD.f_type IS DISTINCT FROM NEW.f_type OR OLD.f_status IS DISTINCT FROM NEW.f_status OR OLD.f_date IS DISTINCT FROM NEW.f_date) THEN
          RETURN NULL;
        END IF;
        IF TG_OP <> 'INSERT' THEN
          WITH gone AS (DELETE FROM ${schema}.quire_members WHERE collection = OLD.collection AND id = OLD.id
            RETURNING field, value, collection, type, status)
          INSERT INTO ${schema}.quire_member_count_changes (field, value, collection, type, status, change)
            SELECT field, value, collection, type, status, -1 FROM gone;
        END IF;
        IF TG_OP <> 'DELETE' THEN
          WITH added AS (INSERT INTO ${schema}.quire_members (field, value, collection, id, type, status, date)
            SELECT element.field, element.value, NEW.collection, NEW.id, NEW.f_type, NEW.f_status, NEW.f_date FROM (${elementsOf('NEW')}) AS element
            ON CONFLICT DO NOTHING RETURNING field, value, collection, type, status)
          INSERT INTO ${schema}.quire_member_count_changes (field, value, collection, type, status, change)
            SELECT field, value, collection, type, status, 1 FROM added;
        END IF;
        RETURN NULL;
      END
      $$`,
    ],
  },
  {
    version: 7,
    name: 'record lengths, staged pieces of long records',
    statements: ({ schema }) => [
      // Reads fetch a long record's JSON text in slices (large-records.ts); the length tells them when.
      `ALTER TABLE ${schema}.quire_records ADD COLUMN data_length integer GENERATED ALWAYS AS (length(data::text)) STORED`,
      // A long record's JSON text, sent in pieces inside its writing transaction and removed by the same one.
      `CREATE UNLOGGED TABLE ${schema}.quire_staged (
        slot text COLLATE "C" NOT NULL,
        seq integer NOT NULL,
        piece text NOT NULL,
        PRIMARY KEY (slot, seq)
      )`,
    ],
  },
];

/** The string and number elements of a record's term arrays (`MEMBER_INDEXED_FIELDS`), as (field, value) rows. */
function elementsOf(row: 'r' | 'NEW'): string {
  return MEMBER_INDEXED_FIELDS.map((field) => `SELECT ${literal(field)}::text AS field, item.value FROM jsonb_array_elements(
          CASE WHEN jsonb_typeof(${row}.data -> ${literal(field)}) = 'array' THEN ${row}.data -> ${literal(field)} ELSE '[]'::jsonb END) AS item(value)
          WHERE jsonb_typeof(item.value) IN ('string', 'number')`).join(' UNION ALL ');
}
