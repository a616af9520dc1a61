import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCms } from '../../src/cms.js';
import { createPrincipal } from '../../src/auth/index.js';
import { send } from '../helpers/request.js';
import { basic, siteWithMembers } from './setup.js';

const INCORRECT = {
  code: 'incorrect_password',
  message: 'The provided password is an invalid application password.',
  data: { status: 401 },
};

describe('HTTP Basic with application passwords', () => {
  it('logs in with the login or the email address, ignoring case, spaces and dashes in the password', async () => {
    const { cms, members } = await siteWithMembers();
    const author = members.author;
    const plain = author.password.replace(/ /g, '');
    const dashed = author.password.replace(/ /g, '-');
    for (const headers of [
      author.headers,
      basic('AUTHOR', author.password),
      basic(author.email, author.password),
      basic(author.email.toUpperCase(), plain),
      basic('author', dashed),
      { authorization: `bAsIc ${Buffer.from(`author:${plain}`).toString('base64')}` },
    ]) {
      const response = await send(cms, 'GET', '/cms/v2/users/me', { headers });
      assert.equal(response.status, 200, JSON.stringify(headers));
      assert.equal(response.json.id, author.id);
    }
  });

  it('answers every failed attempt with the same 401 body, never a 500', async () => {
    const { cms, members } = await siteWithMembers();
    const other = members.editor.password;
    const attempts: Record<string, string> = {
      'wrong password': basic('author', 'abcd efgh ijkl mnop qrst uvwx').authorization!,
      "another user's password": basic('author', other).authorization!,
      'unknown user': basic('nobody', members.author.password).authorization!,
      'unknown email': basic('nobody@example.test', members.author.password).authorization!,
      'empty credentials': basic('', '').authorization!,
      'empty password': basic('author', '').authorization!,
      'nothing after the scheme': 'Basic',
      'malformed base64': 'Basic !!!not-base64!!!',
      'base64 of bytes that are not UTF-8': `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x41]).toString('base64')}`,
      'no colon': `Basic ${Buffer.from('authorwithoutcolon').toString('base64')}`,
      'bad padding': 'Basic YWJj=ZA==',
      'the account password is not accepted': basic('admin', 'secret').authorization!,
    };
    await cms.users.create({ login: 'admin', email: 'admin@example.test', password: 'secret', roles: ['administrator'] });
    for (const [label, authorization] of Object.entries(attempts)) {
      for (const path of ['/cms/v2/users/me', '/cms/v2/users', '/']) {
        const response = await send(cms, 'GET', path, { headers: { authorization } });
        assert.equal(response.status, 401, `${label} on ${path}`);
        assert.deepEqual(response.json, INCORRECT, `${label} on ${path}`);
      }
    }
  });

  it('treats other schemes as no attempt at all: anonymous', async () => {
    const { cms, members } = await siteWithMembers();
    for (const authorization of ['Bearer abc.def.ghi', 'Digest username="author"', `Token ${members.author.password}`, '']) {
      const me = await send(cms, 'GET', '/cms/v2/users/me', { headers: { authorization } });
      assert.equal(me.status, 401);
      assert.equal(me.json.code, 'rest_not_logged_in');
      const index = await send(cms, 'GET', '/', { headers: { authorization } });
      assert.equal(index.status, 200);
    }
  });

  it('stops accepting a revoked password and keeps the others', async () => {
    const { cms, members } = await siteWithMembers();
    const second = await cms.users.createApplicationPassword(members.author.id, { name: 'second' });
    const [first] = await cms.users.listApplicationPasswords(members.author.id);
    assert.equal(await cms.users.revokeApplicationPassword(members.author.id, first!.uuid), true);
    assert.equal((await send(cms, 'GET', '/cms/v2/users/me', { headers: members.author.headers })).status, 401);
    assert.equal((await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('author', second.password) })).status, 200);
  });

  it('records the last use and address at most once a day', async () => {
    const { cms, clock, members } = await siteWithMembers();
    const use = (remoteAddress: string) =>
      cms.handle({ method: 'GET', path: '/cms/v2/users/me', headers: members.author.headers, remoteAddress });
    const lastUse = async () => {
      const [password] = await cms.users.listApplicationPasswords(members.author.id);
      return { lastUsed: password!.lastUsed, lastIp: password!.lastIp };
    };
    assert.deepEqual(await lastUse(), { lastUsed: null, lastIp: null });
    assert.equal((await use('192.0.2.1')).status, 200);
    assert.deepEqual(await lastUse(), { lastUsed: '2024-05-06T07:08:09', lastIp: '192.0.2.1' });
    clock.advance(23 * 60 * 60 * 1000);
    await use('192.0.2.2');
    assert.deepEqual(await lastUse(), { lastUsed: '2024-05-06T07:08:09', lastIp: '192.0.2.1' });
    clock.advance(2 * 60 * 60 * 1000);
    await use('192.0.2.3');
    assert.deepEqual(await lastUse(), { lastUsed: '2024-05-07T08:08:09', lastIp: '192.0.2.3' });
  });

  it('works as soon as a user has an application password, whatever the transport', async () => {
    const cms = createCms({ site: { url: 'http://plain-http.test' } });
    const user = await cms.users.create({ login: 'solo', email: 'solo@example.test' });
    const { password } = await cms.users.createApplicationPassword(user.id, { name: 'only' });
    const response = await send(cms, 'GET', '/cms/v2/users/me', { headers: basic('solo', password) });
    assert.equal(response.status, 200);
    assert.equal(response.json.name, 'solo');
  });
});

