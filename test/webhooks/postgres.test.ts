/** Two sites on one PostgreSQL schema, as two servers would be: each event reaches the receiver once. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { postgresForTests } from '../storage/postgres-setup.js';
import { startReceiver } from './receiver.js';
import { MANUAL_TIMERS, NOW } from './helpers.js';

const postgres = await postgresForTests('webhooks on postgres', { schemaPrefix: 'quire_webhooks' });

if (postgres) {
  const { server, freshSchema, closeFirst } = postgres;
  const receiver = await startReceiver();
  const schema = freshSchema();
  const stores = [
    await postgresStorage({ connectionString: server.connectionString, schema, max: 4 }),
    await postgresStorage({ connectionString: server.connectionString, schema, max: 4 }),
  ];
  closeFirst(async () => {
    for (const store of stores) await store.close();
    await receiver.close();
  });

  describe('webhooks on PostgreSQL', () => {
    it('two sites on one schema send each event once', async () => {
      const options = { allowPrivateTargets: [`127.0.0.1:${receiver.port}`], timers: MANUAL_TIMERS };
      const [first, second] = stores.map((storage) => createCms({ clock: fixedClock(NOW), storage, webhooks: options }));
      await first!.webhooks.createSubscription({ url: receiver.url, events: ['term.created'] });
      receiver.delayMs = 10;
      for (let index = 0; index < 30; index++) {
        await (index % 2 === 0 ? first! : second!).deps.storage.insert('terms', { taxonomy: 'post_tag', name: `t${index}`, slug: `t${index}` });
      }
      for (let round = 0; round < 12; round++) await Promise.all([first!.webhooks.runDue(), second!.webhooks.runDue(), first!.webhooks.runDue()]);
      const ids = receiver.received.map((delivery) => delivery.json.id);
      assert.equal(ids.length, 30);
      assert.equal(new Set(ids).size, 30, 'no event arrived twice');
      const { items } = await first!.webhooks.listDeliveries(1, { perPage: 100 });
      assert.ok(items.every((delivery) => delivery.state === 'delivered' && delivery.attempts === 1));
    });
  });
}
