import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { addPost, siteWithMembers } from './setup.js';

const newUser = { username: 'newbie', email: 'newbie@example.test', password: 'correct horse' };

describe('POST /cms/v2/users', () => {
  it('creates a subscriber by default and answers 201 in the edit context', async () => {
    const { request } = await siteWithMembers();
    const response = await request('administrator', 'POST', '/cms/v2/users', { json: newUser });
    assert.equal(response.status, 201);
    const body = response.json;
    assert.equal(response.headers.Location, `http://example.test/cms-json/cms/v2/users/${body.id}`);
    const emailHash = createHash('md5').update('newbie@example.test').digest('hex');
    const { _links, capabilities, ...fields } = body;
    assert.deepEqual(fields, {
      id: body.id,
      username: 'newbie',
      name: 'newbie',
      first_name: '',
      last_name: '',
      email: 'newbie@example.test',
      url: '',
      description: '',
      link: 'http://example.test/author/newbie/',
      locale: 'en_US',
      nickname: 'newbie',
      slug: 'newbie',
      roles: ['subscriber'],
      registered_date: '2024-05-06T07:08:09+00:00',
      extra_capabilities: { subscriber: true },
      avatar_urls: {
        24: `https://secure.gravatar.com/avatar/${emailHash}?s=24&d=mm&r=g`,
        48: `https://secure.gravatar.com/avatar/${emailHash}?s=48&d=mm&r=g`,
        96: `https://secure.gravatar.com/avatar/${emailHash}?s=96&d=mm&r=g`,
      },
      meta: [],
    });
    assert.deepEqual(capabilities, { read: true, level_0: true, subscriber: true });
    assert.deepEqual(_links, {
      self: [{ href: `http://example.test/cms-json/cms/v2/users/${body.id}` }],
      collection: [{ href: 'http://example.test/cms-json/cms/v2/users' }],
    });
    assert.ok(!('password' in body));
  });

  it('takes roles, names and a display name made from them, and cleans text fields', async () => {
    const { request } = await siteWithMembers();
    const response = await request('administrator', 'POST', '/cms/v2/users', {
      json: {
        ...newUser,
        roles: ['editor', 'author'],
        first_name: '<b>Ada</b>',
        last_name: 'Lovelace & Co',
        url: 'example.org/ada',
        description: '<script>alert(1)</script><strong>Hi</strong> <a href="javascript:alert(1)" rel="me" onclick="x()">me</a>',
      },
    });
    assert.equal(response.status, 201);
    assert.deepEqual(response.json.roles, ['editor', 'author']);
    assert.equal(response.json.first_name, 'Ada');
    assert.equal(response.json.last_name, 'Lovelace &amp; Co');
    assert.equal(response.json.name, 'Ada Lovelace &amp; Co');
    assert.equal(response.json.url, 'http://example.org/ada');
    assert.equal(response.json.description, 'alert(1)<strong>Hi</strong> <a rel="me">me</a>');
    assert.deepEqual(response.json.extra_capabilities, { editor: true, author: true });
    assert.equal(response.json.capabilities.moderate_comments, true);
  });

  it('gives a taken slug a numeric suffix', async () => {
    const { request } = await siteWithMembers();
    const first = await request('administrator', 'POST', '/cms/v2/users', { json: { ...newUser, slug: 'The.Slug' } });
    assert.equal(first.json.slug, 'the-slug');
    const second = await request('administrator', 'POST', '/cms/v2/users', {
      json: { username: 'other', email: 'other@example.test', password: 'x', slug: 'the-slug' },
    });
    assert.equal(second.json.slug, 'the-slug-2');
  });

  const failures: [label: string, json: Record<string, unknown>, status: number, code: string, message: string, detail?: string][] = [
    ['a login that exists, in another case', { ...newUser, username: 'EDITOR' }, 400, 'existing_user_login', 'Sorry, that username already exists!'],
    ['an email that exists, in another case', { ...newUser, email: 'Editor@Example.test' }, 400, 'existing_user_email', 'Sorry, that email address is already used!'],
    ['an invalid email', { ...newUser, email: 'not-an-email' }, 400, 'rest_invalid_param', 'Invalid parameter(s): email', 'rest_invalid_email'],
    ['an unknown role', { ...newUser, roles: ['overlord'] }, 400, 'rest_user_invalid_role', 'The role overlord does not exist.'],
    ['illegal characters in the login', { ...newUser, username: 'bad name!' }, 400, 'rest_invalid_param', 'Invalid parameter(s): username', 'rest_user_invalid_username'],
    ['an empty password', { ...newUser, password: '' }, 400, 'rest_invalid_param', 'Invalid parameter(s): password', 'rest_user_invalid_password'],
    ['a backslash in the password', { ...newUser, password: 'a\\b' }, 400, 'rest_invalid_param', 'Invalid parameter(s): password', 'rest_user_invalid_password'],
    ['an id', { ...newUser, id: 5 }, 400, 'rest_user_exists', 'Cannot create existing user.'],
    ['a login over 60 characters', { ...newUser, username: 'x'.repeat(61) }, 400, 'user_login_too_long', 'Username may not be longer than 60 characters.'],
    ['an unknown locale', { ...newUser, locale: 'xx_XX' }, 400, 'rest_invalid_param', 'Invalid parameter(s): locale', 'rest_not_in_enum'],
  ];
  for (const [label, json, status, code, message, detail] of failures) {
    it(`refuses ${label}`, async () => {
      const { request } = await siteWithMembers();
      const response = await request('administrator', 'POST', '/cms/v2/users', { json });
      assert.equal(response.status, status, JSON.stringify(response.json));
      assert.equal(response.json.code, code);
      assert.equal(response.json.message, message);
      if (detail !== undefined) {
        const param = message.split(': ')[1]!;
        assert.equal(response.json.data.details[param].code, detail);
      }
    });
  }

  it('names every missing required field', async () => {
    const { request } = await siteWithMembers();
    const response = await request('administrator', 'POST', '/cms/v2/users', { json: { name: 'Nobody' } });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'rest_missing_callback_param');
    assert.deepEqual(response.json.data.params, ['username', 'email', 'password']);
  });

  it('validates before checking permissions', async () => {
    const { request } = await siteWithMembers();
    const response = await request('anonymous', 'POST', '/cms/v2/users', { json: { ...newUser, email: 'nope' } });
    assert.equal(response.status, 400);
  });
});

