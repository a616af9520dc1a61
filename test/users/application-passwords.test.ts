import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { send } from '../helpers/request.js';
import { basic, siteWithMembers } from './setup.js';

describe('application passwords over HTTP', () => {
  it('mints, uses, introspects, lists, renames and revokes', async () => {
    const { cms, request, members } = await siteWithMembers();
    const base = '/cms/v2/users/me/application-passwords';

    const created = await request('subscriber', 'POST', base, {
      json: { name: 'My phone', app_id: '7c3f1c2e-8b1a-4f55-9a52-5d0f2a8c1e90' },
    });
    assert.equal(created.status, 201);
    const { uuid, password } = created.json;
    assert.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(password, /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    const itemUrl = `http://example.test/cms-json/cms/v2/users/${members.subscriber.id}/application-passwords/${uuid}`;
    assert.equal(created.headers.Location, itemUrl);
    assert.deepEqual(created.json, {
      uuid,
      app_id: '7c3f1c2e-8b1a-4f55-9a52-5d0f2a8c1e90',
      name: 'My phone',
      created: '2024-05-06T07:08:09',
      last_used: null,
      last_ip: null,
      password,
      _links: { self: [{ href: itemUrl }] },
    });

    const phone = basic('subscriber', password);
    const introspected = await send(cms, 'GET', `${base}/introspect`, { headers: phone });
    assert.equal(introspected.status, 200);
    assert.equal(introspected.json.uuid, uuid);
    assert.equal(introspected.json.last_used, '2024-05-06T07:08:09', 'the introspecting request itself was recorded');
    assert.ok(!('password' in introspected.json));

    const listed = await send(cms, 'GET', base, { headers: phone });
    assert.deepEqual(listed.json.map((entry: { name: string }) => entry.name), ['tests', 'My phone']);
    assert.equal(listed.headers['X-WP-Total'], undefined, 'the list is not paged');

    const renamed = await send(cms, 'PUT', `${base}/${uuid}`, { headers: phone, json: { name: 'Old phone' } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.json.name, 'Old phone');
    assert.equal((await send(cms, 'GET', `${base}/${uuid}`, { headers: phone })).json.name, 'Old phone');

    const deleted = await request('subscriber', 'DELETE', `${base}/${uuid}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.json.deleted, true);
    assert.equal(deleted.json.previous.name, 'Old phone');
    assert.equal((await send(cms, 'GET', '/cms/v2/users/me', { headers: phone })).status, 401);
    const gone = await request('subscriber', 'GET', `${base}/${uuid}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.json.code, 'rest_application_password_not_found');
  });

  it('refuses a duplicate name (ignoring case) and a blank one', async () => {
    const { request } = await siteWithMembers();
    const base = '/cms/v2/users/me/application-passwords';
    const duplicate = await request('author', 'POST', base, { json: { name: 'TESTS' } });
    assert.equal(duplicate.status, 409);
    assert.deepEqual(duplicate.json, {
      code: 'application_password_duplicate_name',
      message: 'Each application name should be unique.',
      data: { status: 409 },
    });
    const blank = await request('author', 'POST', base, { json: { name: '   ' } });
    assert.equal(blank.status, 400);
    assert.equal(blank.json.data.params.name, 'name does not match pattern .*\\S.*.');
    const missing = await request('author', 'POST', base, { json: {} });
    assert.equal(missing.json.code, 'rest_missing_callback_param');
    const badAppId = await request('author', 'POST', base, { json: { name: 'x', app_id: 'nope' } });
    assert.equal(badAppId.json.data.details.app_id.code, 'rest_invalid_uuid');
  });

  it('deletes them all at once', async () => {
    const { cms, request, members } = await siteWithMembers();
    await cms.users.createApplicationPassword(members.editor.id, { name: 'second' });
    const response = await request('administrator', 'DELETE', `/cms/v2/users/${members.editor.id}/application-passwords`);
    assert.deepEqual(response.json, { deleted: true, count: 2 });
    assert.deepEqual(await cms.users.listApplicationPasswords(members.editor.id), []);
    assert.equal((await request('editor', 'GET', '/cms/v2/users/me')).status, 401);
  });

  it('lets administrators manage other users\' passwords and nobody else', async () => {
    const { request, members } = await siteWithMembers();
    const path = `/cms/v2/users/${members.author.id}/application-passwords`;
    const minted = await request('administrator', 'POST', path, { json: { name: 'for the author' } });
    assert.equal(minted.status, 201);
    const item = `${path}/${minted.json.uuid}`;
    const checks: [string, string, string][] = [
      ['GET', path, 'rest_cannot_list_application_passwords'],
      ['POST', path, 'rest_cannot_create_application_passwords'],
      ['DELETE', path, 'rest_cannot_delete_application_passwords'],
      ['GET', item, 'rest_cannot_read_application_password'],
      ['PUT', item, 'rest_cannot_edit_application_password'],
      ['DELETE', item, 'rest_cannot_delete_application_password'],
    ];
    for (const [method, target, code] of checks) {
      const json = method === 'GET' || method === 'DELETE' ? undefined : { name: 'renamed' };
      const asEditor = await request('editor', method, target, json === undefined ? {} : { json });
      assert.deepEqual([asEditor.status, asEditor.json.code], [403, code], `${method} ${target}`);
      const anonymous = await request('anonymous', method, target, json === undefined ? {} : { json });
      assert.deepEqual([anonymous.status, anonymous.json.code], [401, code], `${method} ${target}`);
    }
  });

  it('answers the reference errors for unknown users, unknown uuids and introspection', async () => {
    const { cms, request, members } = await siteWithMembers();
    const unknownUser = await request('administrator', 'GET', '/cms/v2/users/999/application-passwords');
    assert.deepEqual([unknownUser.status, unknownUser.json.code], [404, 'rest_user_invalid_id']);
    const unknownUuid = await request('administrator', 'GET', '/cms/v2/users/me/application-passwords/0000-nope');
    assert.deepEqual([unknownUuid.status, unknownUuid.json.code], [404, 'rest_application_password_not_found']);
    const anonymousMe = await request('anonymous', 'GET', '/cms/v2/users/me/application-passwords');
    assert.deepEqual([anonymousMe.status, anonymousMe.json.code], [401, 'rest_not_logged_in']);

    const others = await request('administrator', 'GET', `/cms/v2/users/${members.author.id}/application-passwords/introspect`);
    assert.deepEqual([others.status, others.json.code], [403, 'rest_cannot_introspect_app_password_for_non_authenticated_user']);
    const withoutPassword = await send(cms, 'GET', '/cms/v2/users/me/application-passwords/introspect', { user: { id: members.author.id } });
    assert.deepEqual([withoutPassword.status, withoutPassword.json.code], [404, 'rest_no_authenticated_app_password']);
  });
});
