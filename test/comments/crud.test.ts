import assert from 'node:assert/strict';
import { it } from 'node:test';
import { makeCommentSite, onEachStore } from './helpers.js';

onEachStore('comments: create, read, update, delete', (store) => {
  it('creates a comment as a logged-in user, filling the author from the profile', async () => {
    const site = await makeCommentSite(store);
    await site.cms.users.update(site.ids.subscriber, { name: 'Sue Scriber', url: 'https://sue.example' });
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const response = await site.as('subscriber')('POST', '/cms/v2/comments', {
      json: { post: post.id, content: '  Nice post :) see https://example.org/x.  ' },
      headers: { 'user-agent': 'TestAgent/1.0' },
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.Location, `http://example.test/cms-json/cms/v2/comments/${response.json.id}`);
    const body = response.json;
    assert.equal(body.post, post.id);
    assert.equal(body.author, site.ids.subscriber);
    assert.equal(body.author_name, 'Sue Scriber');
    assert.equal(body.author_url, 'https://sue.example');
    // A subscriber sees the view context: no email, IP or agent.
    assert.equal(body.author_email, undefined);
    assert.equal(body.content.raw, undefined);
    assert.equal(body.content.rendered, '<p>Nice post 🙂 see <a href="https://example.org/x" rel="nofollow ugc">https://example.org/x</a>.</p>\n');
    assert.equal(body.date, '2026-11-21T17:11:35');
    assert.equal(body.date_gmt, '2026-11-21T17:11:35');
    assert.equal(body.link, `http://example.test/2026/11/21/hello/#comment-${body.id}`);
    assert.equal(body.type, 'comment');
    // A first comment from someone who is neither the post's author nor a moderator waits for moderation.
    assert.equal(body.status, 'hold');
    assert.deepEqual(body.meta, []);
    assert.match(body.author_avatar_urls['96'], /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=96&d=mm&r=g$/);
    assert.deepEqual(Object.keys(body._links), ['self', 'collection', 'author', 'up']);
    assert.deepEqual(body._links.up, [{ embeddable: true, post_type: 'post', href: `http://example.test/cms-json/cms/v2/posts/${post.id}` }]);

    const edit = await site.admin('GET', `/cms/v2/comments/${body.id}?context=edit`);
    assert.equal(edit.status, 200);
    assert.equal(edit.json.author_email, 'subscriber@example.test');
    assert.equal(edit.json.author_user_agent, 'TestAgent/1.0');
    assert.equal(edit.json.author_ip, '127.0.0.1');
    assert.equal(edit.json.content.raw, 'Nice post :) see https://example.org/x.');
  });

  it('answers moderators in the edit context and approves their comments at once', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const body = await site.comment({ post: post.id, content: 'From the admin' });
    assert.equal(body.status, 'approved');
    assert.equal(body.author_email, 'administrator@example.test');
    assert.equal(body.content.raw, 'From the admin');
  });

  it('approves the post author, and a known author the second time', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Mine', status: 'publish' }, { role: 'author' });
    assert.equal((await site.comment({ post: post.id, content: 'Author here' }, 'author')).status, 'approved');
    const first = await site.comment({ post: post.id, content: 'First' }, 'contributor');
    assert.equal(first.status, 'hold');
    await site.admin('POST', `/cms/v2/comments/${first.id}`, { json: { status: 'approved' } });
    assert.equal((await site.comment({ post: post.id, content: 'Second' }, 'contributor')).status, 'approved');
    // Two links or more wait for moderation even then.
    assert.equal((await site.comment({ post: post.id, content: 'http://a.example and http://b.example' }, 'contributor')).status, 'hold');
  });

  it('cleans markup by the writer\'s rights and marks foreign links', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Markup', status: 'publish' });
    const html = '<p class="x">Hi <strong>there</strong> <a href="https://other.example/">out</a> <a href="http://example.test/in">in</a><script>bad()</script></p>';
    const byEditor = await site.comment({ post: post.id, content: html }, 'editor');
    const edited = await site.admin('GET', `/cms/v2/comments/${byEditor.id}?context=edit`);
    assert.equal(edited.json.content.raw, '<p class="x">Hi <strong>there</strong> <a href="https://other.example/" rel="nofollow ugc">out</a> <a href="http://example.test/in">in</a>bad()</p>');
    const bySubscriber = await site.comment({ post: post.id, content: html }, 'subscriber');
    const plain = await site.admin('GET', `/cms/v2/comments/${bySubscriber.id}?context=edit`);
    assert.equal(plain.json.content.raw, 'Hi <strong>there</strong> <a href="https://other.example/" rel="nofollow ugc">out</a> <a href="http://example.test/in">in</a>bad()');
  });

  it('updates content, author fields and status; the answer is in the edit context', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const created = await site.comment({ post: post.id, content: 'Before' }, 'subscriber');
    const response = await site.as('editor')('PATCH', `/cms/v2/comments/${created.id}`, {
      json: { content: { raw: 'After' }, author_name: 'A <b>bold</b> & name', status: 'approve' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.json.content.raw, 'After');
    assert.equal(response.json.author_name, 'A bold &amp; name');
    assert.equal(response.json.status, 'approved');
    assert.equal(response.json.author_ip, '127.0.0.1');

    const empty = await site.admin('PUT', `/cms/v2/comments/${created.id}`, { json: { content: '' } });
    assert.equal(empty.status, 400);
    assert.equal(empty.json.code, 'rest_comment_content_invalid');
    const typeChange = await site.admin('POST', `/cms/v2/comments/${created.id}`, { json: { type: 'pingback' } });
    assert.equal(typeChange.status, 404);
    assert.equal(typeChange.json.code, 'rest_comment_invalid_type');
    // An unknown status is ignored, as the reference: 200, the status as it was, the other fields written.
    const statusBefore = (await site.admin('GET', `/cms/v2/comments/${created.id}?context=edit`)).json.status;
    const badStatus = await site.admin('POST', `/cms/v2/comments/${created.id}`, { json: { status: 'published' } });
    assert.equal(badStatus.status, 200);
    assert.equal(badStatus.json.status, statusBefore);
    const badStatusWithContent = await site.admin('POST', `/cms/v2/comments/${created.id}`, { json: { status: '__proto__', content: 'After' } });
    assert.equal(badStatusWithContent.status, 200);
    assert.equal(badStatusWithContent.json.status, statusBefore);
    const badEmail = await site.admin('POST', `/cms/v2/comments/${created.id}`, { json: { author_email: 'nope' } });
    assert.equal(badEmail.status, 400);
    assert.equal(badEmail.json.code, 'rest_invalid_param');
    assert.equal(badEmail.json.data.details.author_email.code, 'rest_invalid_email');
    const missingPost = await site.admin('POST', `/cms/v2/comments/${created.id}`, { json: { post: 9999 } });
    assert.equal(missingPost.status, 403);
    assert.equal(missingPost.json.code, 'rest_comment_invalid_post_id');
    const after = await site.admin('GET', `/cms/v2/comments/${created.id}?context=edit`);
    assert.equal(after.json.content.raw, 'After');
    assert.equal(after.json.author_email, 'subscriber@example.test');
  });

  it('moves between hold, approved, spam and trash and back', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const { id } = await site.comment({ post: post.id, content: 'Moderate me' }, 'subscriber');
    const setStatus = async (status: string) => (await site.admin('POST', `/cms/v2/comments/${id}`, { json: { status } })).json.status;
    assert.equal(await setStatus('approved'), 'approved');
    assert.equal(await setStatus('approved'), 'approved');
    assert.equal(await setStatus('spam'), 'spam');
    assert.equal(await setStatus('unspam'), 'approved');
    assert.equal(await setStatus('hold'), 'hold');
    assert.equal(await setStatus('trash'), 'trash');
    assert.equal(await setStatus('untrash'), 'hold');
    assert.equal(await setStatus('0'), 'hold');
    assert.equal(await setStatus('1'), 'approved');
  });

  it('trashes, refuses to trash twice, and deletes for good with the previous record', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const parent = await site.comment({ post: post.id, content: 'Parent' });
    const middle = await site.comment({ post: post.id, content: 'Middle', parent: parent.id });
    const child = await site.comment({ post: post.id, content: 'Child', parent: middle.id });

    const trashed = await site.admin('DELETE', `/cms/v2/comments/${middle.id}`);
    assert.equal(trashed.status, 200);
    assert.equal(trashed.json.status, 'trash');
    assert.equal(trashed.json.content.raw, 'Middle');
    const again = await site.admin('DELETE', `/cms/v2/comments/${middle.id}`);
    assert.equal(again.status, 410);
    assert.equal(again.json.code, 'rest_already_trashed');

    const deleted = await site.admin('DELETE', `/cms/v2/comments/${middle.id}?force=true`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.json.deleted, true);
    assert.equal(deleted.json.previous.id, middle.id);
    assert.equal(deleted.json.previous.content.raw, 'Middle');
    assert.equal(deleted.json.previous._links, undefined);
    const gone = await site.admin('GET', `/cms/v2/comments/${middle.id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.json.code, 'rest_comment_invalid_id');
    // The reply moves up to the deleted comment's parent.
    assert.equal((await site.admin('GET', `/cms/v2/comments/${child.id}`)).json.parent, parent.id);
  });

  it('answers 501 for a delete without force when the trash is off', async () => {
    const site = await makeCommentSite(store, { comments: { trash: false } });
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const { id } = await site.comment({ post: post.id, content: 'Hi' });
    const response = await site.admin('DELETE', `/cms/v2/comments/${id}`);
    assert.equal(response.status, 501);
    assert.equal(response.json.code, 'rest_trash_not_supported');
    assert.equal((await site.admin('GET', `/cms/v2/comments/${id}`)).status, 200);
  });

  it('refuses bad creates with the reference\'s codes and stores nothing', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const create = (json: Record<string, unknown>) => site.admin('POST', '/cms/v2/comments', { json });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ post: post.id, content: '' }, 400, 'rest_comment_content_invalid'],
      [{ post: post.id, content: '   ' }, 400, 'rest_comment_content_invalid'],
      [{ post: post.id }, 400, 'rest_comment_content_invalid'],
      [{ post: post.id, content: 'x', id: 5 }, 400, 'rest_comment_exists'],
      [{ post: post.id, content: 'x', type: 'pingback' }, 400, 'rest_invalid_comment_type'],
      [{ post: post.id, content: 'x', author: 999 }, 400, 'rest_comment_author_invalid'],
      [{ post: post.id, content: 'x', author_name: 'n'.repeat(246), author_email: 'a@b.example' }, 400, 'comment_author_column_length'],
      [{ post: post.id, content: 'x'.repeat(65526) }, 400, 'comment_content_column_length'],
      [{ post: post.id, content: 'x', parent: 424242 }, 400, 'rest_comment_invalid_parent'],
      [{ post: post.id, content: 'x', date: 'yesterday' }, 400, 'rest_invalid_param'],
      [{ content: 'x' }, 403, 'rest_comment_invalid_post_id'],
      [{ post: 9999, content: 'x' }, 403, 'rest_comment_invalid_post_id'],
    ];
    for (const [json, status, code] of cases) {
      const response = await create(json);
      assert.equal(response.status, status, `${JSON.stringify(json).slice(0, 80)} → ${JSON.stringify(response.json)}`);
      assert.equal(response.json.code, code);
    }
    assert.deepEqual(await site.cms.comments.ofPost(post.id), []);
    // An unknown status is no bad create: the reference ignores it and the comment takes its usual status.
    const unknownStatus = await create({ post: post.id, content: 'x', status: 'nonsense' });
    assert.equal(unknownStatus.status, 201);
    assert.equal(unknownStatus.json.status, 'approved');
  });

  it('refuses duplicates (409) and floods (400)', async () => {
    const site = await makeCommentSite(store, { comments: { floodSeconds: 15 } });
    const post = await site.create({ title: 'Hello', status: 'publish' });
    await site.comment({ post: post.id, content: 'Same words' }, 'subscriber');
    site.clock.advance(60_000);
    const duplicate = await site.as('subscriber')('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Same words' } });
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.json.code, 'comment_duplicate');
    const soon = await site.as('subscriber')('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Other words' } });
    assert.equal(soon.status, 201);
    site.clock.advance(5_000);
    const flood = await site.as('subscriber')('POST', '/cms/v2/comments', { json: { post: post.id, content: 'More words' } });
    assert.equal(flood.status, 400);
    assert.equal(flood.json.code, 'comment_flood');
    // Moderators are not throttled.
    await site.comment({ post: post.id, content: 'One' });
    await site.comment({ post: post.id, content: 'Two' });
    site.clock.advance(20_000);
    assert.equal((await site.as('subscriber')('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Later' } })).status, 201);
  });

  it('takes a date in the site\'s time or in GMT', async () => {
    const site = await makeCommentSite(store, { site: { timezone: 'Europe/Paris' } });
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const local = await site.comment({ post: post.id, content: 'Local', date: '2025-06-01T12:00:00' });
    assert.equal(local.date, '2025-06-01T12:00:00');
    assert.equal(local.date_gmt, '2025-06-01T10:00:00');
    const gmt = await site.comment({ post: post.id, content: 'GMT', date_gmt: '2025-01-01T12:00:00' });
    assert.equal(gmt.date, '2025-01-01T13:00:00');
  });
});
