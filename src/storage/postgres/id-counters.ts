/**
 * The id counters of the collections a transaction inserted into, as it last left them. The transaction holds
 * the schema's write lock, so nobody else can move them meanwhile.
 */
export class IdCounters {
  private readonly lastIds = new Map<string, { lastId: number; stored: boolean }>();

  lastId(collection: string): number | undefined {
    return this.lastIds.get(collection)?.lastId;
  }

  /** Notes a counter's value; `stored` when the database's counter row already says so. */
  set(collection: string, lastId: number, stored: boolean): void {
    this.lastIds.set(collection, { lastId, stored });
  }

  unstored(): [string, number][] {
    return [...this.lastIds].filter(([, counter]) => !counter.stored).map(([collection, counter]) => [collection, counter.lastId]);
  }

  copy(): IdCounters {
    const copy = new IdCounters();
    for (const [collection, counter] of this.lastIds) copy.lastIds.set(collection, { ...counter });
    return copy;
  }
}
