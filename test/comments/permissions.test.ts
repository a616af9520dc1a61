import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ROLES, makeCommentSite, onEachStore, type Role } from './helpers.js';

type Who = Role | null;
const EVERYONE: Who[] = [...ROLES, null];

onEachStore('comments: who may do what', (store) => {
  it('follows the reference\'s role matrix', async () => {
    const site = await makeCommentSite(store);
    const adminPost = await site.create({ title: 'Admin post', status: 'publish' });
    const authorPost = await site.create({ title: 'Author post', status: 'publish' }, { role: 'author' });
    const held = await site.cms.comments.create({ post: adminPost.id, content: 'Held', authorName: 'V', authorEmail: 'v@example.org', status: 'hold' });
    const onAuthorPost = await site.cms.comments.create({ post: authorPost.id, content: 'On the author\'s post', status: 'hold' });

    // Expected status per role, in the order administrator, editor, author, contributor, subscriber, anonymous.
    const matrix: [string, (who: Who) => Promise<number>, number[]][] = [
      ['create', async (who) => (await site.as(who)('POST', '/cms/v2/comments', { json: { post: adminPost.id, content: `From ${who}` } })).status,
        [201, 201, 201, 201, 201, 401]],
      ['read a held comment', async (who) => (await site.as(who)('GET', `/cms/v2/comments/${held.id}`)).status,
        [200, 200, 403, 403, 403, 401]],
      ['read in the edit context', async (who) => (await site.as(who)('GET', `/cms/v2/comments/${held.id}?context=edit`)).status,
        [200, 200, 403, 403, 403, 401]],
      ['list in the edit context', async (who) => (await site.as(who)('GET', '/cms/v2/comments?context=edit')).status,
        [200, 200, 403, 403, 403, 401]],
      ['list held comments', async (who) => (await site.as(who)('GET', '/cms/v2/comments?status=hold')).status,
        [200, 200, 200, 200, 403, 401]],
      ['update a comment on someone else\'s post', async (who) => (await site.as(who)('POST', `/cms/v2/comments/${held.id}`, { json: { content: `By ${who}` } })).status,
        [200, 200, 403, 403, 403, 401]],
      ['update a comment on the author\'s post', async (who) => (await site.as(who)('POST', `/cms/v2/comments/${onAuthorPost.id}`, { json: { status: 'approved' } })).status,
        [200, 200, 200, 403, 403, 401]],
      ['read a held comment on the author\'s post', async (who) => (await site.as(who)('GET', `/cms/v2/comments/${onAuthorPost.id}`)).status,
        [200, 200, 200, 200, 200, 200]],
    ];
    for (const [name, act, expected] of matrix) {
      const actual: number[] = [];
      for (const who of EVERYONE) actual.push(await act(who));
      assert.deepEqual(actual, expected, name);
    }

    const deletes: number[] = [];
    for (const who of [null, 'subscriber', 'contributor', 'author', 'editor'] as Who[]) {
      const target = await site.cms.comments.create({ post: adminPost.id, content: `Doomed ${who}` });
      deletes.push((await site.as(who)('DELETE', `/cms/v2/comments/${target.id}`)).status);
    }
    assert.deepEqual(deletes, [401, 403, 403, 403, 200]);
    const authorDelete = await site.as('author')('DELETE', `/cms/v2/comments/${onAuthorPost.id}?force=true`);
    assert.equal(authorDelete.status, 200);
    assert.equal(authorDelete.json.deleted, true);
  });

  it('reports the methods each caller may use in Allow', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Post', status: 'publish' });
    const comment = await site.cms.comments.create({ post: post.id, content: 'Hi' });
    assert.equal((await site.admin('GET', `/cms/v2/comments/${comment.id}`)).headers.Allow, 'GET, POST, PUT, PATCH, DELETE');
    assert.equal((await site.anonymous('GET', `/cms/v2/comments/${comment.id}`)).headers.Allow, 'GET');

    // A write answers in the edit context, and Allow asks the checks in it: the post's author, who may edit the
    // comment but not moderate, may not read it in that context, so GET is left out.
    const authorPost = await site.create({ title: 'Author post', status: 'publish' }, { role: 'author' });
    const onAuthorPost = await site.cms.comments.create({ post: authorPost.id, content: 'Hi' });
    const byAuthor = await site.as('author')('POST', `/cms/v2/comments/${onAuthorPost.id}`, { json: { content: 'Edited' } });
    assert.equal(byAuthor.status, 200);
    assert.equal(byAuthor.headers.Allow, 'POST, PUT, PATCH, DELETE');
    assert.equal((await site.as('author')('GET', `/cms/v2/comments/${onAuthorPost.id}`)).headers.Allow, 'GET, POST, PUT, PATCH, DELETE');
    const byModerator = await site.as('editor')('POST', `/cms/v2/comments/${onAuthorPost.id}`, { json: { content: 'Moderated' } });
    assert.equal(byModerator.headers.Allow, 'GET, POST, PUT, PATCH, DELETE');
    // A non-moderator's comment is answered in the view context: the list stays allowed.
    const created = await site.as('author')('POST', '/cms/v2/comments', { json: { post: authorPost.id, content: 'Mine' } });
    assert.equal(created.status, 201);
    assert.equal(created.headers.Allow, 'GET, POST');
  });

  it('refuses authors, addresses and statuses a non-moderator may not set', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Post', status: 'publish' });
    const cases: [Record<string, unknown>, string][] = [
      [{ author: site.ids.administrator }, 'rest_comment_invalid_author'],
      [{ author_ip: '10.0.0.1' }, 'rest_comment_invalid_author_ip'],
      [{ status: 'approved' }, 'rest_comment_invalid_status'],
    ];
    for (const [extra, code] of cases) {
      const response = await site.as('author')('POST', '/cms/v2/comments', { json: { post: post.id, content: 'x', ...extra } });
      assert.equal(response.status, 403);
      assert.equal(response.json.code, code);
    }
    const own = await site.as('author')('POST', '/cms/v2/comments', { json: { post: post.id, content: 'x', author: site.ids.author } });
    assert.equal(own.status, 201);
    const moderator = await site.admin('POST', '/cms/v2/comments', {
      json: { post: post.id, content: 'On behalf', author: site.ids.subscriber, author_ip: '10.0.0.1', status: 'hold' },
    });
    assert.equal(moderator.status, 201);
    assert.equal(moderator.json.author, site.ids.subscriber);
    assert.equal(moderator.json.author_ip, '10.0.0.1');
    assert.equal(moderator.json.status, 'hold');
  });

  it('refuses comments on closed, draft, trashed and unreadable posts', async () => {
    const site = await makeCommentSite(store);
    const closed = await site.create({ title: 'Closed', status: 'publish', comment_status: 'closed' });
    const draft = await site.create({ title: 'Draft', status: 'draft' });
    const trashed = await site.create({ title: 'Trashed', status: 'publish' });
    await site.admin('DELETE', `/cms/v2/posts/${trashed.id}`);
    const privatePost = await site.create({ title: 'Private', status: 'private' });
    const page = await site.create({ title: 'Page', status: 'publish' }, { base: 'pages' });
    const cases: [number, Role, number, string][] = [
      [closed.id, 'subscriber', 403, 'rest_comment_closed'],
      [closed.id, 'administrator', 403, 'rest_comment_closed'],
      [draft.id, 'administrator', 403, 'rest_comment_draft_post'],
      [trashed.id, 'administrator', 403, 'rest_comment_trash_post'],
      [privatePost.id, 'subscriber', 403, 'rest_cannot_read_post'],
      // Pages are closed to comments unless opened.
      [page.id, 'subscriber', 403, 'rest_comment_closed'],
    ];
    for (const [postId, role, status, code] of cases) {
      const response = await site.as(role)('POST', '/cms/v2/comments', { json: { post: postId, content: 'Hi' } });
      assert.equal(response.status, status, `${role} on ${postId}`);
      assert.equal(response.json.code, code);
    }
    assert.equal((await site.admin('POST', '/cms/v2/comments', { json: { post: privatePost.id, content: 'Hi' } })).status, 201);
  });

  it('needs the password to comment on a protected post', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Secret', status: 'publish', password: 'pw' });
    const without = await site.as('subscriber')('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Hi' } });
    assert.equal(without.status, 403);
    assert.equal(without.json.code, 'rest_cannot_read_post');
    const withPassword = await site.as('subscriber')('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Hi', password: 'pw' } });
    assert.equal(withPassword.status, 201);
  });

  it('keeps visitors out unless the site lets them in, then asks for a name and email', async () => {
    const closedSite = await makeCommentSite(store);
    const post = await closedSite.create({ title: 'Post', status: 'publish' });
    const refused = await closedSite.anonymous('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Hi', author_name: 'V', author_email: 'v@example.org' } });
    assert.equal(refused.status, 401);
    assert.equal(refused.json.code, 'rest_comment_login_required');
    assert.deepEqual(await closedSite.cms.comments.ofPost(post.id), []);
    // The arguments are checked before the login: a bad email is 400 even where visitors may not comment.
    for (const author_email of ['not-an-email', 5, ['v@example.org']]) {
      const invalid = await closedSite.anonymous('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Hi', author_name: 'V', author_email } });
      assert.equal(invalid.status, 400, JSON.stringify(author_email));
      assert.equal(invalid.json.code, 'rest_invalid_param');
      assert.equal(invalid.json.message, 'Invalid parameter(s): author_email');
      assert.deepEqual(invalid.json.data, {
        status: 400,
        params: { author_email: 'Invalid email address.' },
        details: { author_email: { code: 'rest_invalid_email', message: 'Invalid email address.', data: null } },
      });
    }
    const queryEmail = await closedSite.anonymous('POST', `/cms/v2/comments?author_email=nope&post=${post.id}&content=Hi`);
    assert.equal(queryEmail.status, 400);
    assert.equal(queryEmail.json.code, 'rest_invalid_param');
    // An empty email is no bad argument: the login is asked for.
    const emptyEmail = await closedSite.anonymous('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Hi', author_email: '' } });
    assert.equal(emptyEmail.json.code, 'rest_comment_login_required');

    const open = await makeCommentSite(store, { comments: { allowAnonymous: true } });
    const openPost = await open.create({ title: 'Post', status: 'publish' });
    const send = (json: Record<string, unknown>) => open.anonymous('POST', '/cms/v2/comments', { json: { post: openPost.id, content: 'Hi', ...json } });
    const noName = await send({ author_email: 'v@example.org' });
    assert.equal(noName.status, 400);
    assert.equal(noName.json.code, 'rest_comment_author_data_required');
    const noEmail = await send({ author_name: 'Visitor' });
    assert.equal(noEmail.status, 400);
    assert.equal(noEmail.json.code, 'rest_comment_author_data_required');
    const badEmail = await send({ author_name: 'Visitor', author_email: 'not-an-email' });
    assert.equal(badEmail.status, 400);
    assert.equal(badEmail.json.code, 'rest_invalid_param');
    const accepted = await send({ author_name: 'Visitor', author_email: 'v@example.org', author_url: 'javascript:alert(1)' });
    assert.equal(accepted.status, 201);
    assert.equal(accepted.json.author, 0);
    assert.equal(accepted.json.author_name, 'Visitor');
    assert.equal(accepted.json.author_url, '');
    assert.equal(accepted.json.status, 'hold');
    assert.equal(accepted.json._links.author, undefined);

    const relaxed = await makeCommentSite(store, { comments: { allowAnonymous: true, requireNameEmail: false } });
    const relaxedPost = await relaxed.create({ title: 'Post', status: 'publish' });
    assert.equal((await relaxed.anonymous('POST', '/cms/v2/comments', { json: { post: relaxedPost.id, content: 'Hi' } })).status, 201);

    const registered = await makeCommentSite(store, { comments: { allowAnonymous: true, registrationRequired: true } });
    const registeredPost = await registered.create({ title: 'Post', status: 'publish' });
    const login = await registered.anonymous('POST', '/cms/v2/comments', { json: { post: registeredPost.id, content: 'Hi', author_name: 'V', author_email: 'v@example.org' } });
    assert.equal(login.status, 401);
    assert.equal(login.json.code, 'rest_comment_login_required');
  });
});
