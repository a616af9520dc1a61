import type BetterSqlite3 from 'better-sqlite3';

/** Prepared statements by SQL text, keeping the most recently used (list queries vary in shape). */
export class StatementCache {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly db: BetterSqlite3.Database, private readonly capacity = 256) {}

  get(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      this.statements.delete(sql);
    } else {
      statement = this.db.prepare(sql);
      if (this.statements.size >= this.capacity) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, statement);
    return statement;
  }
}

/** The names of the first parameters, made once: every list binds several. */
const NAMES = Array.from({ length: 32 }, (_, index) => `p${index + 1}`);
const REFERENCES = NAMES.map((name) => `@${name}`);

/** Named parameters (`@p1`, `@p2`...), bound from one object; `ordered` holds the same values by position. */
export class NamedParams {
  readonly values: Record<string, unknown> = {};
  readonly ordered: unknown[] = [];

  add(value: unknown): string {
    const at = this.ordered.length;
    this.ordered.push(value);
    const name = NAMES[at] ?? `p${at + 1}`;
    this.values[name] = value;
    return REFERENCES[at] ?? `@${name}`;
  }
}
