import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from './helpers.js';

describe('posts: dates and status transitions', () => {
  it('schedules a publish with a future date and publishes a future status with a past date', async () => {
    const site = await makeSite();
    const scheduled = await site.create({ title: 'Later', status: 'publish', date: '2026-12-24T10:00:00' });
    assert.equal(scheduled.status, 'future');
    assert.equal(scheduled.link, `http://example.test/?p=${scheduled.id}`);
    assert.equal(scheduled.guid.raw, `http://example.test/?p=${scheduled.id}`);
    const soon = await site.create({ title: 'In thirty seconds', status: 'publish', date: '2026-11-21T17:12:05' });
    assert.equal(soon.status, 'publish');
    const past = await site.create({ title: 'Earlier', status: 'future', date: '2020-01-01T00:00:00' });
    assert.equal(past.status, 'publish');
    assert.equal(past.date, '2020-01-01T00:00:00');
    assert.equal(past.modified, '2020-01-01T00:00:00');
    assert.equal(past.link, 'http://example.test/2020/01/01/earlier/');
  });

  it('reads dates in the site time zone, offsets as instants, date_gmt as UTC, and prefers date', async () => {
    const site = await makeSite({ site: { timezone: 'Europe/Paris' } });
    const local = await site.create({ title: 'a', date: '2026-12-01T10:00:00' });
    assert.equal(local.date, '2026-12-01T10:00:00');
    assert.equal(local.date_gmt, '2026-12-01T09:00:00');
    const summer = await site.create({ title: 'b', date: '2026-07-01T10:00:00' });
    assert.equal(summer.date_gmt, '2026-07-01T08:00:00');
    const zulu = await site.create({ title: 'c', date: '2026-12-01T10:00:00Z' });
    assert.equal(zulu.date, '2026-12-01T11:00:00');
    const offset = await site.create({ title: 'd', date: '2026-12-01T10:00:00-05:00' });
    assert.equal(offset.date, '2026-12-01T16:00:00');
    assert.equal(offset.date_gmt, '2026-12-01T15:00:00');
    const gmt = await site.create({ title: 'e', date_gmt: '2026-12-01T10:00:00' });
    assert.equal(gmt.date, '2026-12-01T11:00:00');
    const both = await site.create({ title: 'f', date: '2026-12-01T10:00:00', date_gmt: '2000-01-01T00:00:00' });
    assert.equal(both.date, '2026-12-01T10:00:00');
    const now = await site.create({ title: 'g', status: 'publish' });
    assert.equal(now.date, '2026-11-21T18:11:35');
    assert.equal(now.date_gmt, '2026-11-21T17:11:35');
  });

  it('uses a fixed offset when the site has no time zone name', async () => {
    const site = await makeSite({ site: { gmtOffset: 5.5 } });
    const post = await site.create({ title: 'a', date: '2026-12-01T10:00:00' });
    assert.equal(post.date_gmt, '2026-12-01T04:30:00');
  });

  it('lets a draft date float with each save until it is published or given a date', async () => {
    const site = await makeSite();
    const draft = await site.create({ title: 'Floating' });
    assert.equal(draft.status, 'draft');
    assert.equal(draft.date, '2026-11-21T17:11:35');
    assert.equal(draft.date_gmt, '2026-11-21T17:11:35');
    assert.equal(draft.slug, '');
    assert.equal(draft.generated_slug, 'floating');

    site.clock.advance(86_400_000);
    const saved = await site.admin('POST', `/cms/v2/posts/${draft.id}`, { json: { content: 'more' } });
    assert.equal(saved.json.date, '2026-11-22T17:11:35');

    site.clock.advance(3_600_000);
    const published = await site.admin('POST', `/cms/v2/posts/${draft.id}`, { json: { status: 'publish' } });
    assert.equal(published.json.date, '2026-11-22T18:11:35');
    assert.equal(published.json.slug, 'floating');

    site.clock.advance(3_600_000);
    const later = await site.admin('POST', `/cms/v2/posts/${draft.id}`, { json: { content: 'again' } });
    assert.equal(later.json.date, '2026-11-22T18:11:35');
    assert.equal(later.json.modified, '2026-11-22T19:11:35');
  });

  it('keeps an explicit draft date, and a null date makes it float again', async () => {
    const site = await makeSite();
    const draft = await site.create({ title: 'Dated', date: '2026-01-01T00:00:00' });
    site.clock.advance(60_000);
    const saved = await site.admin('POST', `/cms/v2/posts/${draft.id}`, { json: { content: 'x' } });
    assert.equal(saved.json.date, '2026-01-01T00:00:00');
    const reset = await site.admin('POST', `/cms/v2/posts/${draft.id}`, { json: { date: null } });
    assert.equal(reset.json.date, '2026-11-21T17:12:35');
    site.clock.advance(60_000);
    const floating = await site.admin('POST', `/cms/v2/posts/${draft.id}`, { json: { content: 'y' } });
    assert.equal(floating.json.date, '2026-11-21T17:13:35');
  });

  it('needs publish_posts to publish, schedule or make private, except to keep the current status', async () => {
    const site = await makeSite();
    const contributor = site.as('contributor');
    const publish = await contributor('POST', '/cms/v2/posts', { json: { title: 'x', status: 'publish' } });
    assert.equal(publish.status, 403);
    assert.equal(publish.json.code, 'rest_cannot_publish');
    assert.equal(publish.json.message, 'Sorry, you are not allowed to publish posts in this post type.');
    const future = await contributor('POST', '/cms/v2/posts', { json: { title: 'x', status: 'future' } });
    assert.equal(future.json.code, 'rest_cannot_publish');
    const privately = await contributor('POST', '/cms/v2/posts', { json: { title: 'x', status: 'private' } });
    assert.equal(privately.json.message, 'Sorry, you are not allowed to create private posts in this post type.');
    const anonymous = await site.anonymous('POST', '/cms/v2/posts', { json: { title: 'x' } });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.code, 'rest_cannot_create');

    const own = await site.create({ title: 'Mine', status: 'private', author: site.ids.contributor });
    const same = await contributor('POST', `/cms/v2/posts/${own.id}`, { json: { status: 'private', title: 'Still mine' } });
    assert.equal(same.status, 200);
    assert.equal(same.json.status, 'private');
    const pending = await contributor('POST', '/cms/v2/posts', { json: { title: 'x', status: 'pending' } });
    assert.equal(pending.json.status, 'pending');
  });

  it('moves a published post to future when its date is moved ahead', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'x', status: 'publish' });
    const moved = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { date: '2027-01-01T00:00:00' } });
    assert.equal(moved.json.status, 'future');
  });
});