describe('updating users', () => {
  it('updates the fields sent and answers in the edit context', async () => {
    const { request, members } = await siteWithMembers();
    const response = await request('author', 'PATCH', '/cms/v2/users/me', {
      json: { first_name: 'Ann', nickname: 'annie', description: 'Writes.', slug: 'Ann Author' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.json.id, members.author.id);
    assert.equal(response.json.first_name, 'Ann');
    assert.equal(response.json.nickname, 'annie');
    assert.equal(response.json.slug, 'ann-author');
    assert.equal(response.json.name, 'The author', 'the display name stays');
    assert.equal(response.json.username, 'author');
  });

  const failures: [label: string, json: Record<string, unknown>, code: string, message: string][] = [
    ['a new username', { username: 'renamed' }, 'rest_user_invalid_argument', 'Username is not editable.'],
    ["someone else's email", { email: 'EDITOR@example.test' }, 'rest_user_invalid_email', 'Invalid email address.'],
    ["someone else's slug", { slug: 'editor' }, 'rest_user_invalid_slug', 'Invalid slug.'],
  ];
  for (const [label, json, code, message] of failures) {
    it(`refuses ${label}`, async () => {
      const { request } = await siteWithMembers();
      const response = await request('author', 'POST', '/cms/v2/users/me', { json });
      assert.equal(response.status, 400);
      assert.deepEqual({ code: response.json.code, message: response.json.message }, { code, message });
    });
  }

  it('accepts the unchanged username and the own email', async () => {
    const { request } = await siteWithMembers();
    const response = await request('author', 'POST', '/cms/v2/users/me', { json: { username: 'author', email: 'AUTHOR@example.test' } });
    assert.equal(response.status, 200);
    assert.equal(response.json.email, 'AUTHOR@example.test');
  });

  it('changes roles only for those who may promote, and never takes user editing away from yourself', async () => {
    const { request, members } = await siteWithMembers();
    const byEditor = await request('editor', 'POST', '/cms/v2/users/me', { json: { roles: ['administrator'] } });
    assert.equal(byEditor.status, 403);
    assert.equal(byEditor.json.code, 'rest_cannot_edit_roles');

    const demotingSelf = await request('administrator', 'POST', '/cms/v2/users/me', { json: { roles: ['editor'] } });
    assert.equal(demotingSelf.status, 403);
    assert.deepEqual(
      { code: demotingSelf.json.code, message: demotingSelf.json.message },
      { code: 'rest_user_invalid_role', message: 'Sorry, you are not allowed to give users that role.' },
    );

    const promoting = await request('administrator', 'PUT', `/cms/v2/users/${members.subscriber.id}`, { json: { roles: ['author'] } });
    assert.equal(promoting.status, 200);
    assert.deepEqual(promoting.json.roles, ['author']);
    const unknownRole = await request('administrator', 'PUT', `/cms/v2/users/${members.subscriber.id}`, { json: { roles: ['ghost'] } });
    assert.equal(unknownRole.json.code, 'rest_user_invalid_role');
    const promoted = await request('subscriber', 'GET', '/cms/v2/users/me?context=edit');
    assert.equal(promoted.json.capabilities.publish_posts, true, 'the new role applies to the next request');
  });

  it('404s for an unknown user and 401s for anonymous /me writes', async () => {
    const { request } = await siteWithMembers();
    const unknown = await request('administrator', 'PUT', '/cms/v2/users/999', { json: { name: 'x' } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'rest_user_invalid_id');
    const anonymous = await request('anonymous', 'PUT', '/cms/v2/users/me', { json: { name: 'x' } });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.code, 'rest_not_logged_in');
  });
});

describe('DELETE /cms/v2/users/{id}', () => {
  it('needs force=true and a reassign parameter', async () => {
    const { request, members } = await siteWithMembers();
    const path = `/cms/v2/users/${members.author.id}`;
    const missing = await request('administrator', 'DELETE', path);
    assert.equal(missing.status, 400);
    assert.equal(missing.json.code, 'rest_missing_callback_param');
    assert.deepEqual(missing.json.data.params, ['reassign']);
    const noForce = await request('administrator', 'DELETE', `${path}?reassign=false`);
    assert.equal(noForce.status, 501);
    assert.deepEqual(noForce.json, {
      code: 'rest_trash_not_supported',
      message: "Users do not support trashing. Set 'force=true' to delete.",
      data: { status: 501 },
    });
    const badReassign = await request('administrator', 'DELETE', `${path}?force=true&reassign=someone`);
    assert.equal(badReassign.status, 400);
    assert.equal(badReassign.json.code, 'rest_invalid_param');
    assert.equal(badReassign.json.data.params.reassign, 'Invalid user parameter(s).');
    for (const reassign of [members.author.id, 999]) {
      const invalid = await request('administrator', 'DELETE', `${path}?force=true&reassign=${reassign}`);
      assert.equal(invalid.status, 400);
      assert.equal(invalid.json.code, 'rest_user_invalid_reassign');
    }
    assert.equal((await request('administrator', 'GET', path)).status, 200, 'nothing was deleted');
  });

  it("reassigns the user's posts and answers with the previous record", async () => {
    const { cms, request, members } = await siteWithMembers();
    const post = await addPost(cms, { author: members.author.id });
    const draft = await addPost(cms, { author: members.author.id, status: 'draft' });
    const others = await addPost(cms, { author: members.editor.id });
    const response = await request('administrator', 'DELETE', `/cms/v2/users/${members.author.id}?force=true&reassign=${members.editor.id}`);
    assert.equal(response.status, 200);
    assert.equal(response.json.deleted, true);
    assert.equal(response.json.previous.username, 'author');
    assert.equal(response.json.previous.email, 'author@example.test');
    assert.ok(!('_links' in response.json.previous));
    for (const id of [post.id, draft.id, others.id]) {
      assert.equal((await cms.deps.storage.get('posts', id))?.author, members.editor.id);
    }
    assert.equal((await request('administrator', 'GET', `/cms/v2/users/${members.author.id}`)).status, 404);
    assert.equal(await cms.users.get(members.author.id), null);
  });

  it('moves the posts and pages to the trash without reassign, removing other records, keeping other people\'s', async () => {
    const { cms, request, members } = await siteWithMembers();
    const created = await request('author', 'POST', '/cms/v2/posts', { json: { title: 'Mine', content: 'Kept', status: 'publish' } });
    assert.equal(created.status, 201);
    const post = created.json;
    const edited = await request('administrator', 'POST', `/cms/v2/posts/${post.id}`, { json: { content: 'Kept, edited' } });
    assert.equal(edited.status, 200);
    const attachment = await addPost(cms, { author: members.author.id, type: 'attachment', status: 'inherit' });
    const others = await addPost(cms, { author: members.editor.id });
    const response = await request('administrator', 'DELETE', `/cms/v2/users/${members.author.id}?force=1&reassign=`);
    assert.equal(response.status, 200);
    const trashed = await cms.deps.storage.get('posts', post.id);
    assert.equal(trashed?.status, 'trash', 'the post can still be restored');
    assert.equal(trashed?.trashed_from_status, 'publish');
    assert.equal(trashed?.content, 'Kept, edited');
    const inTrash = await request('administrator', 'GET', '/cms/v2/posts?status=trash');
    assert.deepEqual(inTrash.json.map((entry: { id: number }) => entry.id), [post.id]);
    const revisions = await request('administrator', 'GET', `/cms/v2/posts/${post.id}/revisions`);
    assert.ok(revisions.json.length >= 1, 'revisions stay with the trashed post');
    assert.equal(await cms.deps.storage.get('posts', attachment.id), null);
    assert.notEqual(await cms.deps.storage.get('posts', others.id), null);
  });

  it('lets administrators delete themselves through /me, nobody else', async () => {
    const { request } = await siteWithMembers();
    const bySubscriber = await request('subscriber', 'DELETE', '/cms/v2/users/me?force=true&reassign=false');
    assert.equal(bySubscriber.status, 403);
    assert.equal(bySubscriber.json.code, 'rest_user_cannot_delete');
    const anonymous = await request('anonymous', 'DELETE', '/cms/v2/users/me?force=true&reassign=false');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.code, 'rest_not_logged_in');
    const byAdministrator = await request('administrator', 'DELETE', '/cms/v2/users/me?force=true&reassign=false');
    assert.equal(byAdministrator.status, 200);
    assert.equal(byAdministrator.json.previous.username, 'administrator');
  });
});

describe('route descriptions', () => {
  it('publishes the reference arguments and the item schema', async () => {
    const { request } = await siteWithMembers();
    const options = await request('anonymous', 'OPTIONS', '/cms/v2/users');
    assert.equal(options.json.schema.title, 'user');
    assert.deepEqual(options.json.schema.properties.username.context, ['edit']);
    const create = options.json.endpoints[1];
    assert.deepEqual(create.methods, ['POST']);
    assert.deepEqual(
      Object.entries(create.args).filter(([, spec]) => (spec as { required: boolean }).required).map(([name]) => name),
      ['username', 'email', 'password'],
    );
    const list = options.json.endpoints[0];
    assert.deepEqual(Object.keys(list.args), [
      'context', 'page', 'per_page', 'search', 'exclude', 'include', 'offset', 'order', 'orderby', 'slug', 'roles',
      'capabilities', 'who', 'has_published_posts',
    ]);
    const index = await request('anonymous', 'GET', '/cms/v2');
    assert.deepEqual(index.json.routes['/cms/v2/users/(?P<id>[\\d]+)'].methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.ok('/cms/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/introspect' in index.json.routes);
  });
});
