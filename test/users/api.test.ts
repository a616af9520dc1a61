import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCms } from '../../src/cms.js';
import { userCan } from '../../src/auth/index.js';
import { fixedClock } from '../../src/ports/clock.js';
import { ensureAdministrator } from '../../src/users/index.js';
import { send } from '../helpers/request.js';
import { basic } from './setup.js';

function newCms() {
  return createCms({ site: { url: 'http://example.test' }, clock: fixedClock('2024-01-02T03:04:05Z') });
}

describe('cms.users', () => {
  it('creates, reads, finds, updates and lists users without exposing secrets', async () => {
    const cms = newCms();
    const user = await cms.users.create({ login: 'Ada', email: 'ada@example.test', password: 'pw', firstName: 'Ada', lastName: 'L.' });
    assert.deepEqual(user, {
      id: 1,
      login: 'Ada',
      email: 'ada@example.test',
      name: 'Ada L.',
      slug: 'ada',
      roles: ['subscriber'],
      capabilities: {},
      registered: '2024-01-02T03:04:05',
      url: '',
      description: '',
      firstName: 'Ada',
      lastName: 'L.',
      nickname: 'Ada',
      locale: '',
    });
    assert.deepEqual(await cms.users.get(1), user);
    assert.equal((await cms.users.find('ADA'))?.id, 1);
    assert.equal((await cms.users.find('Ada@Example.test'))?.id, 1);
    assert.equal(await cms.users.find('nobody'), null);
    const updated = await cms.users.update(1, { roles: ['editor'], capabilities: { edit_users: true } });
    assert.deepEqual(updated?.roles, ['editor']);
    assert.deepEqual((await cms.users.list({ role: 'editor' })).map((entry) => entry.id), [1]);
    assert.deepEqual(await cms.users.list({ role: 'author' }), []);
    const principal = await cms.users.principal(1);
    assert.ok(principal && userCan(principal, 'edit_users') && userCan(principal, 'moderate_comments'));
  });

  it('refuses bad input with the reference codes', async () => {
    const cms = newCms();
    await cms.users.create({ login: 'taken', email: 'taken@example.test' });
    const attempts: [Parameters<typeof cms.users.create>[0], string][] = [
      [{ login: 'TAKEN', email: 'new@example.test' }, 'existing_user_login'],
      [{ login: 'new', email: 'TAKEN@example.test' }, 'existing_user_email'],
      [{ login: 'new', email: 'nope' }, 'invalid_email'],
      [{ login: 'new', email: 'new@example.test', roles: ['ghost'] }, 'rest_user_invalid_role'],
      [{ login: 'bad login!', email: 'new@example.test' }, 'invalid_username'],
      [{ login: '', email: 'new@example.test' }, 'invalid_username'],
    ];
    for (const [input, code] of attempts) {
      await assert.rejects(cms.users.create(input), (error: { code?: string }) => error.code === code, code);
    }
  });

  it('mints application passwords (fresh or chosen), verifies and revokes them', async () => {
    const cms = newCms();
    const user = await cms.users.create({ login: 'bot', email: 'bot@example.test' });
    const fresh = await cms.users.createApplicationPassword(user.id, { name: 'fresh' });
    assert.match(fresh.password, /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    assert.deepEqual(Object.keys(fresh.item), ['uuid', 'appId', 'name', 'created', 'lastUsed', 'lastIp']);
    const chosen = await cms.users.createApplicationPassword(user.id, { name: 'chosen', password: 'known-password-123' });
    assert.equal(chosen.password, 'know npas swor d123');
    assert.equal((await cms.users.verifyApplicationPassword(user.id, 'knownpassword123'))?.uuid, chosen.item.uuid);
    assert.equal(await cms.users.verifyApplicationPassword(user.id, 'knownpassword124'), null);
    assert.equal((await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('bot', 'known password 123') })).status, 200);
    await assert.rejects(cms.users.createApplicationPassword(user.id, { name: 'short', password: 'abc' }), { code: 'application_password_too_short' });
    await assert.rejects(cms.users.createApplicationPassword(user.id, { name: 'Fresh' }), { code: 'application_password_duplicate_name' });
    await assert.rejects(cms.users.createApplicationPassword(99, { name: 'x' }), { code: 'rest_user_invalid_id' });
    assert.equal(await cms.users.revokeApplicationPassword(user.id, fresh.item.uuid), true);
    assert.equal(await cms.users.revokeApplicationPassword(user.id, fresh.item.uuid), false);
    assert.deepEqual((await cms.users.listApplicationPasswords(user.id)).map((entry) => entry.name), ['chosen']);
    const stored = JSON.stringify(await cms.deps.storage.get('users', user.id));
    assert.ok(!stored.includes(fresh.password.replace(/ /g, '')) && !stored.includes('knownpassword123'), 'only hashes are stored');
  });

  it('deletes users, reassigning or removing their posts', async () => {
    const cms = newCms();
    const keeper = await cms.users.create({ login: 'keeper', email: 'keeper@example.test' });
    const leaver = await cms.users.create({ login: 'leaver', email: 'leaver@example.test', roles: ['author'] });
    const post = (await send(cms, 'POST', '/cms/v2/posts', { json: { title: 'Handed over', status: 'publish' }, user: { id: leaver.id } })).json;
    await assert.rejects(cms.users.delete(leaver.id, { reassign: leaver.id }), { code: 'rest_user_invalid_reassign' });
    assert.equal(await cms.users.delete(leaver.id, { reassign: keeper.id }), true);
    assert.equal((await cms.deps.storage.get('posts', post.id))?.author, keeper.id);
    assert.equal(await cms.users.delete(leaver.id), false);
    const page = await send(cms, 'POST', '/cms/v2/pages', { json: { title: 'Kept page', status: 'publish' }, user: { id: keeper.id } });
    assert.equal(page.status, 403, 'a subscriber cannot write pages');
    await cms.users.update(keeper.id, { roles: ['editor'] });
    const ownPage = await send(cms, 'POST', '/cms/v2/pages', { json: { title: 'Kept page', status: 'publish' }, user: { id: keeper.id } });
    assert.equal(await cms.users.delete(keeper.id), true);
    assert.equal((await cms.deps.storage.get('posts', ownPage.json.id))?.status, 'trash', 'pages go to the trash');
    assert.equal((await cms.deps.storage.get('posts', ownPage.json.id))?.title, 'Kept page');
    assert.equal((await cms.deps.storage.get('posts', post.id))?.status, 'trash', 'so do the posts it was given');
  });
});

