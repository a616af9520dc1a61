import { INDEXED_FIELDS, TEXT_INDEXED_FIELDS } from '../sql/fields.js';
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
];
