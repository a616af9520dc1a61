/**
 * The other process of the PostgreSQL change-token test:
 *
 *   node --import tsx test/storage/postgres-token-writer.ts <connection string> <schema>
 *
 * Reads one command per line on stdin — `insert`, `update`, `remove`, `rollback` (a transaction that writes,
 * then fails), `read` — carries it out with its own pool, and answers `done <its change token>` on stdout once
 * the command has finished (so a write has committed).
 */
import { createInterface } from 'node:readline';
import { postgresStorage } from '../../src/storage/postgres/index.js';

const [connectionString, schema] = process.argv.slice(2);
const store = await postgresStorage({ connectionString: connectionString!, schema: schema!, max: 2 });
const commands: Record<string, () => Promise<unknown>> = {
  insert: () => store.insert('posts', { type: 'post', status: 'publish', title: 'from the other process' }),
  update: () => store.update('posts', 1, { title: `renamed at ${Date.now()}` }),
  remove: async () => {
    const { items } = await store.list('posts', { orderBy: [{ field: 'id', direction: 'desc' }], limit: 1 });
    return store.remove('posts', items[0]!.id);
  },
  rollback: () => store.transaction(async (tx) => {
    await tx.insert('posts', { title: 'never committed' });
    await tx.update('posts', 1, { title: 'never committed' });
    throw new Error('rolled back');
  }).catch(() => undefined),
  read: () => store.list('posts', { withTotal: true }),
};
try {
  for await (const line of createInterface({ input: process.stdin })) {
    const command = commands[line.trim()];
    if (!command) throw new Error(`unknown command ${line}`);
    await command();
    process.stdout.write(`done ${await store.changeToken()}\n`);
  }
} finally {
  await store.close();
}
