import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ROLES, ids, makeCommentSite, onEachStore, type Role } from './helpers.js';

onEachStore('comments and their posts', (store) => {
  it('embeds a post\'s replies when it has readable comments, and leaves them out otherwise', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Post', status: 'publish' });
    const empty = await site.anonymous('GET', `/cms/v2/posts/${post.id}?_embed`);
    assert.equal(empty.status, 200);
    assert.equal(empty.json._embedded.replies, undefined);
    assert.ok(empty.json._embedded.author);

    await site.cms.comments.create({ post: post.id, content: 'Held', status: 'hold' });
    const onlyHeld = await site.anonymous('GET', `/cms/v2/posts/${post.id}?_embed=replies`);
    assert.equal(onlyHeld.json._embedded, undefined);

    const approved = await site.cms.comments.create({ post: post.id, content: 'Hello *there*', authorName: 'Ann' });
    const embedded = await site.anonymous('GET', `/cms/v2/posts/${post.id}?_embed=replies`);
    const replies = embedded.json._embedded.replies;
    assert.equal(replies.length, 1);
    assert.deepEqual(ids(replies[0]), [approved.id]);
    // The embed context: no status, no post, no date_gmt.
    assert.deepEqual(Object.keys(replies[0][0]).filter((key) => key !== '_links'),
      ['id', 'parent', 'author', 'author_name', 'author_url', 'date', 'content', 'link', 'type', 'author_avatar_urls']);
    const list = await site.anonymous('GET', '/cms/v2/posts?_embed');
    assert.equal(list.json[0]._embedded.replies[0][0].id, approved.id);
  });

  it('embeds the post, the parent and the replies of a comment', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Post', status: 'publish' });
    const parent = await site.comment({ post: post.id, content: 'Parent' });
    const child = await site.comment({ post: post.id, content: 'Child', parent: parent.id });
    const withChildren = await site.anonymous('GET', `/cms/v2/comments/${parent.id}?_embed`);
    assert.deepEqual(Object.keys(withChildren.json._links), ['self', 'collection', 'author', 'up', 'children']);
    assert.equal(withChildren.json._links.children[0].href, `http://example.test/cms-json/cms/v2/comments?parent=${parent.id}`);
    assert.equal(withChildren.json._embedded.up[0].id, post.id);
    assert.deepEqual(ids(withChildren.json._embedded.children[0]), [child.id]);
    const reply = await site.anonymous('GET', `/cms/v2/comments/${child.id}?_embed=in-reply-to`);
    assert.equal(reply.json._embedded['in-reply-to'][0].id, parent.id);
  });

  it('follows its post into the trash and back, and out of the store', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Post', status: 'publish' });
    const approved = await site.cms.comments.create({ post: post.id, content: 'Approved' });
    const held = await site.cms.comments.create({ post: post.id, content: 'Held', status: 'hold' });
    await site.admin('DELETE', `/cms/v2/posts/${post.id}`);
    const trashed = await site.admin('GET', `/cms/v2/comments?post=${post.id}&status=post-trashed&context=edit`);
    assert.deepEqual(ids(trashed.json).sort(), [approved.id, held.id].sort());
    assert.equal((await site.anonymous('GET', `/cms/v2/comments/${approved.id}`)).status, 401);

    await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { status: 'publish' } });
    assert.equal((await site.cms.comments.get(approved.id))!.status, 'approved');
    assert.equal((await site.cms.comments.get(held.id))!.status, 'hold');
    assert.equal((await site.anonymous('GET', `/cms/v2/comments/${approved.id}`)).status, 200);

    await site.admin('DELETE', `/cms/v2/posts/${post.id}?force=true`);
    assert.equal(await site.cms.comments.get(approved.id), null);
    assert.equal(await site.cms.comments.get(held.id), null);
  });

  it('hides comments when their post stops being public, for lists and totals alike', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Post', status: 'publish' });
    await site.cms.comments.create({ post: post.id, content: 'One' });
    await site.cms.comments.create({ post: post.id, content: 'Two' });
    assert.equal((await site.anonymous('GET', '/cms/v2/comments')).headers['X-WP-Total'], '2');
    await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { status: 'private' } });
    const hidden = await site.anonymous('GET', '/cms/v2/comments');
    assert.deepEqual(hidden.json, []);
    assert.equal(hidden.headers['X-WP-Total'], '0');
    assert.equal((await site.as('editor')('GET', '/cms/v2/comments')).headers['X-WP-Total'], '2');
    await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { status: 'publish', password: 'pw' } });
    assert.equal((await site.anonymous('GET', '/cms/v2/comments')).headers['X-WP-Total'], '0');
  });

  it('agrees, for every role, between what a list returns and what a single read allows', async () => {
    const site = await makeCommentSite(store);
    const posts = [
      await site.create({ title: 'Public', status: 'publish' }),
      await site.create({ title: 'Author draft', status: 'draft' }, { role: 'author' }),
      await site.create({ title: 'Contributor pending', status: 'pending' }, { role: 'contributor' }),
      await site.create({ title: 'Private', status: 'private' }),
      await site.create({ title: 'Author private', status: 'private' }, { role: 'author' }),
      await site.create({ title: 'Protected', status: 'publish', password: 'pw' }),
      await site.create({ title: 'Future', status: 'future', date: '2030-01-01T00:00:00' }),
      await site.create({ title: 'Page', status: 'publish', comment_status: 'open' }, { base: 'pages' }),
    ];
    const statuses = ['approved', 'hold', 'spam', 'trash'] as const;
    const writers: (Role | null)[] = [null, 'subscriber', 'author'];
    for (const post of posts) {
      for (const status of statuses) {
        for (const writer of writers) {
          await site.cms.comments.create({ post: post.id, content: `${status} by ${writer}`, status, author: writer ? site.ids[writer] : 0 });
        }
      }
    }
    for (const role of [...ROLES, null]) {
      const listed = await site.as(role)('GET', '/cms/v2/comments?status=any&type=all&per_page=100');
      const readable: number[] = [];
      for (let id = 1; id <= posts.length * statuses.length * writers.length; id++) {
        if ((await site.as(role)('GET', `/cms/v2/comments/${id}`)).status === 200) readable.push(id);
      }
      if (listed.status === 200) {
        assert.deepEqual(ids(listed.json).sort((a, b) => a - b), readable, `role ${role}`);
        assert.equal(listed.headers['X-WP-Total'], String(readable.length));
      } else {
        const approvedOnly = await site.as(role)('GET', '/cms/v2/comments?per_page=100');
        const approvedIds = ids(approvedOnly.json).sort((a, b) => a - b);
        assert.deepEqual(approvedIds, readable.filter((id) => approvedIds.includes(id)), `role ${role}`);
        assert.equal(approvedOnly.headers['X-WP-Total'], String(approvedIds.length));
      }
    }
  });
});
