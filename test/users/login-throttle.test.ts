import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applicationPasswordLookupTag, hashApplicationPassword, matchApplicationPassword } from '../../src/auth/index.js';
import { send } from '../helpers/request.js';
import { basic, siteWithMembers } from './setup.js';

const CHEAP = { N: 1024, r: 8, p: 1 };
const WRONG = 'abcd efgh ijkl mnop qrst uvwx';

describe('failed logins are throttled', () => {
  it('refuses with 429, Retry-After and the error body once a client has failed too often, before any password work', async () => {
    const { cms, clock, members } = await siteWithMembers();
    const attempt = (password: string, remoteAddress = '203.0.113.9') =>
      send(cms, 'GET', '/cms/v2/users/me', { headers: basic('author', password), remoteAddress });
    for (let failure = 0; failure < 5; failure += 1) assert.equal((await attempt(WRONG)).status, 401);
    const sixth = await attempt(WRONG);
    assert.equal(sixth.status, 401, 'the sixth failure is still answered, and starts the first delay');
    const refused = await attempt(WRONG);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['Retry-After'], '1');
    assert.deepEqual(refused.json, {
      code: 'rest_too_many_login_attempts', message: 'Too many failed login attempts. Try again later.', data: { status: 429 },
    });
    assert.equal((await attempt(members.author.password)).status, 429, 'even the right password waits from that address');
    assert.equal((await attempt(members.author.password, '198.51.100.4')).status, 200, 'the owner elsewhere is not locked out');
    clock.advance(1000);
    assert.equal((await attempt(members.author.password)).status, 200, 'after the delay the right password works');
  });

  it('delays grow while failures go on, and a remembered valid credential is never refused', async () => {
    const { cms, clock, members } = await siteWithMembers();
    const owner = await send(cms, 'GET', '/cms/v2/users/me', { headers: members.editor.headers, remoteAddress: '198.51.100.4' });
    assert.equal(owner.status, 200);
    const waits: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      for (let failure = 0; failure < 6; failure += 1) {
        const response = await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('editor', WRONG), remoteAddress: '198.51.100.4' });
        if (response.status === 429) {
          waits.push(response.headers['Retry-After']!);
          clock.advance(Number(response.headers['Retry-After']) * 1000);
        }
      }
    }
    assert.ok(waits.length > 0);
    assert.deepEqual(waits.map(Number), [...waits.map(Number)].sort((a, b) => a - b), `non-decreasing: ${waits}`);
    assert.ok(Number(waits.at(-1)) >= 8, `grew to ${waits.at(-1)}`);
    const remembered = await send(cms, 'GET', '/cms/v2/users/me', { headers: members.editor.headers, remoteAddress: '198.51.100.4' });
    assert.equal(remembered.status, 200);
  });

  it('counts unreadable headers against the client address', async () => {
    const { cms } = await siteWithMembers({ throttle: { login: { perClient: { limit: 2 } } } });
    const garbage = { authorization: 'Basic %%%' };
    for (let failure = 0; failure < 3; failure += 1) {
      assert.equal((await send(cms, 'GET', '/cms/v2/users/me', { headers: garbage, remoteAddress: '203.0.113.9' })).status, 401);
    }
    const refused = await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('author', WRONG), remoteAddress: '203.0.113.9' });
    assert.equal(refused.status, 429);
  });

  it('throttle: false turns it off', async () => {
    const { cms } = await siteWithMembers({ throttle: false });
    for (let failure = 0; failure < 12; failure += 1) {
      assert.equal((await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('author', WRONG), remoteAddress: '203.0.113.9' })).status, 401);
    }
  });
});

