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

/** Named parameters (`@p1`, `@p2`...), bound from one object. */
export class NamedParams {
  readonly values: Record<string, unknown> = {};
  private count = 0;

  add(value: unknown): string {
    const name = `p${++this.count}`;
    this.values[name] = value;
    return `@${name}`;
  }
}