describe('the host hook and pre-authenticated requests', () => {
  it('uses the host hook first and falls back to Basic when it knows nobody', async () => {
    const calls: string[] = [];
    let hostEditorId = 0;
    const { cms, members } = await siteWithMembers({
      authenticate: ({ headers }) => {
        calls.push(headers.authorization ?? '');
        if (headers['x-host-user'] === 'editor') {
          return createPrincipal({ id: hostEditorId, login: 'editor', roles: ['editor'] }, cms.deps.roles);
        }
        return null;
      },
    });
    hostEditorId = members.editor.id;
    const asHostUser = await send(cms, 'GET', '/cms/v2/users/me', { headers: { 'x-host-user': 'editor', ...basic('author', 'wrong') } });
    assert.equal(asHostUser.status, 200, 'the hook wins, so the bad Basic header is never checked');
    assert.equal(asHostUser.json.id, members.editor.id);
    const viaBasic = await send(cms, 'GET', '/cms/v2/users/me', { headers: members.author.headers });
    assert.equal(viaBasic.json.id, members.author.id);
    assert.equal(calls.length, 2);
  });

  it('lets a host hook refuse the request with its own error', async () => {
    const { CmsError } = await import('../../src/core/errors.js');
    const { cms, members } = await siteWithMembers({
      authenticate: () => {
        throw new CmsError('host_session_expired', 'Your session has expired.', 401);
      },
    });
    const response = await send(cms, 'GET', '/cms/v2/users/me', { headers: members.author.headers });
    assert.equal(response.status, 401);
    assert.equal(response.json.code, 'host_session_expired');
  });

  it('looks up a principal passed as request.user by id, before any header', async () => {
    const { cms, members } = await siteWithMembers();
    const asEditor = await send(cms, 'GET', '/cms/v2/users/me?context=edit', { user: { id: members.editor.id }, headers: basic('x', 'y') });
    assert.equal(asEditor.status, 200);
    assert.equal(asEditor.json.username, 'editor');
    assert.deepEqual(asEditor.json.roles, ['editor']);
    const unknown = await send(cms, 'GET', '/cms/v2/users/me', { user: { id: 999 } });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.json.code, 'rest_not_logged_in');
  });

  it('publishes the authorization address from the site options in the index', async () => {
    const cms = createCms({ site: { url: 'http://example.test', authorizationUrl: 'https://example.test/grant' } });
    const index = await send(cms, 'GET', '/');
    assert.deepEqual(index.json.authentication, {
      'application-passwords': { endpoints: { authorization: 'https://example.test/grant' } },
    });
  });
});
