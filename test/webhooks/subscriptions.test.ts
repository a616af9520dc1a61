import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCms } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { startReceiver, type Receiver } from './receiver.js';
import { makeSite, MANUAL_TIMERS, NOW } from './helpers.js';

let receiver: Receiver;
before(async () => { receiver = await startReceiver(); });
after(async () => { await receiver.close(); });

describe('webhook subscriptions', () => {
  it('are for administrators only', async () => {
    const site = await makeSite(receiver);
    assert.equal((await site.anonymous('GET', '/webhooks/v1/subscriptions')).status, 401);
    assert.equal((await site.author('GET', '/webhooks/v1/subscriptions')).status, 403);
    assert.equal((await site.author('POST', '/webhooks/v1/subscriptions', { json: { url: receiver.url, events: ['*'] } })).status, 403);
  });

  it('show the secret once, in the answer to the create', async () => {
    const site = await makeSite(receiver);
    const created = await site.admin('POST', '/webhooks/v1/subscriptions', { json: { url: receiver.url, events: ['post.published'], secret: 'a-secret-of-enough-length' } });
    assert.equal(created.json.secret, 'a-secret-of-enough-length');
    const read = await site.admin('GET', `/webhooks/v1/subscriptions/${created.json.id}`);
    assert.equal(read.json.secret, undefined);
    const listed = await site.admin('GET', '/webhooks/v1/subscriptions');
    assert.equal(listed.json[0].secret, undefined);
    const updated = await site.admin('POST', `/webhooks/v1/subscriptions/${created.json.id}`, { json: { active: false, secret: 'another-secret-long-enough' } });
    assert.equal(updated.status, 200);
    assert.equal(updated.json.active, false);
    assert.equal(updated.json.secret, undefined);
    assert.equal((await site.admin('DELETE', `/webhooks/v1/subscriptions/${created.json.id}`)).status, 200);
    assert.equal((await site.admin('GET', `/webhooks/v1/subscriptions/${created.json.id}`)).json.code, 'webhooks_subscription_not_found');
  });

  it('refuse bad URLs, private targets, unknown events and short secrets with 400 rest_invalid_param', async () => {
    const site = await makeSite(receiver);
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: 'ftp://example.com/x', events: ['*'] }, 'url'],
      [{ url: 'http://127.0.0.1:9/x', events: ['*'] }, 'url'],
      [{ url: 'http://10.1.2.3/x', events: ['*'] }, 'url'],
      [{ url: 'http://169.254.169.254/latest', events: ['*'] }, 'url'],
      [{ url: 'http://localhost/x', events: ['*'] }, 'url'],
      [{ url: 'http://[::1]/x', events: ['*'] }, 'url'],
      [{ url: 'https://example.com:22/x', events: ['*'] }, 'url'],
      [{ url: 'https://user:pw@example.com/x', events: ['*'] }, 'url'],
      [{ url: 'https://example.com/x', events: ['post.exploded'] }, 'events'],
      [{ url: 'https://example.com/x', events: [] }, 'events'],
      [{ url: 'https://example.com/x', events: ['*'], secret: 'short' }, 'secret'],
      [{ events: ['*'] }, 'url'],
    ];
    for (const [body, param] of cases) {
      const response = await site.admin('POST', '/webhooks/v1/subscriptions', { json: body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.ok(['rest_invalid_param', 'rest_missing_callback_param'].includes(response.json.code), JSON.stringify(response.json));
      assert.equal(response.json.data.status, 400);
      const named = Array.isArray(response.json.data.params) ? response.json.data.params : Object.keys(response.json.data.params);
      assert.ok(named.includes(param), `${JSON.stringify(body)}: ${JSON.stringify(response.json)}`);
    }
    assert.equal((await site.admin('POST', '/webhooks/v1/subscriptions', { json: { url: 'https://example.com/hook', events: ['*'] } })).status, 201);
    await assert.rejects(site.cms.webhooks.createSubscription({ url: 'http://192.168.1.1/x', events: ['*'] }), (error: Error & { code?: string }) => error.code === 'rest_invalid_param');
  });

  it('are listed a page at a time, with the shared paging arguments and headers', async () => {
    const site = await makeSite(receiver);
    for (let index = 0; index < 3; index++) await site.cms.webhooks.createSubscription({ url: `https://hooks.example.com/${index}`, events: ['*'] });
    const second = await site.admin('GET', '/webhooks/v1/subscriptions?per_page=2&page=2');
    assert.equal(second.status, 200);
    assert.deepEqual(second.json.map((subscription: { url: string }) => subscription.url), ['https://hooks.example.com/2']);
    assert.equal(second.headers['X-WP-Total'], '3');
    assert.equal(second.headers['X-WP-TotalPages'], '2');
    assert.equal((await site.admin('GET', '/webhooks/v1/subscriptions?page=3&per_page=2')).json.length, 0);
    for (const query of ['per_page=101', 'page=0', 'per_page=x']) {
      const refused = await site.admin('GET', `/webhooks/v1/subscriptions?${query}`);
      assert.equal(refused.status, 400, query);
      assert.equal(refused.json.code, 'rest_invalid_param', query);
    }
    const [first] = await site.cms.webhooks.listSubscriptions();
    const log = await site.admin('GET', `/webhooks/v1/subscriptions/${first!.id}/deliveries?per_page=5&state=failed`);
    assert.equal(log.status, 200);
    assert.deepEqual(log.json, []);
    assert.equal((await site.admin('GET', `/webhooks/v1/subscriptions/${first!.id}/deliveries?state=lost`)).json.code, 'rest_invalid_param');
  });

  it('are checked in-process by the routes\' arguments, and updated in the members given only', async () => {
    const site = await makeSite(receiver);
    const invalid = (error: Error & { code?: string }) => error.code === 'rest_invalid_param';
    await assert.rejects(site.cms.webhooks.createSubscription(null as never), invalid);
    await assert.rejects(site.cms.webhooks.createSubscription([] as never), invalid);
    await assert.rejects(site.cms.webhooks.createSubscription({ events: ['*'] }), (error: Error & { code?: string }) => error.code === 'rest_missing_callback_param');
    const created = await site.cms.webhooks.createSubscription({ url: 'https://hooks.example.com/a', events: ['*'], description: 'Front end' });
    assert.equal(created.active, true);
    const { secret, ...kept } = created;
    assert.ok(secret.length >= 16);
    const updated = await site.cms.webhooks.updateSubscription(created.id, { active: false });
    assert.deepEqual(updated, { ...kept, active: false });
    await assert.rejects(site.cms.webhooks.updateSubscription(created.id, { events: ['post.exploded' as never] }), invalid);
    assert.equal((await site.cms.webhooks.getSubscription(created.id))!.active, false);
  });

  it('are at most 100 per site', async () => {
    const site = await makeSite(receiver);
    for (let index = 0; index < 100; index++) await site.cms.webhooks.createSubscription({ url: `https://hooks.example.com/${index}`, events: ['*'] });
    const refused = await site.admin('POST', '/webhooks/v1/subscriptions', { json: { url: 'https://hooks.example.com/one-more', events: ['*'] } });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.code, 'webhooks_too_many_subscriptions');
    assert.equal(refused.json.data.status, 400);
  });

  it('appear in the index with their namespace', async () => {
    const site = await makeSite(receiver);
    const index = await site.anonymous('GET', '/');
    assert.ok(index.json.namespaces.includes('webhooks/v1'));
    assert.ok('/webhooks/v1/subscriptions/(?P<id>[\\d]+)/deliveries' in index.json.routes);
    const openapi = site.cms.openapi() as { paths: Record<string, unknown> };
    assert.ok(Object.keys(openapi.paths).some((path) => path.startsWith('/webhooks/v1/subscriptions')));
  });

  it('two processes on one store send each attempt once', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-webhooks-'));
    try {
      const path = join(folder, 'site.db');
      const options = { allowPrivateTargets: [`127.0.0.1:${receiver.port}`], timers: MANUAL_TIMERS };
      const first = createCms({ clock: fixedClock(NOW), storage: sqliteStorage({ path }), webhooks: options });
      const second = createCms({ clock: fixedClock(NOW), storage: sqliteStorage({ path }), webhooks: options });
      await first.webhooks.createSubscription({ url: receiver.url, events: ['term.created'] });
      receiver.received.length = 0;
      receiver.delayMs = 20;
      for (let index = 0; index < 40; index++) await first.deps.storage.insert('terms', { taxonomy: 'post_tag', name: `t${index}`, slug: `t${index}` });
      await Promise.all([first.webhooks.runDue(), second.webhooks.runDue(), first.webhooks.runDue(), second.webhooks.runDue()]);
      for (let round = 0; round < 10; round++) await Promise.all([first.webhooks.runDue(), second.webhooks.runDue()]);
      const ids = receiver.received.map((delivery) => delivery.json.id);
      assert.equal(ids.length, 40);
      assert.equal(new Set(ids).size, 40, 'no event arrived twice');
      await first.deps.storage.close!();
      await second.deps.storage.close!();
    } finally {
      receiver.delayMs = 0;
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
