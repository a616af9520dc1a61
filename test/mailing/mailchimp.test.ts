import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createSafeHttpClient } from '../../src/media/outbound/index.js';
import { mailchimpBaseUrl, subscriberHash } from '../../src/mailing/index.js';
import { startFakeMailchimp, type FakeMailchimp } from './fake-mailchimp.js';
import { makeMailingSite } from './helpers.js';

const API_KEY = '0123456789abcdef0123456789abcdef-us1';
const GENERIC = 'Oops. Something went wrong. Please try again later.';

describe('the Mailchimp API address', () => {
  it('comes from the key\'s data-centre suffix', () => {
    assert.equal(mailchimpBaseUrl(API_KEY), 'https://us1.api.mailchimp.com/3.0');
    assert.equal(mailchimpBaseUrl('abc-def-us21'), 'https://us21.api.mailchimp.com/3.0');
  });

  it('refuses keys that do not end in a data centre, so a key cannot name another host', () => {
    for (const key of ['nodash', 'abc-', 'abc-us1.evil.example', 'abc-us1/x', 'abc-US1', 'abc-@evil']) {
      assert.throws(() => mailchimpBaseUrl(key), /data centre/, key);
    }
  });

  it('hashes the lower-cased address with MD5', () => {
    assert.equal(subscriberHash('Urist.McVankab@Example.com'), createHash('md5').update('urist.mcvankab@example.com').digest('hex'));
  });
});

