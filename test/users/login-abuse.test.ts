import crypto, { randomUUID } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createSiteSecret, generateApplicationPassword, hashApplicationPassword } from '../../src/auth/index.js';
import { fixedClock } from '../../src/ports/clock.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { createStoredThrottleStore } from '../../src/storage/throttle/index.js';
import { createBasicAuthenticator } from '../../src/users/authenticate.js';
import { createRoleTable } from '../../src/auth/index.js';
import { send } from '../helpers/request.js';
import { basic, siteWithMembers } from './setup.js';

const CHEAP = { N: 1024, r: 8, p: 1 };
const WRONG = 'abcd efgh ijkl mnop qrst uvwx';
const me = '/cms/v2/users/me';

/** Counts scrypt runs (every hash, verification and dummy verification is one). */
let hashes = 0;
before(() => {
  const real = crypto.scrypt;
  mock.method(crypto, 'scrypt', (...args: unknown[]) => {
    hashes += 1;
    return (real as (...given: unknown[]) => void)(...args);
  });
  syncBuiltinESMExports();
});
after(() => {
  mock.restoreAll();
  syncBuiltinESMExports();
});
async function hashesOf(work: () => Promise<unknown>): Promise<number> {
  const start = hashes;
  await work();
  return hashes - start;
}

type StoredPassword = { uuid: string; lookup_tag?: string; last_used: string | null };

/** Gives a user `count` application passwords stored as before lookup tags existed (no tag). */
async function untaggedPasswords(storage: ReturnType<typeof createMemoryStorage>, userId: number, count: number) {
  const passwords = Array.from({ length: count }, () => generateApplicationPassword());
  const records = await Promise.all(passwords.map(async (password, index) => ({
    uuid: randomUUID(), app_id: '', name: `old ${index}`, password_hash: await hashApplicationPassword(password, CHEAP),
    created: `2024-01-01T00:00:${String(index).padStart(2, '0')}`, last_used: null, last_ip: null,
  })));
  await storage.update('users', userId, { application_passwords: records });
  return passwords;
}

describe('application passwords stored before lookup tags existed', () => {
  it('a wrong password costs at most two hashes among 50 untagged ones; the most recently used works and is tagged', async () => {
    const storage = createMemoryStorage();
    const { cms, members } = await siteWithMembers({ storage, throttle: false });
    const passwords = await untaggedPasswords(storage, members.author.id, 50);
    const stored = () => storage.get('users', members.author.id).then((user) => user!.application_passwords as StoredPassword[]);
    const attempt = (password: string) => send(cms, 'GET', me, { headers: basic('author', password) });

    let answer: Awaited<ReturnType<typeof attempt>> | undefined;
    assert.ok((await hashesOf(async () => (answer = await attempt(WRONG)))) <= 2);
    assert.equal(answer!.status, 401);

    // Last used most recently: the one a login verifies.
    const records = await stored();
    records[20]!.last_used = '2024-05-01T00:00:00';
    await storage.update('users', members.author.id, { application_passwords: records });
    assert.ok((await hashesOf(async () => (answer = await attempt(passwords[20]!)))) <= 2);
    assert.equal(answer!.status, 200);
    assert.match((await stored())[20]!.lookup_tag ?? '', /^[0-9a-f]{4}$/, 'tagged once verified');
    assert.equal((await stored()).filter((record) => record.lookup_tag !== undefined).length, 1);

    // Tagged now, it no longer takes the untagged turn: the latest stored of the others does.
    const turn = (await stored()).findLastIndex((record) => record.lookup_tag === undefined && record.last_used === null);
    assert.equal(turn, 49);
    assert.equal((await attempt(passwords[49]!)).status, 200);
    assert.equal((await attempt(passwords[10]!)).status, 401, 'an untagged password waits for its turn');
    assert.ok((await hashesOf(async () => (answer = await attempt(WRONG)))) <= 2);
    assert.equal(answer!.status, 401);
    assert.equal((await attempt(passwords[20]!)).status, 200, 'a tagged one keeps working');
  });

  it('cms.users.verifyApplicationPassword tags the one it matches', async () => {
    const storage = createMemoryStorage();
    const { cms, members } = await siteWithMembers({ storage, throttle: false });
    const passwords = await untaggedPasswords(storage, members.contributor.id, 3);
    const found = await cms.users.verifyApplicationPassword(members.contributor.id, passwords[0]!);
    const records = (await storage.get('users', members.contributor.id))!.application_passwords as StoredPassword[];
    assert.equal(found?.uuid, records[0]!.uuid);
    assert.deepEqual(records.map((record) => record.lookup_tag !== undefined), [true, false, false]);
  });

  it('leaves a password untagged when another already holds its tag', async () => {
    const storage = createMemoryStorage();
    const { cms, members } = await siteWithMembers({ storage, throttle: false });
    const [old] = await untaggedPasswords(storage, members.editor.id, 1);
    const records = (await storage.get('users', members.editor.id))!.application_passwords as StoredPassword[];
    const { applicationPasswordLookupTag } = await import('../../src/auth/index.js');
    const clash = { ...records[0]!, uuid: randomUUID(), name: 'clash', password_hash: 'scrypt$bad', lookup_tag: applicationPasswordLookupTag(old!) };
    await storage.update('users', members.editor.id, { application_passwords: [...records, clash] });
    assert.equal((await send(cms, 'GET', me, { headers: basic('editor', old!) })).status, 200, 'the untagged one is still verified');
    const after = (await storage.get('users', members.editor.id))!.application_passwords as StoredPassword[];
    assert.equal(after[0]!.lookup_tag, undefined);
  });
});