describe('a failed login costs one password hash', () => {
  it('verifies only the hash whose lookup tag is the password\'s', async () => {
    const password = 'abcdEFGH1234ijklMNOP5678';
    const hash = await hashApplicationPassword(password, CHEAP);
    const tag = applicationPasswordLookupTag(password);
    const otherTag = tag === '0000' ? '0001' : '0000';
    // Every entry holds the same matching hash; only the one tagged as the password is a candidate.
    const hashes = Array.from({ length: 30 }, () => hash);
    const tags = hashes.map((_, index) => (index === 17 ? tag : otherTag));
    assert.equal(await matchApplicationPassword(password, hashes, CHEAP, tags), 17);
    assert.equal(await matchApplicationPassword('zzzz'.repeat(6), hashes, CHEAP, tags.map(() => otherTag)), -1);
    assert.equal(await matchApplicationPassword(password, hashes, CHEAP, tags.map(() => undefined)), 29, 'of untagged entries, only the latest stored is verified');
    const lastUsed = hashes.map((_, index) => (index === 3 ? '2024-05-01T00:00:00' : null));
    assert.equal(await matchApplicationPassword(password, hashes, CHEAP, tags.map(() => undefined), lastUsed), 3, '...or the most recently used');
  });

  it('stores a distinct tag with every new password, and logins find the right one among many', async () => {
    const { cms, members } = await siteWithMembers();
    const created = [];
    for (let index = 0; index < 12; index += 1) created.push(await cms.users.createApplicationPassword(members.author.id, { name: `app ${index}` }));
    const stored = (await cms.deps.storage.get('users', members.author.id))!.application_passwords as { lookup_tag?: string }[];
    assert.equal(stored.length, 13);
    assert.ok(stored.every((record) => /^[0-9a-f]{4}$/.test(record.lookup_tag ?? '')));
    assert.equal(new Set(stored.map((record) => record.lookup_tag)).size, 13);
    const last = await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('author', created[7]!.password) });
    assert.equal(last.status, 200);
  });

  it('over HTTP, checks the given password only against the stored hash tagged like it', async () => {
    const { cms, members } = await siteWithMembers();
    const { storage } = cms.deps;
    const stored = (await storage.get('users', members.author.id))!.application_passwords as { lookup_tag?: string }[];
    const tag = applicationPasswordLookupTag(members.author.password);
    assert.equal(stored[0]!.lookup_tag, tag);
    const login = (remoteAddress: string) => send(cms, 'GET', '/cms/v2/users/me', { headers: members.author.headers, remoteAddress });
    // The right hash under another tag is never verified, so even the right password fails.
    await storage.update('users', members.author.id, { application_passwords: [{ ...stored[0], lookup_tag: tag === '0000' ? '0001' : '0000' }] });
    assert.equal((await login('203.0.113.9')).status, 401);
    // Untagged (stored before tags existed), it is verified, and tagged once it matches.
    const { lookup_tag: _dropped, ...untagged } = stored[0]!;
    await storage.update('users', members.author.id, { application_passwords: [untagged] });
    assert.equal((await login('198.51.100.4')).status, 200);
    const retagged = (await storage.get('users', members.author.id))!.application_passwords as { lookup_tag?: string }[];
    assert.equal(retagged[0]!.lookup_tag, tag);
  });
});

describe('a user holds a bounded number of application passwords', () => {
  it('answers 400 rest_too_many_application_passwords beyond the applicationPasswords.max option', async () => {
    const { cms, members } = await siteWithMembers({ applicationPasswords: { max: 3 } });
    for (const name of ['two', 'three']) {
      const made = await send(cms, 'POST', `/cms/v2/users/${members.subscriber.id}/application-passwords`, { headers: members.subscriber.headers, json: { name } });
      assert.equal(made.status, 201);
    }
    const refused = await send(cms, 'POST', '/cms/v2/users/me/application-passwords', { headers: members.subscriber.headers, json: { name: 'four' } });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.code, 'rest_too_many_application_passwords');
    assert.deepEqual(refused.json.data, { status: 400, max: 3 });
    await assert.rejects(cms.users.createApplicationPassword(members.subscriber.id, { name: 'five' }), { code: 'rest_too_many_application_passwords' });
    const listed = await send(cms, 'GET', '/cms/v2/users/me/application-passwords', { headers: members.subscriber.headers });
    assert.equal(listed.json.length, 3);
  });

  it('refuses a bad option', async () => {
    await assert.rejects(siteWithMembers({ applicationPasswords: { max: 0 } }), /applicationPasswords\.max/);
  });
});