describe('sign-ups through the Mailchimp provider (a local fake of the API)', () => {
  let fake: FakeMailchimp;
  before(async () => {
    fake = await startFakeMailchimp(API_KEY);
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.lists.clear();
    fake.requests.length = 0;
    fake.failAtTheEdge(false);
    fake.addList('anchorlist01', [{ tag: 'FNAME', type: 'text' }, { tag: 'ADDRESS', type: 'address' }, { tag: 'EMAIL', type: 'email' }]);
  });

  const site = (apiKey = API_KEY) => makeMailingSite({
    httpClient: createSafeHttpClient({ allow: ['127.0.0.1'] }),
    mailing: { mailchimp: { apiKey, baseUrl: fake.baseUrl } },
  });

  it('adds a new member with PUT and status_if_new pending, known merge fields, then the tags', async () => {
    const mailing = await site();
    const id = await mailing.createForm({ settings: { lists: ['anchorlist01'], subscriber_tags: 'anchor', remove_subscriber_tags: 'old' } });
    const response = await mailing.signup({
      ...mailing.hidden(id), EMAIL: 'Urist@Example.com', FNAME: 'Urist', NICKNAME: 'not a field of this list', 'INTERESTS[9a8b7c]': '1',
    }, { remoteAddress: '198.51.100.7' });
    assert.equal(response.status, 200);
    assert.equal(response.json, true);

    const hash = createHash('md5').update('urist@example.com').digest('hex');
    assert.deepEqual(fake.requests.map((request) => `${request.method} ${request.path}`), [
      `GET /3.0/lists/anchorlist01/members/${hash}?fields=status,interests`,
      'GET /3.0/lists/anchorlist01/merge-fields?count=1000&fields=merge_fields.tag,merge_fields.type',
      `PUT /3.0/lists/anchorlist01/members/${hash}`,
      `POST /3.0/lists/anchorlist01/members/${hash}/tags`,
    ]);
    assert.deepEqual(fake.requests[2]!.body, {
      email_address: 'Urist@Example.com', status_if_new: 'pending', merge_fields: { FNAME: 'Urist' }, email_type: 'html',
      interests: { '9a8b7c': true }, ip_signup: '198.51.100.7',
    });
    assert.deepEqual(fake.requests[3]!.body, { tags: [{ name: 'anchor', status: 'active' }, { name: 'old', status: 'inactive' }] });
    assert.equal(fake.requests[0]!.authorization, `Basic ${Buffer.from(`quire:${API_KEY}`).toString('base64')}`);
    const member = fake.member('anchorlist01', 'urist@example.com')!;
    assert.equal(member.status, 'pending');
    assert.deepEqual(member.tags, ['anchor']);
    assert.equal(mailing.outbox.messages.length, 0, 'Mailchimp sends its own confirmation');
    assert.equal((await mailing.cms.deps.storage.list('mailing_subscribers', { withTotal: true })).total, 0);
  });

  it('subscribes at once without double opt-in and remembers the merge fields of a list for a while', async () => {
    const mailing = await site();
    const id = await mailing.createForm({ settings: { lists: ['anchorlist01'], double_optin: false } });
    assert.equal((await mailing.signup({ ...mailing.hidden(id), EMAIL: 'a@example.com', 'ADDRESS[addr1]': '1 Road', 'ADDRESS[city]': 'Town' })).status, 200);
    assert.equal((await mailing.signup({ ...mailing.hidden(id), EMAIL: 'b@example.com', 'FNAME[]': ['Bo', 'Bee'] })).status, 200);
    assert.equal(fake.member('anchorlist01', 'a@example.com')!.status, 'subscribed');
    assert.deepEqual(fake.member('anchorlist01', 'a@example.com')!.merge_fields, { ADDRESS: { addr1: '1 Road', city: 'Town' } });
    assert.deepEqual(fake.member('anchorlist01', 'b@example.com')!.merge_fields, { FNAME: 'Bo, Bee' });
    assert.equal(fake.requests.filter((request) => request.path.includes('merge-fields')).length, 1);
  });

  it('answers already_subscribed for a subscribed member unless the form updates existing ones', async () => {
    const mailing = await site();
    const strict = await mailing.createForm({ settings: { lists: ['anchorlist01'], double_optin: false } });
    const updating = await mailing.createForm({ settings: { lists: ['anchorlist01'], update_existing: true } });
    await mailing.signup({ ...mailing.hidden(strict), EMAIL: 's@example.com', FNAME: 'Old', 'INTERESTS[i1]': '1' });
    fake.requests.length = 0;
    const refused = await mailing.signup({ ...mailing.hidden(strict), EMAIL: 's@example.com', FNAME: 'New' });
    assert.deepEqual(refused.json, { code: 'already_subscribed', message: 'Given email address is already subscribed, thank you!', data: { status: 400 } });
    assert.deepEqual(fake.requests.map((request) => request.method), ['GET'], 'nothing written');

    const updated = await mailing.signup({ ...mailing.hidden(updating), EMAIL: 's@example.com', FNAME: 'New', 'INTERESTS[i2]': '1' });
    assert.equal(updated.status, 200);
    const put = fake.requests.find((request) => request.method === 'PUT')!;
    assert.equal(put.body.status, 'subscribed', 'an update keeps the member subscribed even under double opt-in');
    assert.deepEqual(put.body.interests, { i1: false, i2: true }, 'replace_interests turns the others off');
    assert.equal(fake.member('anchorlist01', 's@example.com')!.merge_fields.FNAME, 'New');
  });

  it('sets a pending member unsubscribed first, so that Mailchimp sends a fresh confirmation', async () => {
    const mailing = await site();
    const id = await mailing.createForm({ settings: { lists: ['anchorlist01'] } });
    await mailing.signup({ ...mailing.hidden(id), EMAIL: 'p@example.com' });
    fake.requests.length = 0;
    assert.equal((await mailing.signup({ ...mailing.hidden(id), EMAIL: 'p@example.com' })).status, 200);
    assert.deepEqual(fake.requests.map((request) => [request.method, request.body?.status ?? null]), [
      ['GET', null], ['PATCH', 'unsubscribed'], ['PUT', 'pending'],
    ]);
    assert.equal(fake.member('anchorlist01', 'p@example.com')!.status, 'pending');
  });

  it('maps the API\'s errors to the plugin\'s answers: the status as the code, the generic message, never a 5xx', async () => {
    const mailing = await site();
    const id = await mailing.createForm({ settings: { lists: ['anchorlist01'] } });
    const fakeAddress = await mailing.signup({ ...mailing.hidden(id), EMAIL: 'fake@example.com' });
    assert.deepEqual(fakeAddress.json, { code: '400', message: GENERIC, data: { status: 400 } });

    const unknownList = await mailing.signup({ ...mailing.hidden(id), _mc4wp_lists: 'nosuchlist', EMAIL: 'a@example.com' });
    assert.deepEqual([unknownList.status, unknownList.json.code, unknownList.json.message], [400, '404', GENERIC]);

    fake.failAtTheEdge(true);
    const edge = await mailing.signup({ ...mailing.hidden(id), EMAIL: 'a@example.com' });
    assert.deepEqual(edge.json, { code: 'http_request_failed', message: GENERIC, data: { status: 400 } });
  });

  it('asks Mailchimp for a list the form does not name before anything else, and remembers lists that exist', async () => {
    const mailing = await site();
    fake.addList('otherlist02', [{ tag: 'EMAIL', type: 'email' }]);
    const id = await mailing.createForm({ settings: { lists: ['anchorlist01'] } });
    const unknown = await mailing.signup({ ...mailing.hidden(id), _mc4wp_lists: 'anchorlist01,nosuchlist', EMAIL: 'a@example.com' });
    assert.deepEqual(unknown.json, { code: '404', message: GENERIC, data: { status: 400 } });
    assert.deepEqual(fake.requests.map((request) => `${request.method} ${request.path}`), ['GET /3.0/lists/nosuchlist?fields=id']);
    assert.equal(fake.member('anchorlist01', 'a@example.com'), undefined, 'nothing written');
    for (const email of ['b@example.com', 'c@example.com']) {
      const known = await mailing.signup({ ...mailing.hidden(id), _mc4wp_lists: 'otherlist02', EMAIL: email });
      assert.equal(known.status, 200);
      assert.equal(fake.member('otherlist02', email)!.status, 'pending');
    }
    assert.equal(fake.requests.filter((request) => request.path === '/3.0/lists/otherlist02?fields=id').length, 1);
  });

  it('answers a wrong key with the API\'s 401 as the code', async () => {
    const mailing = await site('ffffffffffffffffffffffffffffffff-us1');
    const id = await mailing.createForm({ settings: { lists: ['anchorlist01'] } });
    const response = await mailing.signup({ ...mailing.hidden(id), EMAIL: 'a@example.com' });
    assert.deepEqual([response.status, response.json.code], [400, '401']);
  });

  it('answers an unreachable API with http_request_failed, not the reference\'s empty 500', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const mailing = await makeMailingSite({
      httpClient: createSafeHttpClient({ allow: ['127.0.0.1'] }),
      mailing: { mailchimp: { apiKey: API_KEY, baseUrl: `http://127.0.0.1:${port}/3.0` } },
    });
    const id = await mailing.createForm();
    const response = await mailing.signup({ ...mailing.hidden(id), EMAIL: 'a@example.com' });
    assert.deepEqual(response.json, { code: 'http_request_failed', message: GENERIC, data: { status: 400 } });
  });

  it('goes through the safe client: without an allow-list the loopback fake is refused, and nothing is sent', async () => {
    const mailing = await makeMailingSite({ mailing: { mailchimp: { apiKey: API_KEY, baseUrl: fake.baseUrl } } });
    const id = await mailing.createForm({ settings: { lists: ['anchorlist01'] } });
    const response = await mailing.signup({ ...mailing.hidden(id), EMAIL: 'a@example.com' });
    assert.deepEqual([response.status, response.json.code], [400, 'http_request_failed']);
    assert.equal(fake.requests.length, 0);
  });

  it('has no confirmation, unsubscribe or subscriber routes of its own (Mailchimp keeps those)', async () => {
    const mailing = await site();
    const confirm = await mailing.anonymous('GET', '/mailing/v1/confirm?token=v1.a.b');
    assert.deepEqual([confirm.status, confirm.json.code], [400, 'mailing_unsupported']);
    const listed = await mailing.admin('GET', '/mailing/v1/subscribers?list=anchorlist01');
    assert.deepEqual([listed.status, listed.json.code], [400, 'mailing_unsupported']);
  });
});
