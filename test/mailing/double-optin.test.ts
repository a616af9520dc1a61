import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../src/cms.js';
import { createLocalMailingProvider } from '../../src/mailing/index.js';
import type { Mailer } from '../../src/ports/mailer.js';
import { send } from '../helpers/request.js';
import { linksIn, makeMailingSite, STORES } from './helpers.js';

for (const [storeName, makeStore] of STORES) {
  describe(`double opt-in with the local provider (${storeName})`, () => {
    it('signs up, mails a confirmation link, and subscribes when the link is followed', async () => {
      const site = await makeMailingSite({ storage: makeStore() });
      const id = await site.createForm({ settings: { lists: ['news', 'offers'], subscriber_tags: 'web, spring', remove_subscriber_tags: 'cold' } });
      const response = await site.signup({ ...site.hidden(id), EMAIL: 'Reader@Example.com', FNAME: 'Rea', 'INTERESTS[]': ['abc123'] },
        { remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': '192.0.2.66' } });
      assert.equal(response.status, 200);
      assert.equal(response.json, true);

      const pending = await site.subscribers('news');
      assert.equal(pending.length, 1);
      assert.equal(pending[0]!.status, 'pending');
      assert.equal(pending[0]!.confirmed, null);
      assert.deepEqual(pending[0]!.tags, ['web', 'spring']);
      assert.deepEqual(pending[0]!.interests, { abc123: true });
      assert.equal(pending[0]!.ip_signup, '203.0.113.9');

      assert.equal(site.outbox.messages.length, 1, 'one message for both lists');
      const [message] = site.outbox.messages;
      assert.deepEqual(message!.to, ['reader@example.com']);
      assert.equal(message!.from, '"Example News" <noreply@example.test>');
      assert.equal(message!.subject, 'Please confirm your subscription to Example News');
      const links = linksIn(message!.text);
      assert.match(message!.text, /The link works until 2026-11-28 17:11 UTC/);

      const confirmed = await site.anonymous('GET', links.confirm);
      assert.equal(confirmed.status, 200);
      assert.deepEqual(confirmed.json, { status: 'subscribed', email: 'reader@example.com', lists: ['news', 'offers'] });
      for (const list of ['news', 'offers']) {
        const [subscriber] = await site.subscribers(list);
        assert.equal(subscriber!.status, 'subscribed');
        assert.equal(subscriber!.confirmed, '2026-11-21T17:11:35');
        assert.deepEqual(subscriber!.merge_fields, { FNAME: 'Rea' });
      }
      const again = await site.anonymous('GET', links.confirm);
      assert.equal(again.status, 200, 'following the link twice is harmless');

      const unsubscribed = await site.anonymous('GET', links.unsubscribe);
      assert.deepEqual(unsubscribed.json, { status: 'unsubscribed', email: 'reader@example.com', lists: ['news', 'offers'] });
      assert.equal((await site.subscribers('news'))[0]!.status, 'unsubscribed');
      const stale = await site.anonymous('GET', links.confirm);
      assert.equal(stale.status, 400);
      assert.equal(stale.json.code, 'mailing_invalid_token', 'an old confirmation link cannot undo an unsubscribe');
      assert.equal((await site.subscribers('news'))[0]!.status, 'unsubscribed');
    });

    it('re-sends the confirmation to a pending subscriber and retires the older link', async () => {
      const site = await makeMailingSite({ storage: makeStore() });
      const id = await site.createForm();
      await site.signup({ ...site.hidden(id), EMAIL: 'p@example.com', FNAME: 'Old' });
      site.clock.advance(61_000);
      await site.signup({ ...site.hidden(id), EMAIL: 'P@example.com', LNAME: 'New' });
      assert.equal(site.outbox.messages.length, 2);
      const subscribers = await site.subscribers('list01');
      assert.equal(subscribers.length, 1, 'one subscriber per list and address');
      assert.deepEqual(subscribers[0]!.merge_fields, { FNAME: 'Old', LNAME: 'New' });
      const first = linksIn(site.outbox.messages[0]!.text);
      const second = linksIn(site.outbox.messages[1]!.text);
      const old = await site.anonymous('GET', first.confirm);
      assert.deepEqual([old.status, old.json.code], [400, 'mailing_invalid_token']);
      assert.equal((await site.subscribers('list01'))[0]!.status, 'pending');
      assert.equal((await site.anonymous('GET', second.confirm)).status, 200);
      assert.equal((await site.subscribers('list01'))[0]!.status, 'subscribed');
    });

    it('sends no second message within a minute of the first, so the route cannot flood an inbox', async () => {
      const site = await makeMailingSite({ storage: makeStore() });
      const id = await site.createForm({ settings: { lists: ['list01', 'list02'] } });
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await site.signup({ ...site.hidden(id), EMAIL: 'victim@example.com' });
        assert.equal(response.status, 200, 'the same answer as ever');
        site.clock.advance(10_000);
      }
      assert.equal(site.outbox.messages.length, 1);
      const first = linksIn(site.outbox.messages[0]!.text);
      await site.createForm({ settings: { lists: ['list03', 'list04'] } });
      for (const lists of ['list02,list03', 'list04', 'list03,list04']) {
        const other = await site.signup({ ...site.hidden(id), _mc4wp_lists: lists, EMAIL: 'Victim@example.com' });
        assert.equal(other.status, 200);
      }
      assert.equal(site.outbox.messages.length, 1, 'other lists do not mail the address again within the minute');
      site.clock.advance(60_000);
      await site.signup({ ...site.hidden(id), EMAIL: 'victim@example.com' });
      assert.equal(site.outbox.messages.length, 2, 'and again once a minute has passed');
      assert.equal((await site.anonymous('GET', first.confirm)).json.code, 'mailing_invalid_token');
      assert.equal((await site.anonymous('GET', linksIn(site.outbox.messages[1]!.text).confirm)).status, 200);
    });

    it('mails an address once however many sign-ups for it arrive at once, whatever their lists', async () => {
      const site = await makeMailingSite({ storage: makeStore() });
      const lists = Array.from({ length: 20 }, (_, index) => `list${String(index).padStart(2, '0')}`);
      const id = await site.createForm({ settings: { lists } });
      const answers = await Promise.all(lists.map((list) =>
        site.signup({ ...site.hidden(id), _mc4wp_lists: list, EMAIL: 'victim@example.com' })));
      assert.deepEqual(answers.map((answer) => answer.status), lists.map(() => 200));
      assert.equal(site.outbox.messages.length, 1);
      for (const list of lists) assert.equal((await site.subscribers(list)).length, 1, list);
    });

    it('follows update_existing when a subscribed address signs up again', async () => {
      const site = await makeMailingSite({ storage: makeStore() });
      const strict = await site.createForm({ settings: { lists: ['list01'], double_optin: false } });
      const updating = await site.createForm({ settings: { lists: ['list01'], double_optin: false, update_existing: true, replace_interests: true } });
      const merging = await site.createForm({ settings: { lists: ['list01'], double_optin: false, update_existing: true, replace_interests: false } });

      assert.equal((await site.signup({ ...site.hidden(strict), EMAIL: 's@example.com', FNAME: 'S', 'INTERESTS[a1]': '1' })).status, 200);
      assert.equal(site.outbox.messages.length, 0, 'no confirmation without double opt-in');
      assert.equal((await site.subscribers('list01'))[0]!.status, 'subscribed');

      const refused = await site.signup({ ...site.hidden(strict), EMAIL: 's@example.com', FNAME: 'Changed' });
      assert.deepEqual(refused.json, { code: 'already_subscribed', message: 'Given email address is already subscribed, thank you!', data: { status: 400 } });
      assert.equal((await site.subscribers('list01'))[0]!.merge_fields.FNAME, 'S');

      assert.equal((await site.signup({ ...site.hidden(updating), EMAIL: 's@example.com', FNAME: 'T', 'INTERESTS[b2]': 'on' })).status, 200);
      let [subscriber] = await site.subscribers('list01');
      assert.equal(subscriber!.merge_fields.FNAME, 'T');
      assert.deepEqual(subscriber!.interests, { a1: false, b2: true }, 'replaced interests');

      assert.equal((await site.signup({ ...site.hidden(merging), EMAIL: 's@example.com', 'INTERESTS[a1]': 'yes' })).status, 200);
      [subscriber] = await site.subscribers('list01');
      assert.deepEqual(subscriber!.interests, { a1: true, b2: true }, 'merged interests');
      assert.equal(subscriber!.status, 'subscribed');
    });

    it('keeps the site secret in storage, so links work across instances sharing the store', async () => {
      const storage = makeStore();
      const site = await makeMailingSite({ storage });
      const id = await site.createForm();
      await site.signup({ ...site.hidden(id), EMAIL: 'x@example.com' });
      const links = linksIn(site.outbox.messages[0]!.text);
      const secret = await storage.get('site_secret', 1);
      assert.equal(typeof secret?.secret, 'string');
      assert.ok((secret!.secret as string).length >= 32);
      const other = createCms({ storage, clock: site.clock, site: { url: 'http://example.test' } });
      const confirmed = await send(other, 'GET', links.confirm);
      assert.equal(confirmed.status, 200);
    });

    it('keeps signing with a mailing secret stored before the site secret existed, so mailed links still work', async () => {
      const storage = makeStore();
      const older = 'a mailing secret stored by an earlier version';
      await storage.insert('mailing_settings', { id: 1, token_secret: older });
      const site = await makeMailingSite({ storage });
      const id = await site.createForm();
      await site.signup({ ...site.hidden(id), EMAIL: 'y@example.com' });
      const links = linksIn(site.outbox.messages[0]!.text);
      const signedByOlder = createLocalMailingProvider({ storage, mailer: site.outbox, clock: site.clock, secret: older });
      const token = new URL(links.confirm, 'http://example.test').searchParams.get('token')!;
      assert.equal((await signedByOlder.confirm(token)).status, 'subscribed');
    });

    it('without a secret or a site secret, keeps one of its own in storage: providers starting at once agree on it', async () => {
      const storage = makeStore();
      const site = await makeMailingSite({ storage });
      const providers = [1, 2, 3].map(() => createLocalMailingProvider({ storage, mailer: site.outbox, clock: site.clock }));
      const tokens = await Promise.all(providers.map((provider) => provider.unsubscribeToken('z@example.com', ['news'])));
      const kept = await storage.get('mailing_settings', 1);
      assert.equal(typeof kept?.token_secret, 'string');
      assert.ok((kept!.token_secret as string).length >= 32);
      for (const [index, token] of tokens.entries()) {
        const reader = providers[(index + 1) % providers.length]!;
        assert.deepEqual(await reader.unsubscribe(token), { email: 'z@example.com', lists: ['news'], status: 'unsubscribed' });
      }
      const signedElsewhere = createLocalMailingProvider({ storage, mailer: site.outbox, clock: site.clock, secret: 'another secret, long enough' });
      await assert.rejects(providers[0]!.unsubscribe(await signedElsewhere.unsubscribeToken('z@example.com', ['news'])));
    });
  });
}

describe('confirmation and unsubscribe links', () => {
  it('answers an expired link with 400 mailing_token_expired and leaves the subscriber pending', async () => {
    const site = await makeMailingSite({ mailing: { confirmTtlSeconds: 3600 } });
    const id = await site.createForm();
    await site.signup({ ...site.hidden(id), EMAIL: 'late@example.com' });
    const { confirm } = linksIn(site.outbox.messages[0]!.text);
    site.clock.advance(3601 * 1000);
    const response = await site.anonymous('GET', confirm);
    assert.equal(response.status, 400);
    assert.deepEqual(response.json, {
      code: 'mailing_token_expired', message: 'This link has expired. Please sign up again to get a new one.', data: { status: 400 },
    });
    assert.equal((await site.subscribers('list01'))[0]!.status, 'pending');
  });

  it('answers malformed, forged, tampered, misused and missing tokens with a 400', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    await site.signup({ ...site.hidden(id), EMAIL: 'v@example.com' });
    const { confirm, unsubscribe } = linksIn(site.outbox.messages[0]!.text);
    const token = new URL(`http://x${confirm}`).searchParams.get('token')!;
    const [version, payload, signature] = token.split('.') as [string, string, string];
    const tampered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), e: 'other@example.com' })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    const bad = [
      'garbage', '', 'v1..', `v2.${payload}.${signature}`, `${version}.${tampered}.${signature}`, `${version}.${payload}.${flipped}`,
      `${version}.${payload}`, `${token}.extra`, 'v1.' + 'A'.repeat(5000) + '.' + signature, `${version}.%%%.${signature}`,
    ];
    for (const candidate of bad) {
      const response = await site.anonymous('GET', `/mailing/v1/confirm?token=${encodeURIComponent(candidate)}`);
      assert.equal(response.status, 400, candidate.slice(0, 40));
      assert.equal(response.json.code, 'mailing_invalid_token', candidate.slice(0, 40));
    }
    const misused = await site.anonymous('GET', unsubscribe.replace('/unsubscribe?', '/confirm?'));
    assert.equal(misused.json.code, 'mailing_invalid_token', 'an unsubscribe token does not confirm');
    const missing = await site.anonymous('GET', '/mailing/v1/unsubscribe');
    assert.deepEqual([missing.status, missing.json.code], [400, 'rest_missing_callback_param']);
    const listed = await site.anonymous('GET', '/mailing/v1/confirm?token[]=a');
    assert.equal(listed.status, 400);
    assert.equal((await site.subscribers('list01'))[0]!.status, 'pending');
  });

  it('refuses a token signed with another site\'s secret', async () => {
    const one = await makeMailingSite({ mailing: { secret: 'first-site-secret-0123456789' } });
    const two = await makeMailingSite({ mailing: { secret: 'second-site-secret-0123456789' } });
    const id = await one.createForm();
    await two.createForm();
    await one.signup({ ...one.hidden(id), EMAIL: 'w@example.com' });
    await two.signup({ ...two.hidden(id), EMAIL: 'w@example.com' });
    const { confirm } = linksIn(one.outbox.messages[0]!.text);
    assert.equal((await two.anonymous('GET', confirm)).json.code, 'mailing_invalid_token');
    assert.equal((await one.anonymous('GET', confirm)).status, 200);
  });

  it('redirects to the host\'s pages when configured', async () => {
    const site = await makeMailingSite({ mailing: { redirects: { confirmed: 'https://example.test/thanks', unsubscribed: 'https://example.test/bye' } } });
    const id = await site.createForm();
    await site.signup({ ...site.hidden(id), EMAIL: 'r@example.com' });
    const links = linksIn(site.outbox.messages[0]!.text);
    const confirmed = await site.anonymous('GET', links.confirm);
    assert.deepEqual([confirmed.status, confirmed.headers.Location], [302, 'https://example.test/thanks']);
    const gone = await site.anonymous('GET', links.unsubscribe);
    assert.deepEqual([gone.status, gone.headers.Location], [302, 'https://example.test/bye']);
  });

  it('uses the host\'s sender and wording, and makes unsubscribe links in-process', async () => {
    const site = await makeMailingSite({
      mailing: {
        from: 'News <news@example.test>',
        confirmationMail: (details) => ({ subject: `Confirm ${details.lists.join('+')}`, text: `Go: ${details.confirmUrl}\nLeave: ${details.unsubscribeUrl}`, html: '<p>Go</p>' }),
      },
    });
    const id = await site.createForm();
    await site.signup({ ...site.hidden(id), EMAIL: 'h@example.com' });
    const [message] = site.outbox.messages;
    assert.equal(message!.from, 'News <news@example.test>');
    assert.equal(message!.subject, 'Confirm list01');
    assert.equal(message!.html, '<p>Go</p>');
    await site.anonymous('GET', linksIn(message!.text).confirm);
    const url = await site.cms.mailing.unsubscribeUrl('H@example.com', ['list01']);
    assert.match(url, /^http:\/\/example\.test\/cms-json\/mailing\/v1\/unsubscribe\?token=v1\./);
    assert.equal((await site.anonymous('GET', new URL(url).pathname.replace('/cms-json', '') + new URL(url).search)).status, 200);
    assert.equal((await site.subscribers('list01'))[0]!.status, 'unsubscribed');
  });

  it('answers 400 when the confirmation cannot be mailed; signing up again re-sends it', async () => {
    let failing = true;
    const sent: string[] = [];
    const mailer: Mailer = {
      async send(message) {
        if (failing) throw new Error('SMTP down');
        sent.push(message.text);
      },
    };
    const site = await makeMailingSite({ mailer });
    const id = await site.createForm();
    const response = await site.signup({ ...site.hidden(id), EMAIL: 'm@example.com' });
    assert.deepEqual(response.json, { code: 'mail_failed', message: 'Oops. Something went wrong. Please try again later.', data: { status: 400 } });
    failing = false;
    assert.equal((await site.signup({ ...site.hidden(id), EMAIL: 'm@example.com' })).status, 200);
    assert.equal(sent.length, 1);
    assert.equal((await site.anonymous('GET', linksIn(sent[0]!).confirm)).status, 200);
  });

  it('refuses a configured secret that is too short', () => {
    assert.throws(() => createCms({ mailing: { secret: 'short' } }), /at least 16 characters/);
  });
});
