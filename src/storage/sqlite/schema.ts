import { INDEXED_FIELDS, MEMBER_INDEXED_FIELDS, TEXT_INDEXED_FIELDS } from '../sql/fields.js';
import { COUNTS_TABLE, countKeySql, fieldPath, MEMBERS_TABLE, sortValueSql, TEXT_TABLE } from './dialect.js';

/**
 * The schema, as numbered migrations applied in order on open (see migrate.ts). A released migration never
 * changes: a schema change is a new entry at the end.
 *
 * One table holds every collection's records (a collection is a name, not a table, so collections need no DDL):
 * - `key`: the row's own integer key, which the FTS5 table uses as its rowid;
 * - `collection`, `id`: the port's identity, unique together;
 * - `data`: the record without `id`, in SQLite's binary JSON (JSONB), which the JSON functions read without parsing;
 * - `f_<field>`: stored generated columns holding the sort value of the indexed fields (dialect.ts), which
 *   feed the indexes below.
 *
 * `quire_counts` holds each collection's number of records per string `type` and `status` (`x''` standing for
 * any other value), kept by triggers in the transaction of every write, for totals (see sql/counts.ts).
 */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

function generatedColumns(): string[] {
  return [...INDEXED_FIELDS.values()].map(({ field, column }) =>
    // No declared type: the column must keep each value's own storage class (no affinity).
    `${column} GENERATED ALWAYS AS (${sortValueSql('data', `'${fieldPath(field)}'`)}) STORED`);
}

/** The counts row of a record (`NEW` or `OLD` in a trigger) changes by `delta`. */
function countChange(row: 'NEW' | 'OLD', delta: 1 | -1): string {
  return `INSERT INTO ${COUNTS_TABLE} (collection, type, status, records)
        VALUES (${row}.collection, ${countKeySql(`${row}.f_type`)}, ${countKeySql(`${row}.f_status`)}, ${delta})
        ON CONFLICT (collection, type, status) DO UPDATE SET records = records + ${delta};`;
}

/**
 * The members rows of the record `NEW` (in a trigger), or of every record (`r`), for `MEMBER_INDEXED_FIELDS`:
 * the string and number elements of each field that holds an array.
 */
function membersOf(row: 'NEW' | 'r'): string {
  const from = row === 'r' ? 'quire_records AS r, ' : '';
  return MEMBER_INDEXED_FIELDS.map((field) => `SELECT '${field}', item.value, ${row}.key FROM ${from}json_each(${row}.data, '${fieldPath(field)}') AS item
        WHERE json_type(${row}.data, '${fieldPath(field)}') = 'array' AND item.type IN ('text', 'integer', 'real')`).join(' UNION ALL ');
}

/**
 * The members rows of `NEW` or of every record (`r`) as migration 6 keeps them: each element with its record's
 * collection, type, status, date (sort values, as in the generated columns) and id (see sql/member-lists.ts).
 */
function listedMembersOf(row: 'NEW' | 'r'): string {
  const from = row === 'r' ? 'quire_records AS r, ' : '';
  return MEMBER_INDEXED_FIELDS.map((field) => `SELECT '${field}', item.value, ${row}.key, ${row}.collection, ${row}.f_type, ${row}.f_status, ${row}.f_date, ${row}.id
        FROM ${from}json_each(${row}.data, '${fieldPath(field)}') AS item
        WHERE json_type(${row}.data, '${fieldPath(field)}') = 'array' AND item.type IN ('text', 'integer', 'real')`).join(' UNION ALL ');
}

const LISTED_MEMBER_COLUMNS = 'field, value, key, collection, type, status, date, id';

