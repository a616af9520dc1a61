/**
 * One of the processes in the PostgreSQL store's "several processes, one database" test:
 *
 *   node --import tsx test/storage/postgres-writer.ts <connection string> <schema> <writer name> <rounds>
 *
 * Each round inserts an entry, increments a shared counter in a transaction, and claims a slug if no record
 * holds it yet (check, then insert, in one transaction).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { postgresStorage } from '../../src/storage/postgres/index.js';

const [connectionString, schema, writer, rounds] = process.argv.slice(2);
const store = await postgresStorage({ connectionString: connectionString!, schema: schema!, max: 3 });
try {
  for (let round = 0; round < Number(rounds); round++) {
    await store.insert('entries', { writer, round });
    await store.transaction(async (tx) => {
      const counter = (await tx.get('counters', 1))!;
      await delay(1);
      await tx.update('counters', 1, { value: (counter.value as number) + 1 });
    });
    const slug = `slug-${round % 7}`;
    await store.transaction(async (tx) => {
      const holders = await tx.list('posts', { where: [{ field: 'slug', op: 'eq', value: slug }], limit: 0, withTotal: true });
      if (holders.total === 0) await tx.insert('posts', { slug, writer });
    });
  }
} finally {
  await store.close();
}