describe('ensureAdministrator', () => {
  it('creates the first administrator with a fresh password that works, once', async () => {
    const cms = newCms();
    const setup = await ensureAdministrator(cms);
    assert.equal(setup.created, true);
    assert.equal(setup.user.login, 'admin');
    assert.deepEqual(setup.user.roles, ['administrator']);
    assert.ok(setup.applicationPassword);
    const me = await send(cms, 'GET', '/cms/v2/users/me?context=edit', { headers: basic('admin', setup.applicationPassword) });
    assert.equal(me.status, 200);
    assert.deepEqual(me.json.roles, ['administrator']);
    const again = await ensureAdministrator(cms);
    assert.deepEqual({ created: again.created, password: again.applicationPassword, id: again.user.id }, { created: false, password: null, id: setup.user.id });
    assert.equal((await cms.users.listApplicationPasswords(setup.user.id)).length, 1);
  });

  it('makes a known password valid on a new store and on later starts', async () => {
    const cms = newCms();
    const options = { login: 'root', applicationPassword: 'abcd efgh ijkl mnop qrst uvwx' };
    const first = await ensureAdministrator(cms, options);
    assert.equal(first.created, true);
    assert.equal(first.user.email, 'root@localhost.invalid');
    assert.equal(first.applicationPassword, 'abcd efgh ijkl mnop qrst uvwx');
    assert.equal((await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('root', 'abcdefghijklmnopqrstuvwx') })).status, 200);

    const unchanged = await ensureAdministrator(cms, options);
    assert.equal(unchanged.created, false);
    assert.equal((await cms.users.listApplicationPasswords(first.user.id)).length, 1, 'a password that already works is kept');

    const replaced = await ensureAdministrator(cms, { login: 'root', applicationPassword: 'ZYXW VUTS RQPO NMLK JIHG FEDC' });
    assert.equal(replaced.applicationPassword, 'ZYXW VUTS RQPO NMLK JIHG FEDC');
    assert.equal((await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('root', 'abcdefghijklmnopqrstuvwx') })).status, 401);
    assert.equal((await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('root', 'ZYXWVUTSRQPONMLKJIHGFEDC') })).status, 200);
    assert.equal((await cms.users.listApplicationPasswords(first.user.id)).length, 1);
  });

  it('on a later start with the administrator as asked, verifies the known password without taking the write lock', async () => {
    const cms = newCms();
    const options = { login: 'root', applicationPassword: 'abcd efgh ijkl mnop qrst uvwx' };
    await ensureAdministrator(cms, options);
    const storage = cms.deps.storage;
    const transaction = storage.transaction.bind(storage);
    let transactions = 0;
    storage.transaction = (work) => {
      transactions += 1;
      return transaction(work);
    };
    try {
      assert.equal((await ensureAdministrator(cms, options)).created, false);
      assert.equal((await ensureAdministrator(cms, { login: 'root' })).applicationPassword, null);
      assert.equal(transactions, 0);
      const replaced = await ensureAdministrator(cms, { login: 'root', applicationPassword: 'ZYXW VUTS RQPO NMLK JIHG FEDC' });
      assert.equal(replaced.applicationPassword, 'ZYXW VUTS RQPO NMLK JIHG FEDC');
      assert.ok(transactions > 0, 'a password to replace is replaced in a transaction');
    } finally {
      storage.transaction = transaction;
    }
  });

  it('does not add a second administrator under another login', async () => {
    const cms = newCms();
    await ensureAdministrator(cms);
    await assert.rejects(ensureAdministrator(cms, { login: 'someone-else' }), /already has an administrator/);
    assert.equal(await cms.users.find('someone-else'), null);
  });
});
