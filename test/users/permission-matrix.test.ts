import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ACTORS, addPost, siteWithMembers, type Actor } from './setup.js';

type Expected = [status: number, code?: string];
type Row = Record<Actor, Expected>;

/** Everyone but the administrator is refused with `code`: 403 when logged in, 401 when anonymous. */
function adminOnly(okStatus: number, code: string): Row {
  return {
    administrator: [okStatus],
    editor: [403, code],
    author: [403, code],
    contributor: [403, code],
    subscriber: [403, code],
    anonymous: [401, code],
  };
}

function everyone(status: number): Row {
  return Object.fromEntries(ACTORS.map((actor) => [actor, [status]])) as Row;
}

/**
 * One route per permission shape, driven with each role and anonymously. Targets that a request changes or
 * deletes are created fresh for each actor.
 */
describe('permission matrix', async () => {
  const site = await siteWithMembers();
  const { cms, members } = site;
  const publishedAuthor = await cms.users.create({ login: 'writer', email: 'writer@example.test', roles: ['author'] });
  await addPost(cms, { author: publishedAuthor.id });
  const quietUser = await cms.users.create({ login: 'quiet', email: 'quiet@example.test' });
  let created = 0;
  const freshUser = async () => {
    created += 1;
    return (await cms.users.create({ login: `target${created}`, email: `target${created}@example.test` })).id;
  };

  const shapes: { name: string; request: (actor: Actor) => Promise<{ method: string; path: string; json?: unknown }>; expected: Row }[] = [
    {
      name: 'public read: a user with published posts',
      request: async () => ({ method: 'GET', path: `/cms/v2/users/${publishedAuthor.id}` }),
      expected: everyone(200),
    },
    {
      name: 'public read: the author list',
      request: async () => ({ method: 'GET', path: '/cms/v2/users' }),
      expected: everyone(200),
    },
    {
      name: 'read a user without published posts (list_users or edit_user)',
      request: async () => ({ method: 'GET', path: `/cms/v2/users/${quietUser.id}` }),
      expected: adminOnly(200, 'rest_user_cannot_view'),
    },
    {
      name: 'own resource: /users/me',
      request: async () => ({ method: 'GET', path: '/cms/v2/users/me' }),
      expected: { ...everyone(200), anonymous: [401, 'rest_not_logged_in'] },
    },
    {
      name: 'own resource: my application passwords',
      request: async () => ({ method: 'GET', path: '/cms/v2/users/me/application-passwords' }),
      expected: { ...everyone(200), anonymous: [401, 'rest_not_logged_in'] },
    },
    {
      name: "own resource: the subscriber's application passwords by id",
      request: async () => ({ method: 'GET', path: `/cms/v2/users/${members.subscriber.id}/application-passwords` }),
      expected: { ...adminOnly(200, 'rest_cannot_list_application_passwords'), subscriber: [200] },
    },
    {
      name: 'own resource: editing yourself',
      request: async () => ({ method: 'POST', path: '/cms/v2/users/me', json: { description: 'About me' } }),
      expected: { ...everyone(200), anonymous: [401, 'rest_not_logged_in'] },
    },
    {
      name: 'admin only: editing someone else',
      request: async () => ({ method: 'PUT', path: `/cms/v2/users/${await freshUser()}`, json: { name: 'Renamed' } }),
      expected: adminOnly(200, 'rest_cannot_edit'),
    },
    {
      name: 'admin only: create',
      request: async (actor) => ({
        method: 'POST',
        path: '/cms/v2/users',
        json: { username: `new-${actor}`, email: `new-${actor}@example.test`, password: 'pass' },
      }),
      expected: adminOnly(201, 'rest_cannot_create_user'),
    },
    {
      name: 'admin only: filtering the list by role',
      request: async () => ({ method: 'GET', path: '/cms/v2/users?roles=author' }),
      expected: adminOnly(200, 'rest_user_cannot_view'),
    },
    {
      name: 'admin only: ordering the list by email',
      request: async () => ({ method: 'GET', path: '/cms/v2/users?orderby=email' }),
      expected: adminOnly(200, 'rest_forbidden_orderby'),
    },
    {
      name: 'admin only: delete',
      request: async () => ({ method: 'DELETE', path: `/cms/v2/users/${await freshUser()}?force=true&reassign=false` }),
      expected: adminOnly(200, 'rest_user_cannot_delete'),
    },
    {
      name: 'admin only: minting a password for someone else',
      request: async () => ({ method: 'POST', path: `/cms/v2/users/${members.subscriber.id}/application-passwords`, json: { name: `for the subscriber ${++created}` } }),
      expected: { ...adminOnly(201, 'rest_cannot_create_application_passwords'), subscriber: [201] },
    },
    {
      name: 'context=edit on the list',
      request: async () => ({ method: 'GET', path: '/cms/v2/users?context=edit' }),
      expected: adminOnly(200, 'rest_forbidden_context'),
    },
    {
      name: 'context=edit on another user',
      request: async () => ({ method: 'GET', path: `/cms/v2/users/${publishedAuthor.id}?context=edit` }),
      expected: adminOnly(200, 'rest_forbidden_context'),
    },
    {
      name: 'context=edit on yourself',
      request: async () => ({ method: 'GET', path: '/cms/v2/users/me?context=edit' }),
      expected: { ...everyone(200), anonymous: [401, 'rest_not_logged_in'] },
    },
    {
      name: 'who=authors needs a post type to edit',
      request: async () => ({ method: 'GET', path: '/cms/v2/users?who=authors' }),
      expected: { ...everyone(200), subscriber: [403, 'rest_forbidden_who'], anonymous: [401, 'rest_forbidden_who'] },
    },
  ];

  for (const shape of shapes) {
    it(shape.name, async () => {
      for (const actor of ACTORS) {
        const { method, path, json } = await shape.request(actor);
        const response = await site.request(actor, method, path, json === undefined ? {} : { json });
        const [status, code] = shape.expected[actor];
        const label = `${actor}: ${method} ${path} → ${response.status} ${JSON.stringify(response.json).slice(0, 200)}`;
        assert.equal(response.status, status, label);
        if (code !== undefined) assert.equal(response.json.code, code, label);
        else assert.ok(!(response.json && typeof response.json === 'object' && 'code' in response.json && 'data' in response.json), label);
      }
    });
  }
});
