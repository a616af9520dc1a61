import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backoffMs, DEFAULT_RETRY } from '../../src/webhooks/attempt.js';
import { addRaised, eventsOf, type RaisedEvent } from '../../src/webhooks/events.js';
import { startReceiver, type Receiver } from './receiver.js';
import { events, makeSite } from './helpers.js';

let receiver: Receiver;
before(async () => { receiver = await startReceiver(); });
after(async () => { await receiver.close(); });

const post = (status: string, type = 'post') => ({ id: 5, type, status });

describe('webhook events', () => {
  it('read what a write did from the record before and after', () => {
    const names = (raised: RaisedEvent[]) => raised.map((event) => event.event);
    assert.deepEqual(names(eventsOf('posts', null, post('publish'))), ['post.published']);
    assert.deepEqual(names(eventsOf('posts', null, post('draft'))), []);
    assert.deepEqual(names(eventsOf('posts', post('future'), post('publish'), { status: 'publish' })), ['post.published']);
    assert.deepEqual(names(eventsOf('posts', post('publish', 'page'), post('draft', 'page'), { status: 'draft' })), ['page.updated']);
    assert.deepEqual(names(eventsOf('posts', post('draft'), post('draft'), { title: 'x' })), []);
    assert.deepEqual(names(eventsOf('posts', post('publish'), post('trash'), { status: 'trash' })), ['post.trashed']);
    assert.deepEqual(names(eventsOf('posts', post('trash'), null)), ['post.deleted']);
    assert.deepEqual(names(eventsOf('posts', null, post('inherit', 'attachment'))), ['media.added']);
    assert.deepEqual(names(eventsOf('posts', post('inherit', 'attachment'), post('inherit', 'attachment'), { alt_text: 'x' })), []);
    assert.deepEqual(names(eventsOf('posts', post('inherit', 'attachment'), null)), ['media.deleted']);
    assert.deepEqual(names(eventsOf('posts', null, post('inherit', 'revision'))), []);
    assert.deepEqual(names(eventsOf('terms', { id: 1, count: 0 }, { id: 1, count: 1 }, { count: 1 })), [], 'a count kept up to date is no change');
    assert.deepEqual(names(eventsOf('comments', { id: 1, status: 'hold' }, { id: 1, status: 'spam' }, { status: 'spam' })), []);
    assert.deepEqual(names(eventsOf('mailing_subscribers', null, { id: 1, status: 'pending', list: 'a' })), []);
    assert.deepEqual(names(eventsOf('mailing_subscribers', null, { id: 1, status: 'subscribed', list: 'a' })), ['signup.confirmed']);
    assert.deepEqual(names(eventsOf('settings', null, { id: 1 })), []);
  });

  it('fold one transaction\'s events: one per subject and name, no update after a publish', () => {
    const raised: RaisedEvent[] = [];
    addRaised(raised, [{ event: 'post.published', subject: { kind: 'post', id: 1 } }]);
    addRaised(raised, [{ event: 'post.updated', subject: { kind: 'post', id: 1 } }]);
    addRaised(raised, [{ event: 'post.updated', subject: { kind: 'post', id: 2 } }]);
    addRaised(raised, [{ event: 'post.updated', subject: { kind: 'post', id: 2 } }]);
    assert.deepEqual(raised.map((event) => `${event.event}:${event.subject.id}`), ['post.published:1', 'post.updated:2']);
  });

  it('back off exponentially with jitter over the upper half, up to the cap', () => {
    assert.equal(backoffMs(1, DEFAULT_RETRY, () => 0), 5_000);
    assert.equal(backoffMs(1, DEFAULT_RETRY, () => 1), 10_000);
    assert.equal(backoffMs(3, DEFAULT_RETRY, () => 1), 40_000);
    assert.equal(backoffMs(30, DEFAULT_RETRY, () => 1), 3_600_000);
  });

  it('raise post.published when a scheduled post comes due', async () => {
    const site = await makeSite(receiver);
    await site.cms.webhooks.createSubscription({ url: receiver.url, events: ['post.published'] });
    const scheduled = await site.admin('POST', '/cms/v2/posts', { json: { title: 'Later', status: 'future', date_gmt: '2026-11-22T09:00:00' } });
    assert.equal(scheduled.json.status, 'future');
    await site.cms.webhooks.runDue();
    assert.deepEqual(events(receiver), []);
    site.clock.set('2026-11-22T09:00:01Z');
    await site.anonymous('GET', '/cms/v2/posts');
    await site.cms.webhooks.runDue();
    assert.deepEqual(events(receiver), ['post.published']);
    assert.equal(receiver.received[0]!.json.resource.title.rendered, 'Later');
  });
});