const membersChanged = MEMBER_INDEXED_FIELDS
  .map((field) => `json_extract(OLD.data, '${fieldPath(field)}') IS NOT json_extract(NEW.data, '${fieldPath(field)}')`).join(' OR ');

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'records, id counters, list indexes, text index',
    statements: [
      `CREATE TABLE quire_collections (
        name TEXT PRIMARY KEY NOT NULL,
        last_id INTEGER NOT NULL
      )`,
      `CREATE TABLE quire_records (
        key INTEGER PRIMARY KEY,
        collection TEXT NOT NULL,
        id INTEGER NOT NULL,
        data BLOB NOT NULL,
        ${generatedColumns().join(',\n        ')}
      )`,
      'CREATE UNIQUE INDEX quire_records_id ON quire_records (collection, id)',
      // Lists of one type and status, newest (or recently modified) first: the most common list of all.
      'CREATE INDEX quire_records_type_status_date ON quire_records (collection, f_type, f_status, f_date, id)',
      'CREATE INDEX quire_records_type_status_modified ON quire_records (collection, f_type, f_status, f_modified, id)',
      // Scheduled posts come due by their GMT date.
      'CREATE INDEX quire_records_status_date_gmt ON quire_records (collection, f_status, f_date_gmt, id)',
      // Collections without types (comments, revisions by date), and author archives.
      'CREATE INDEX quire_records_date ON quire_records (collection, f_date, id)',
      'CREATE INDEX quire_records_author ON quire_records (collection, f_author, f_date, id)',
      // Children of a parent in menu order (pages, revisions, comment threads, terms).
      'CREATE INDEX quire_records_parent ON quire_records (collection, f_parent, f_menu_order, id)',
      'CREATE INDEX quire_records_slug ON quire_records (collection, f_slug, id)',
      'CREATE INDEX quire_records_title ON quire_records (collection, f_type, f_title, id)',
      `CREATE INDEX quire_records_sticky ON quire_records (collection, id) WHERE f_sticky = x'01'`,
      // Folded text; the trigram tokenizer makes a phrase query a substring test. Contentless: the text is
      // stored once, in `data`.
      `CREATE VIRTUAL TABLE ${TEXT_TABLE} USING fts5(${TEXT_INDEXED_FIELDS.join(', ')}, `
        + `content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`,
    ],
  },
  {
    version: 2,
    name: 'children of one type by date',
    statements: [
      // A post's revisions (or attachments), newest first: the parent and type equalities and the order are all
      // in the index, so the planner cannot prefer walking the date index of the whole collection.
      'CREATE INDEX quire_records_parent_type_date ON quire_records (collection, f_parent, f_type, f_date, id)',
    ],
  },
  {
    version: 3,
    name: 'record counts per type and status',
    statements: [
      // No declared types on the keys: they keep the storage class of the generated columns (text, or x'').
      `CREATE TABLE ${COUNTS_TABLE} (
        collection TEXT NOT NULL,
        type NOT NULL,
        status NOT NULL,
        records INTEGER NOT NULL,
        PRIMARY KEY (collection, type, status)
      ) WITHOUT ROWID`,
      `INSERT INTO ${COUNTS_TABLE} (collection, type, status, records)
        SELECT collection, ${countKeySql('f_type')}, ${countKeySql('f_status')}, count(*) FROM quire_records GROUP BY 1, 2, 3`,
      `CREATE TRIGGER quire_records_count_insert AFTER INSERT ON quire_records BEGIN
        ${countChange('NEW', 1)}
      END`,
      `CREATE TRIGGER quire_records_count_delete AFTER DELETE ON quire_records BEGIN
        ${countChange('OLD', -1)}
      END`,
      `CREATE TRIGGER quire_records_count_update AFTER UPDATE OF data ON quire_records
        WHEN OLD.f_type IS NOT NEW.f_type OR OLD.f_status IS NOT NEW.f_status BEGIN
        ${countChange('OLD', -1)}
        ${countChange('NEW', 1)}
      END`,
    ],
  },
  {
    version: 4,
    name: 'author archives of one type and status',
    statements: [
      // An author's posts of one status, newest first, with their total: every condition, the order and the
      // count are answered from the index alone (the author index made the count read each of the author's rows).
      'CREATE INDEX quire_records_author_type_status_date ON quire_records (collection, f_author, f_type, f_status, f_date, id)',
    ],
  },
  {
    version: 5,
    name: 'elements of term arrays',
    statements: [
      // One row per string or number element of a record's term array, kept by triggers. Keys are unique across
      // collections, so the collection is left to the records table. No declared type on `value`: text stays
      // text and numbers stay numbers, so '2' and 2 differ as they do in the documents.
      `CREATE TABLE ${MEMBERS_TABLE} (
        field TEXT NOT NULL,
        value NOT NULL,
        key INTEGER NOT NULL,
        PRIMARY KEY (field, value, key)
      ) WITHOUT ROWID`,
      `CREATE INDEX ${MEMBERS_TABLE}_key ON ${MEMBERS_TABLE} (key)`,
      `INSERT OR IGNORE INTO ${MEMBERS_TABLE} (field, value, key) ${membersOf('r')}`,
      `CREATE TRIGGER quire_members_insert AFTER INSERT ON quire_records BEGIN
        INSERT OR IGNORE INTO ${MEMBERS_TABLE} (field, value, key) ${membersOf('NEW')};
      END`,
      `CREATE TRIGGER quire_members_delete AFTER DELETE ON quire_records BEGIN
        DELETE FROM ${MEMBERS_TABLE} WHERE key = OLD.key;
      END`,
      `CREATE TRIGGER quire_members_update AFTER UPDATE OF data ON quire_records WHEN ${membersChanged} BEGIN
        DELETE FROM ${MEMBERS_TABLE} WHERE key = OLD.key;
        INSERT OR IGNORE INTO ${MEMBERS_TABLE} (field, value, key) ${membersOf('NEW')};
      END`,
    ],
  },
  {
    version: 6,
    name: 'term lists by date',
    statements: [
      // The members rows carry what a posts list of one term filters and orders on, so the list walks one index
      // in date order and counts its total from that index alone (sql/member-lists.ts). Rebuilt from the
      // records: the triggers now also follow changes of type, status and date.
      'DROP TRIGGER quire_members_insert',
      'DROP TRIGGER quire_members_delete',
      'DROP TRIGGER quire_members_update',
      `DROP TABLE ${MEMBERS_TABLE}`,
      // No declared type on `value`, `type`, `status`, `date`: they keep each value's storage class.
      `CREATE TABLE ${MEMBERS_TABLE} (
        field TEXT NOT NULL,
        value NOT NULL,
        key INTEGER NOT NULL,
        collection TEXT NOT NULL,
        type,
        status,
        date,
        id INTEGER NOT NULL,
        PRIMARY KEY (field, value, key)
      ) WITHOUT ROWID`,
      `CREATE INDEX ${MEMBERS_TABLE}_key ON ${MEMBERS_TABLE} (key)`,
      `CREATE INDEX ${MEMBERS_TABLE}_list ON ${MEMBERS_TABLE} (field, value, collection, type, date, id, status)`,
      `INSERT OR IGNORE INTO ${MEMBERS_TABLE} (${LISTED_MEMBER_COLUMNS}) ${listedMembersOf('r')}`,
      `CREATE TRIGGER quire_members_insert AFTER INSERT ON quire_records BEGIN
        INSERT OR IGNORE INTO ${MEMBERS_TABLE} (${LISTED_MEMBER_COLUMNS}) ${listedMembersOf('NEW')};
      END`,
      `CREATE TRIGGER quire_members_delete AFTER DELETE ON quire_records BEGIN
        DELETE FROM ${MEMBERS_TABLE} WHERE key = OLD.key;
      END`,
      `CREATE TRIGGER quire_members_update AFTER UPDATE OF data ON quire_records
        WHEN ${membersChanged} OR OLD.f_type IS NOT NEW.f_type OR OLD.f_status IS NOT NEW.f_status OR OLD.f_date IS NOT NEW.f_date BEGIN
        DELETE FROM ${MEMBERS_TABLE} WHERE key = OLD.key;
        INSERT OR IGNORE INTO ${MEMBERS_TABLE} (${LISTED_MEMBER_COLUMNS}) ${listedMembersOf('NEW')};
      END`,
    ],
  },
];