describe('simultaneous failed logins', () => {
  for (const [name, options] of [
    ['memory counters', {}],
    ['stored counters', { store: createStoredThrottleStore(createMemoryStorage()) }],
  ] as const) {
    it(`of 40 at once from one address for one login, only the free ones are hashed (${name})`, async () => {
      const { cms } = await siteWithMembers({ throttle: { ...options } });
      const answers: { status: number }[] = [];
      const hashed = await hashesOf(async () => {
        answers.push(...await Promise.all(Array.from({ length: 40 }, () =>
          send(cms, 'GET', me, { headers: basic('author', WRONG), remoteAddress: '203.0.113.9' }))));
      });
      const failed = answers.filter((answer) => answer.status === 401).length;
      assert.equal(failed, 6, 'the five free failures and the one that starts the first delay');
      assert.equal(answers.filter((answer) => answer.status === 429).length, 34);
      assert.equal(hashed, 6, 'refused attempts cost no hash');
    });
  }
});

describe('simultaneous valid logins', () => {
  for (const [name, options] of [
    ['memory counters', {}],
    ['stored counters', { store: createStoredThrottleStore(createMemoryStorage()) }],
  ] as const) {
    it(`of 20 at once with one header not yet verified, all are let in and the password is verified once (${name})`, async () => {
      const { cms, members } = await siteWithMembers({ throttle: { ...options } });
      const answers: { status: number }[] = [];
      const hashed = await hashesOf(async () => {
        answers.push(...await Promise.all(Array.from({ length: 20 }, () =>
          send(cms, 'GET', me, { headers: members.author.headers, remoteAddress: '203.0.113.9' }))));
      });
      assert.deepEqual(answers.map((answer) => answer.status), Array(20).fill(200));
      assert.equal(hashed, 1, 'the others waited for the first verification');
      const wrong = await Promise.all(Array.from({ length: 3 }, () => send(cms, 'GET', me, { headers: basic('author', WRONG), remoteAddress: '203.0.113.9' })));
      assert.deepEqual(wrong.map((answer) => answer.status), [401, 401, 401], 'a wrong password is still refused, each attempt counted');
    });
  }
});

describe('login throttle keys', () => {
  it('a login and its email count as one user', async () => {
    const { cms, members } = await siteWithMembers({ throttle: { login: { perClientAndLogin: { limit: 2 } } } });
    const attempt = (username: string, password = WRONG) => send(cms, 'GET', me, { headers: basic(username, password), remoteAddress: '203.0.113.9' });
    assert.equal((await attempt('author')).status, 401);
    assert.equal((await attempt('AUTHOR@example.test')).status, 401);
    assert.equal((await attempt('Author')).status, 401, 'the third failure starts the delay');
    assert.equal((await attempt('author@example.test', members.author.password)).status, 429, 'the email waits too');
    assert.equal((await attempt('editor')).status, 401, 'another user does not');
  });

  it('names that find nobody count each as itself, the same way whether or not they look like an email', async () => {
    const { cms } = await siteWithMembers({ throttle: { login: { perClientAndLogin: { limit: 2 } } } });
    const attempt = (username: string) => send(cms, 'GET', me, { headers: basic(username, WRONG), remoteAddress: '203.0.113.9' });
    for (let failure = 0; failure < 3; failure += 1) assert.equal((await attempt('Ghost')).status, 401);
    assert.equal((await attempt('ghost')).status, 429, 'case does not matter');
    assert.equal((await attempt('ghost@example.test')).status, 401);
  });
});

describe('the remembered-credential key', () => {
  it('derives from the site secret, asked for at the first login', async () => {
    const storage = createMemoryStorage();
    const { cms, members } = await siteWithMembers({ storage });
    const secret = createSiteSecret(storage, 'a site secret of some length');
    await secret.ready();
    const purposes: string[] = [];
    const authenticate = createBasicAuthenticator({
      storage, clock: fixedClock('2024-05-06T07:08:09Z'), roles: createRoleTable(),
      secret: { key: (purpose) => (purposes.push(purpose), secret.key(purpose)) },
    });
    assert.deepEqual(purposes, []);
    const principal = await authenticate({ headers: members.editor.headers });
    assert.equal(principal?.id, members.editor.id);
    await authenticate({ headers: members.editor.headers });
    assert.deepEqual(purposes, ['auth/credential-memory']);
    assert.equal((await send(cms, 'GET', me, { headers: members.editor.headers })).status, 200);
  });
});
