import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startReceiver, type Receiver } from './receiver.js';
import { events, makeSite, verifies } from './helpers.js';

let receiver: Receiver;
before(async () => { receiver = await startReceiver(); });
after(async () => { await receiver.close(); });
beforeEach(() => {
  receiver.received.length = 0;
  receiver.status = 200;
  receiver.delayMs = 0;
});

async function subscribe(site: Awaited<ReturnType<typeof makeSite>>, body: Record<string, unknown> = {}) {
  const response = await site.admin('POST', '/webhooks/v1/subscriptions', { json: { url: receiver.url, events: ['*'], ...body } });
  assert.equal(response.status, 201, JSON.stringify(response.json));
  return response.json as { id: number; secret: string };
}

describe('webhook deliveries', () => {
  it('sends a signed post.published with the resource as an anonymous reader sees it', async () => {
    const site = await makeSite(receiver);
    const subscription = await subscribe(site, { events: ['post.published'] });
    const post = await site.admin('POST', '/cms/v2/posts', { json: { title: 'Hello', content: 'Body', status: 'publish' } });
    assert.equal(await site.cms.webhooks.runDue(), 1);
    assert.deepEqual(events(receiver), ['post.published']);
    const [delivery] = receiver.received;
    assert.ok(verifies(delivery!, subscription.secret), 'the signature verifies with the secret');
    assert.ok(!verifies(delivery!, `${subscription.secret}x`), 'and not with another');
    assert.equal(delivery!.headers['idempotency-key'], delivery!.json.id);
    assert.equal(delivery!.headers['x-quire-event'], 'post.published');
    assert.equal(delivery!.json.time, '2026-11-21T17:11:35.000Z');
    const anonymous = await site.anonymous('GET', `/cms/v2/posts/${post.json.id}`);
    assert.deepEqual(delivery!.json.resource, anonymous.json);
    assert.equal(await site.cms.webhooks.runDue(), 0, 'a delivered event is not sent again');
  });

  it('raises published, updated, trashed and deleted once each, and nothing for drafts', async () => {
    const site = await makeSite(receiver);
    await subscribe(site);
    const draft = await site.admin('POST', '/cms/v2/pages', { json: { title: 'Draft', status: 'draft' } });
    await site.admin('POST', `/cms/v2/pages/${draft.json.id}`, { json: { title: 'Still a draft' } });
    await site.cms.webhooks.runDue();
    assert.deepEqual(events(receiver), []);
    await site.admin('POST', `/cms/v2/pages/${draft.json.id}`, { json: { status: 'publish' } });
    await site.admin('POST', `/cms/v2/pages/${draft.json.id}`, { json: { title: 'Renamed' } });
    await site.admin('DELETE', `/cms/v2/pages/${draft.json.id}`);
    await site.admin('DELETE', `/cms/v2/pages/${draft.json.id}?force=true`);
    await site.cms.webhooks.runDue();
    assert.deepEqual(events(receiver).sort(), ['page.deleted', 'page.published', 'page.trashed', 'page.updated']);
    const trashed = receiver.received.find((delivery) => delivery.json.event === 'page.trashed')!;
    assert.deepEqual(Object.keys(trashed.json.resource).sort(), ['_links', 'id', 'kind'], 'a record the public cannot read: its id and links only');
    assert.equal(trashed.json.resource._links.self[0].href, `http://example.test/cms-json/cms/v2/pages/${draft.json.id}`);
  });

  it('raises comment.created (pending: id only) and comment.approved (the comment), and term events', async () => {
    const site = await makeSite(receiver, { comments: { allowAnonymous: true } });
    await subscribe(site, { events: ['comment.created', 'comment.approved', 'term.created', 'term.updated', 'term.deleted'] });
    const post = await site.admin('POST', '/cms/v2/posts', { json: { title: 'Open', status: 'publish' } });
    const comment = await site.anonymous('POST', '/cms/v2/comments', { json: { post: post.json.id, author_name: 'Ann', author_email: 'ann@example.com', content: 'Hi' } });
    assert.equal(comment.status, 201, JSON.stringify(comment.json));
    await site.cms.webhooks.runDue();
    await site.admin('POST', `/cms/v2/comments/${comment.json.id}`, { json: { status: 'approved' } });
    const term = await site.admin('POST', '/cms/v2/tags', { json: { name: 'News' } });
    await site.admin('POST', `/cms/v2/tags/${term.json.id}`, { json: { description: 'All the news' } });
    await site.admin('DELETE', `/cms/v2/tags/${term.json.id}?force=true`);
    await site.cms.webhooks.runDue();
    const byEvent = new Map(receiver.received.map((delivery) => [delivery.json.event, delivery.json.resource]));
    assert.ok(byEvent.has('term.created') && byEvent.has('term.updated') && byEvent.has('term.deleted'), events(receiver).join());
    assert.deepEqual(Object.keys(byEvent.get('comment.created')).sort(), ['_links', 'id', 'kind']);
    assert.equal(byEvent.get('comment.approved').content.rendered, '<p>Hi</p>\n');
  });

  it('retries 5xx answers with growing delays and delivers once the receiver is back', async () => {
    const site = await makeSite(receiver);
    const subscription = await subscribe(site, { events: ['post.published'] });
    receiver.status = 503;
    await site.admin('POST', '/cms/v2/posts', { json: { title: 'Down', status: 'publish' } });
    assert.equal(await site.cms.webhooks.runDue(), 1);
    assert.equal(await site.cms.webhooks.runDue(), 0, 'not due again before its delay');
    const log = async () => (await site.admin('GET', `/webhooks/v1/subscriptions/${subscription.id}/deliveries`)).json[0];
    assert.equal((await log()).state, 'pending');
    assert.equal((await log()).response_status, 503);
    const delays: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const due = Date.parse((await log()).next_attempt) - site.clock.now().getTime();
      delays.push(due);
      site.clock.advance(due);
      assert.equal(await site.cms.webhooks.runDue(), 1);
    }
    assert.ok(delays[0]! >= 500 && delays[0]! <= 1000, `first delay ${delays[0]}`);
    assert.ok(delays[3]! >= 4000 && delays[3]! <= 8000, `fourth delay ${delays[3]}`);
    receiver.status = 200;
    site.clock.advance(Date.parse((await log()).next_attempt) - site.clock.now().getTime());
    await site.cms.webhooks.runDue();
    assert.deepEqual(events(receiver), ['post.published']);
    assert.equal((await log()).state, 'delivered');
    assert.equal((await log()).attempts, 6);
  });

  it('fails at once on a 4xx, and redelivers the same event on request', async () => {
    const site = await makeSite(receiver);
    const subscription = await subscribe(site, { events: ['post.published'] });
    receiver.status = 410;
    await site.admin('POST', '/cms/v2/posts', { json: { title: 'Gone', status: 'publish' } });
    await site.cms.webhooks.runDue();
    const [failed] = (await site.admin('GET', `/webhooks/v1/subscriptions/${subscription.id}/deliveries`)).json;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.response_status, 410);
    assert.equal(failed.attempts, 1);
    receiver.status = 200;
    const again = await site.admin('POST', `/webhooks/v1/subscriptions/${subscription.id}/deliveries/${failed.id}/redeliver`);
    assert.equal(again.status, 201);
    assert.equal(again.json.event_id, failed.event_id);
    await site.cms.webhooks.runDue();
    assert.equal(receiver.received.length, 1);
    assert.equal(receiver.received[0]!.json.id, failed.event_id);
  });

  it('sends every event to a fixed target, signed with the configured secret, and logs it as subscription 0', async () => {
    const site = await makeSite(receiver, { webhooks: { targets: [receiver.url], secret: 'the fixed targets secret' } });
    await site.admin('POST', '/cms/v2/tags', { json: { name: 'Fixed' } });
    await site.cms.webhooks.runDue();
    const tag = receiver.received.find((delivery) => delivery.json.resource.taxonomy === 'post_tag')!;
    assert.equal(tag.json.event, 'term.created');
    assert.equal(tag.json.resource.name, 'Fixed');
    assert.ok(receiver.received.every((delivery) => verifies(delivery, 'the fixed targets secret')));
    const log = await site.cms.webhooks.listDeliveries(0);
    assert.equal(log.items.length, receiver.received.length);
    assert.ok(log.items.every((delivery) => delivery.state === 'delivered' && delivery.subscription === 0));
  });

  it('queues nothing for a change that rolls back', async () => {
    const site = await makeSite(receiver);
    await subscribe(site);
    const storage = site.cms.deps.storage;
    await assert.rejects(storage.transaction(async (tx) => {
      await tx.insert('posts', { type: 'post', status: 'publish', title: 'never' });
      throw new Error('undo');
    }));
    await storage.transaction(async (tx) => {
      await tx.transaction(async (inner) => {
        await inner.insert('terms', { taxonomy: 'post_tag', name: 'kept', slug: 'kept' });
      });
      await tx.transaction(async (inner) => {
        await inner.insert('terms', { taxonomy: 'post_tag', name: 'undone', slug: 'undone' });
        throw new Error('undo');
      }).catch(() => {});
    });
    await site.cms.webhooks.runDue();
    assert.deepEqual(events(receiver), ['term.created']);
  });

  it('raises form.submitted and signup.confirmed from their stores', async () => {
    const site = await makeSite(receiver);
    await subscribe(site, { events: ['form.submitted', 'signup.confirmed'] });
    await site.cms.deps.storage.insert('form_submissions', { form_id: 7, status: 'mail_sent', fields: {} });
    const subscriber = await site.cms.deps.storage.insert('mailing_subscribers', { list: 'news', email: 'a@example.com', status: 'pending' });
    await site.cms.deps.storage.update('mailing_subscribers', subscriber.id, { status: 'subscribed' });
    await site.cms.webhooks.runDue();
    assert.deepEqual(events(receiver).sort(), ['form.submitted', 'signup.confirmed']);
    const submitted = receiver.received.find((delivery) => delivery.json.event === 'form.submitted')!;
    assert.equal(submitted.json.resource.form, 7);
  });

  it('does not slow writes down when the receiver is slow', async () => {
    const site = await makeSite(receiver, { webhooks: { timers: undefined, pollMs: 60_000 } });
    await subscribe(site);
    receiver.delayMs = 1500;
    const started = performance.now();
    for (let index = 0; index < 5; index++) await site.admin('POST', '/cms/v2/posts', { json: { title: `Post ${index}`, status: 'publish' } });
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 1000, `five writes took ${elapsed} ms`);
    for (let waited = 0; receiver.received.length < 6 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    await site.cms.webhooks.stop();
    assert.equal(receiver.received.filter((delivery) => delivery.json.event === 'post.published').length, 5);
  });

  it('keeps the latest finished deliveries per subscription only', async () => {
    const site = await makeSite(receiver, { webhooks: { keepPerSubscription: 2 } });
    const subscription = await subscribe(site, { events: ['term.created'] });
    for (let index = 0; index < 5; index++) {
      await site.cms.deps.storage.insert('terms', { taxonomy: 'post_tag', name: `t${index}`, slug: `t${index}` });
      site.clock.advance(1000);
      await site.cms.webhooks.runDue();
    }
    site.clock.advance(120_000);
    await site.cms.webhooks.runDue();
    const log = await site.admin('GET', `/webhooks/v1/subscriptions/${subscription.id}/deliveries`);
    assert.equal(log.json.length, 2);
    assert.equal(receiver.received.length, 5);
  });
});
