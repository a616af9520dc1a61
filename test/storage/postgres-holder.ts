/**
 * A process that stops in the middle of a write, for the PostgreSQL store's lock tests:
 *
 *   node --import tsx test/storage/postgres-holder.ts <connection string> <schema> <idle transaction timeout ms>
 *
 * It opens a transaction, inserts a record, prints `holding` and waits for a line on its input (the test freezes
 * it meanwhile with SIGSTOP); then it ends the transaction and prints what became of it: `committed`, or the
 * storage error's code.
 */
import { createInterface } from 'node:readline';
import { isStorageError } from '../../src/ports/storage.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';

const [connectionString, schema, idleMs] = process.argv.slice(2);
const store = await postgresStorage({ connectionString: connectionString!, schema: schema!, idleTransactionTimeoutMs: Number(idleMs), max: 2 });
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
try {
  await store.transaction(async (tx) => {
    await tx.insert('held', { by: 'holder' });
    console.log('holding');
    await lines.next();
  });
  console.log('committed');
} catch (error) {
  console.log(isStorageError(error) ? error.code : `unexpected: ${String(error)}`);
} finally {
  input.close();
  await store.close();
}
