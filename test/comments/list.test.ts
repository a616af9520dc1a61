import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ids, makeCommentSite, onEachStore, type CommentSite } from './helpers.js';

/** Two published posts with comments at known times, and comments that anonymous callers may not read. */
async function seed(site: CommentSite) {
  const first = await site.create({ title: 'First', status: 'publish' });
  const second = await site.create({ title: 'Second', status: 'publish' });
  const draft = await site.create({ title: 'Draft', status: 'draft' });
  const api = site.cms.comments;
  const at = (day: number) => new Date(`2025-03-${String(day).padStart(2, '0')}T10:00:00Z`);
  const a = await api.create({ post: first.id, content: 'Apples and pears', authorName: 'Ann', authorEmail: 'ann@example.org', date: at(1) });
  const b = await api.create({ post: first.id, content: 'Bananas', authorName: 'Bob', authorEmail: 'bob@example.org', date: at(2), parent: a.id });
  const c = await api.create({ post: second.id, content: 'Cherries', author: site.ids.author, authorName: 'author', authorEmail: 'author@example.test', date: at(3) });
  const held = await api.create({ post: first.id, content: 'Held back apples', authorName: 'Hal', authorEmail: 'hal@example.org', date: at(4), status: 'hold' });
  const spam = await api.create({ post: first.id, content: 'Buy apples', authorName: 'Spammer', authorEmail: 'spam@example.org', date: at(5), status: 'spam' });
  const onDraft = await api.create({ post: draft.id, content: 'Apples on a draft', authorName: 'Dan', authorEmail: 'dan@example.org', date: at(6) });
  const ping = await api.create({ post: second.id, content: 'Linked from elsewhere', authorName: 'Blog', date: at(7), type: 'pingback' });
  return { first, second, draft, a, b, c, held, spam, onDraft, ping };
}

onEachStore('comments: list', (store) => {
  it('lists approved comments of readable posts, newest first, counting only those', async () => {
    const site = await makeCommentSite(store);
    const { a, b, c } = await seed(site);
    const response = await site.anonymous('GET', '/cms/v2/comments');
    assert.equal(response.status, 200);
    assert.deepEqual(ids(response.json), [c.id, b.id, a.id]);
    assert.equal(response.headers['X-WP-Total'], '3');
    assert.equal(response.headers['X-WP-TotalPages'], '1');
    // The search matches the held, spam and draft comments too, but they are neither shown nor counted.
    const searched = await site.anonymous('GET', '/cms/v2/comments?search=apples');
    assert.deepEqual(ids(searched.json), [a.id]);
    assert.equal(searched.headers['X-WP-Total'], '1');
  });

  it('pages with per_page, page and offset, with paging headers and links', async () => {
    const site = await makeCommentSite(store);
    const { a, b, c } = await seed(site);
    const page2 = await site.anonymous('GET', '/cms/v2/comments?per_page=2&page=2');
    assert.deepEqual(ids(page2.json), [a.id]);
    assert.equal(page2.headers['X-WP-Total'], '3');
    assert.equal(page2.headers['X-WP-TotalPages'], '2');
    assert.match(page2.headers.Link!, /rel="prev"/);
    const offset = await site.anonymous('GET', '/cms/v2/comments?per_page=1&offset=1');
    assert.deepEqual(ids(offset.json), [b.id]);
    const beyond = await site.anonymous('GET', '/cms/v2/comments?page=5');
    assert.deepEqual(beyond.json, []);
    assert.equal(beyond.headers['X-WP-Total'], '3');
    const bad = await site.anonymous('GET', '/cms/v2/comments?per_page=101');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'rest_invalid_param');
    assert.ok(c.id);
  });

  it('filters by post, parent, include, exclude, author, dates, and orders by every key', async () => {
    const site = await makeCommentSite(store);
    const { first, second, a, b, c, onDraft } = await seed(site);
    const get = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/comments?${query}`)).json);
    assert.deepEqual(await get(`post=${first.id}`), [b.id, a.id]);
    assert.deepEqual(await get(`post[]=${first.id}&post[]=${second.id}&order=asc`), [a.id, b.id, c.id]);
    assert.deepEqual(await get(`parent=${a.id}`), [b.id]);
    assert.deepEqual(await get('parent=0&order=asc'), [a.id, c.id]);
    assert.deepEqual(await get(`parent_exclude=${a.id}&order=asc`), [a.id, c.id]);
    assert.deepEqual(await get(`include=${c.id},${a.id}&orderby=include`), [c.id, a.id]);
    assert.deepEqual(await get(`exclude=${b.id}`), [c.id, a.id]);
    assert.deepEqual(await get('after=2025-03-01T12:00:00&before=2025-03-03T00:00:00'), [b.id]);
    assert.deepEqual(await get('orderby=id&order=asc'), [a.id, b.id, c.id]);
    // Ties are broken by id in the same direction.
    assert.deepEqual(await get('orderby=post&order=desc'), [c.id, b.id, a.id]);
    assert.deepEqual(await get('orderby=post&order=asc'), [a.id, b.id, c.id]);
    assert.deepEqual(await get('orderby=parent&order=desc'), [b.id, c.id, a.id]);
    assert.deepEqual(await get('orderby=date&order=asc'), [a.id, b.id, c.id]);
    assert.deepEqual(await get('orderby=type'), [c.id, b.id, a.id]);
    const admin = async (query: string) => ids((await site.admin('GET', `/cms/v2/comments?${query}`)).json);
    assert.deepEqual(await admin(`author=${site.ids.author}`), [c.id]);
    // The administrator also reads the comment on the draft.
    assert.deepEqual(await admin(`author_exclude=${site.ids.author}&order=asc`), [a.id, b.id, onDraft.id]);
    assert.deepEqual(await admin('author_email=BOB@example.org'), [b.id]);
  });

  it('searches and filters by author_email and author_ip only for callers who may read them', async () => {
    const site = await makeCommentSite(store);
    const { first, a, b, c } = await seed(site);
    const withAddress = await site.comment({ post: first.id, content: 'Plums', author_name: 'Pat', author_email: 'pat@example.net', author_ip: '203.0.113.7', status: 'approved' });
    const search = (role: 'administrator' | 'editor' | 'contributor' | null, term: string) =>
      site.as(role)('GET', `/cms/v2/comments?search=${encodeURIComponent(term)}`);
    for (const role of [null, 'contributor'] as const) {
      for (const term of ['203.0.113', 'pat@example', 'bob@', 'example.org']) {
        const response = await search(role, term);
        assert.equal(response.status, 200);
        assert.deepEqual(response.json, [], `${role ?? 'anonymous'} searching ${term}`);
        assert.equal(response.headers['X-WP-Total'], '0');
      }
      // Public columns are still searched.
      assert.deepEqual(ids((await search(role, 'Pat')).json), [withAddress.id]);
    }
    // A contributor may send author_email, but it filters nothing it could not read.
    const contributor = await site.as('contributor')('GET', '/cms/v2/comments?author_email=bob@example.org&order=asc');
    assert.equal(contributor.status, 200);
    assert.deepEqual(ids(contributor.json), [a.id, b.id, c.id, withAddress.id]);
    for (const role of ['administrator', 'editor'] as const) {
      assert.deepEqual(ids((await search(role, '203.0.113')).json), [withAddress.id]);
      assert.deepEqual(ids((await search(role, 'bob@')).json), [b.id]);
      assert.deepEqual(ids((await site.as(role)('GET', '/cms/v2/comments?author_email=bob@example.org')).json), [b.id]);
    }
  });

  it('takes a password for a record of the posts collection that has none (a form)', async () => {
    const site = await makeCommentSite(store);
    const form = await site.admin('POST', '/forms/v1/contact-forms', { json: { title: 'Contact', form: '[text your-name]' } });
    assert.equal(form.status, 200);
    for (const role of [null, 'subscriber'] as const) {
      const response = await site.as(role)('GET', `/cms/v2/comments?post=${form.json.id}&password=secret`);
      assert.equal(response.status, 200);
      assert.deepEqual(response.json, []);
    }
  });

  it('lets editors filter by status and type; everyone else only sees approved comments', async () => {
    const site = await makeCommentSite(store);
    const seeded = await seed(site);
    const admin = async (query: string) => ids((await site.admin('GET', `/cms/v2/comments?${query}`)).json);
    assert.deepEqual(await admin('status=hold'), [seeded.held.id]);
    assert.deepEqual(await admin('status=spam'), [seeded.spam.id]);
    assert.deepEqual(await admin('status=all'), [seeded.onDraft.id, seeded.held.id, seeded.c.id, seeded.b.id, seeded.a.id]);
    assert.deepEqual(await admin('status=any&type=all'), [seeded.ping.id, seeded.onDraft.id, seeded.spam.id, seeded.held.id, seeded.c.id, seeded.b.id, seeded.a.id]);
    assert.deepEqual(await admin('type=pingback'), [seeded.ping.id]);
    assert.deepEqual(await admin('type=pings'), [seeded.ping.id]);
    const all = await site.admin('GET', '/cms/v2/comments?status=all');
    assert.equal(all.headers['X-WP-Total'], '5');

    for (const role of [null, 'subscriber'] as const) {
      const refused = await site.as(role)('GET', '/cms/v2/comments?status=hold&type=pingback&author=1&author_email=a@b.example');
      assert.equal(refused.status, role === null ? 401 : 403);
      assert.equal(refused.json.code, 'rest_forbidden_param');
      assert.equal(refused.json.message, 'Query parameter not permitted: author, author_email, type, status');
    }
    // A contributor (edit_posts) may ask, but still reads only what it may read.
    const contributor = await site.as('contributor')('GET', '/cms/v2/comments?status=hold');
    assert.equal(contributor.status, 200);
    assert.deepEqual(contributor.json, []);
    assert.equal(contributor.headers['X-WP-Total'], '0');
  });

  it('refuses the edit context without moderate_comments, and posts the caller may not read', async () => {
    const site = await makeCommentSite(store);
    const { draft } = await seed(site);
    const edit = await site.as('author')('GET', '/cms/v2/comments?context=edit');
    assert.equal(edit.status, 403);
    assert.equal(edit.json.code, 'rest_forbidden_context');
    assert.equal((await site.as('editor')('GET', '/cms/v2/comments?context=edit')).status, 200);
    const draftPost = await site.anonymous('GET', `/cms/v2/comments?post=${draft.id}`);
    assert.equal(draftPost.status, 401);
    assert.equal(draftPost.json.code, 'rest_cannot_read_post');
    const noPost = await site.as('author')('GET', '/cms/v2/comments?post=0');
    assert.equal(noPost.status, 403);
    assert.equal(noPost.json.code, 'rest_cannot_read');
    assert.equal((await site.admin('GET', '/cms/v2/comments?post=0')).status, 200);
  });

  it('shows a logged-in user their own held comments and, to post authors, the comments of their drafts', async () => {
    const site = await makeCommentSite(store);
    const draft = await site.create({ title: 'My draft', status: 'draft' }, { role: 'author' });
    const published = await site.create({ title: 'Public', status: 'publish' });
    const own = await site.comment({ post: published.id, content: 'Mine, held' }, 'subscriber');
    assert.equal(own.status, 'hold');
    const onDraft = await site.cms.comments.create({ post: draft.id, content: 'Note on a draft', status: 'hold' });
    const subscriber = await site.as('subscriber')('GET', '/cms/v2/comments?status=all');
    assert.equal(subscriber.status, 403);
    const mine = await site.as('subscriber')('GET', '/cms/v2/comments');
    assert.deepEqual(ids(mine.json), []);
    const author = await site.as('author')('GET', '/cms/v2/comments?status=all');
    assert.deepEqual(ids(author.json), [onDraft.id]);
    assert.equal(author.headers['X-WP-Total'], '1');
    const single = await site.as('subscriber')('GET', `/cms/v2/comments/${own.id}`);
    assert.equal(single.status, 200);
    const other = await site.as('contributor')('GET', `/cms/v2/comments/${own.id}`);
    assert.equal(other.status, 403);
    assert.equal(other.json.code, 'rest_cannot_read');
  });

  it('needs the password to list or read comments of a protected post', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'Secret', status: 'publish', password: 'open sesame' });
    const comment = await site.cms.comments.create({ post: post.id, content: 'Behind the password' });
    const anonymous = await site.anonymous('GET', `/cms/v2/comments?post=${post.id}`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.code, 'rest_cannot_read_post');
    const wrong = await site.anonymous('GET', `/cms/v2/comments?post=${post.id}&password=nope`);
    assert.equal(wrong.status, 401);
    const right = await site.anonymous('GET', `/cms/v2/comments?post=${post.id}&password=open%20sesame`);
    assert.equal(right.status, 200);
    assert.deepEqual(ids(right.json), [comment.id]);
    assert.equal(right.headers['X-WP-Total'], '1');
    // Site-wide lists leave them out, and do not count them.
    const all = await site.anonymous('GET', '/cms/v2/comments?password=open%20sesame');
    assert.deepEqual(all.json, []);
    assert.equal(all.headers['X-WP-Total'], '0');
    assert.equal((await site.anonymous('GET', `/cms/v2/comments/${comment.id}`)).status, 401);
    assert.equal((await site.anonymous('GET', `/cms/v2/comments/${comment.id}?password=open%20sesame`)).status, 200);
    assert.equal((await site.as('editor')('GET', `/cms/v2/comments/${comment.id}`)).status, 200);
  });
});
