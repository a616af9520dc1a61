import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ids, makeSite, ROLES, type Role, type Site } from './helpers.js';

type Status = 'publish' | 'draft' | 'pending' | 'private' | 'future' | 'trash' | 'protected';

/** One post per status, all by the `author` user. */
async function seed(site: Site): Promise<Record<Status, number>> {
  const by = site.ids.author;
  const make = async (fields: Record<string, unknown>) => (await site.create({ author: by, content: 'Secret body', ...fields })).id;
  const posts = {
    publish: await make({ title: 'Published', status: 'publish' }),
    draft: await make({ title: 'Drafted', status: 'draft' }),
    pending: await make({ title: 'Pending', status: 'pending' }),
    private: await make({ title: 'Private', status: 'private' }),
    future: await make({ title: 'Future', status: 'future', date: '2030-01-01T00:00:00' }),
    trash: await make({ title: 'Trashed', status: 'publish' }),
    protected: await make({ title: 'Protected', status: 'publish', password: 'open sesame' }),
  };
  await site.admin('DELETE', `/cms/v2/posts/${posts.trash}`);
  return posts;
}

/** Expected single-read status per viewer (null = anonymous) for posts owned by `author`. */
const READABLE: Record<Status, readonly (Role | null)[]> = {
  publish: [null, ...ROLES],
  protected: [null, ...ROLES],
  draft: ['author', 'editor', 'administrator'],
  pending: ['author', 'editor', 'administrator'],
  private: ['author', 'editor', 'administrator'],
  future: ['author', 'editor', 'administrator'],
  trash: ['author', 'editor', 'administrator'],
};

describe('posts: who sees what', () => {
  it('answers single reads per status and role with the reference statuses', async () => {
    const site = await makeSite();
    const posts = await seed(site);
    for (const viewer of [null, ...ROLES] as (Role | null)[]) {
      for (const [status, id] of Object.entries(posts) as [Status, number][]) {
        const response = await site.as(viewer)('GET', `/cms/v2/posts/${id}`);
        const allowed = READABLE[status].includes(viewer);
        const expected = allowed ? 200 : viewer === null ? 401 : 403;
        assert.equal(response.status, expected, `${viewer ?? 'anonymous'} reading ${status}`);
        if (!allowed) assert.equal(response.json.code, 'rest_forbidden');
      }
    }
  });

  it('lets a contributor read and edit their own draft but not publish it', async () => {
    const site = await makeSite();
    const contributor = site.as('contributor');
    const draft = await site.create({ title: 'Mine' }, { role: 'contributor' });
    assert.equal((await contributor('GET', `/cms/v2/posts/${draft.id}?context=edit`)).status, 200);
    const other = await site.as('author')('GET', `/cms/v2/posts/${draft.id}`);
    assert.equal(other.status, 403);
    const edit = await site.as('author')('POST', `/cms/v2/posts/${draft.id}`, { json: { title: 'x' } });
    assert.equal(edit.status, 403);
    assert.equal(edit.json.code, 'rest_cannot_edit');
    assert.equal(edit.json.message, 'Sorry, you are not allowed to edit this post.');
    const remove = await site.as('author')('DELETE', `/cms/v2/posts/${draft.id}`);
    assert.equal(remove.json.code, 'rest_cannot_delete');
    assert.equal(remove.json.message, 'Sorry, you are not allowed to delete this post.');
    const anonymousRemove = await site.anonymous('DELETE', `/cms/v2/posts/${draft.id}`);
    assert.equal(anonymousRemove.status, 401);
  });

  it('refuses the edit context to those who cannot edit', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'x', status: 'publish' });
    const single = await site.as('author')('GET', `/cms/v2/posts/${post.id}?context=edit`);
    assert.equal(single.status, 403);
    assert.equal(single.json.code, 'rest_forbidden_context');
    assert.equal(single.json.message, 'Sorry, you are not allowed to edit this post.');
    const list = await site.as('subscriber')('GET', '/cms/v2/posts?context=edit');
    assert.equal(list.status, 403);
    assert.equal(list.json.code, 'rest_forbidden_context');
    assert.equal(list.json.message, 'Sorry, you are not allowed to edit posts in this post type.');
    const anonymousList = await site.anonymous('GET', '/cms/v2/posts?context=edit');
    assert.equal(anonymousList.status, 401);
  });

  it('puts forbidden list statuses inside a 400 rest_invalid_param', async () => {
    const site = await makeSite();
    const anonymous = await site.anonymous('GET', '/cms/v2/posts?status=draft');
    assert.equal(anonymous.status, 400);
    assert.equal(anonymous.json.code, 'rest_invalid_param');
    assert.deepEqual(anonymous.json.data.details.status, { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: 401 } });
    const subscriber = await site.as('subscriber')('GET', '/cms/v2/posts?status=private');
    assert.equal(subscriber.json.data.details.status.data.status, 403);
    const unknown = await site.admin('GET', '/cms/v2/posts?status=nonsense');
    assert.equal(unknown.json.data.details.status.code, 'rest_not_in_enum');
  });

  it('lists and counts only the rows the caller may see', async () => {
    const site = await makeSite();
    const posts = await seed(site);
    const everything = 'status=publish,draft,pending,private,future,trash&per_page=100&orderby=id&order=asc';

    const editor = await site.as('editor')('GET', `/cms/v2/posts?${everything}`);
    assert.equal(editor.headers['X-WP-Total'], '7');
    assert.deepEqual(ids(editor.json), Object.values(posts).sort((a, b) => a - b));

    const contributor = await site.as('contributor')('GET', `/cms/v2/posts?${everything}`);
    assert.equal(contributor.headers['X-WP-Total'], '2');
    assert.equal(contributor.headers['X-WP-TotalPages'], '1');
    assert.deepEqual(ids(contributor.json), [posts.publish, posts.protected]);

    const owner = await site.as('author')('GET', `/cms/v2/posts?${everything}`);
    assert.equal(owner.headers['X-WP-Total'], '7');
    assert.deepEqual(ids(owner.json), Object.values(posts).sort((a, b) => a - b));

    const editContext = await site.as('contributor')('GET', '/cms/v2/posts?context=edit');
    assert.equal(editContext.headers['X-WP-Total'], '0');
    assert.deepEqual(editContext.json, []);

    const any = await site.as('editor')('GET', '/cms/v2/posts?status=any&per_page=100');
    assert.equal(any.headers['X-WP-Total'], '6');
    assert.equal(ids(any.json).includes(posts.trash), false);
    const anyAndTrash = await site.as('editor')('GET', '/cms/v2/posts?status=any,trash&per_page=100');
    assert.equal(anyAndTrash.headers['X-WP-Total'], '7');

    const privateReader = await site.as('editor')('GET', '/cms/v2/posts?status=private');
    assert.deepEqual(ids(privateReader.json), [posts.private]);

    const anonymous = await site.anonymous('GET', '/cms/v2/posts');
    assert.deepEqual(ids(anonymous.json).sort(), [posts.publish, posts.protected].sort());
    assert.equal(anonymous.headers['X-WP-Total'], '2');
  });

  it('pages through readable rows only, so pages stay full and totals agree with them', async () => {
    const site = await makeSite();
    const contributor = site.as('contributor');
    const mine: number[] = [];
    for (let index = 0; index < 3; index++) {
      await site.create({ title: `Other draft ${index}`, status: 'draft' });
      mine.push((await site.create({ title: `My draft ${index}` }, { role: 'contributor' })).id);
      await site.create({ title: `Other private ${index}`, status: 'private' });
    }
    const published = (await site.create({ title: 'Out', status: 'publish' })).id;
    const first = await contributor('GET', '/cms/v2/posts?status=draft,private,publish&per_page=2&orderby=id&order=asc');
    assert.equal(first.headers['X-WP-Total'], '4');
    assert.equal(first.headers['X-WP-TotalPages'], '2');
    assert.deepEqual(ids(first.json), mine.slice(0, 2));
    const second = await contributor('GET', '/cms/v2/posts?status=draft,private,publish&per_page=2&page=2&orderby=id&order=asc');
    assert.deepEqual(ids(second.json), [mine[2], published]);
    const edit = await contributor('GET', '/cms/v2/posts?status=draft,private,publish&context=edit&per_page=100');
    assert.equal(edit.headers['X-WP-Total'], '3');
    assert.deepEqual(ids(edit.json).sort(), [...mine].sort());
  });

  it('finds nothing, and counts nothing, by hidden text', async () => {
    const site = await makeSite();
    await site.create({ title: 'Plans', content: 'The merger with Initech', status: 'private' });
    const mine = await site.create({ title: 'My notes', content: 'Initech rumours', status: 'private' }, { role: 'author' });
    const locked = await site.create({ title: 'Locked plans', content: 'Initech figures', excerpt: 'Initech', status: 'publish', password: 'pw' });
    const open = await site.create({ title: 'Open plans', content: 'Nothing here', status: 'publish' });

    const contributor = await site.as('contributor')('GET', '/cms/v2/posts?status=private&search=initech');
    assert.deepEqual([contributor.json, contributor.headers['X-WP-Total']], [[], '0']);
    const author = await site.as('author')('GET', '/cms/v2/posts?status=private,publish&search=initech');
    assert.deepEqual(ids(author.json), [mine.id]);
    assert.equal(author.headers['X-WP-Total'], '1');

    // Protected text is searched only for those who may read it (in the edit context); the title is public.
    for (const role of ['subscriber', 'contributor', 'author'] as const) {
      const found = await site.as(role)('GET', '/cms/v2/posts?search=initech&search_columns=post_content,post_excerpt');
      assert.deepEqual([found.json, found.headers['X-WP-Total']], [[], '0'], role);
      const byTitle = await site.as(role)('GET', '/cms/v2/posts?search=plans');
      assert.deepEqual(ids(byTitle.json), [locked.id, open.id].sort((a, b) => a - b).reverse(), role);
      const excluded = await site.as(role)('GET', '/cms/v2/posts?search=plans -initech');
      assert.equal(excluded.headers['X-WP-Total'], '2', `${role}: leaving out hidden text changes nothing`);
      const relevance = await site.as(role)('GET', '/cms/v2/posts?search=plans figures&orderby=relevance');
      assert.deepEqual([relevance.json, relevance.headers['X-WP-Total']], [[], '0'], role);
    }
    const editor = await site.as('editor')('GET', '/cms/v2/posts?search=initech&search_columns=post_content');
    assert.deepEqual(ids(editor.json), [locked.id]);
    const editorExcluded = await site.as('editor')('GET', '/cms/v2/posts?search=plans -initech');
    assert.deepEqual(ids(editorExcluded.json), [open.id]);
  });

  it('lists own trash in the edit context by the status it had before', async () => {
    const site = await makeSite();
    const contributor = site.as('contributor');
    const fromDraft = await site.create({ title: 'Was a draft' }, { role: 'contributor' });
    const fromPublished = await site.create({ title: 'Was published' }, { role: 'contributor' });
    await site.admin('POST', `/cms/v2/posts/${fromPublished.id}`, { json: { status: 'publish' } });
    await site.admin('DELETE', `/cms/v2/posts/${fromDraft.id}`);
    await site.admin('DELETE', `/cms/v2/posts/${fromPublished.id}`);
    const edit = await contributor('GET', '/cms/v2/posts?status=trash&context=edit');
    assert.deepEqual([ids(edit.json), edit.headers['X-WP-Total']], [[fromDraft.id], '1']);
    assert.equal((await contributor('GET', `/cms/v2/posts/${fromPublished.id}?context=edit`)).status, 403);
    const view = await contributor('GET', '/cms/v2/posts?status=trash');
    assert.deepEqual(ids(view.json).sort(), [fromDraft.id, fromPublished.id].sort());
  });

  it('hides password-protected content and excerpts without the password', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Locked', content: 'Hidden words', excerpt: 'Hidden excerpt', status: 'publish', password: 'pw' });
    const view = await site.anonymous('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(view.json.title.rendered, 'Locked');
    assert.deepEqual(view.json.content, { rendered: '', protected: true });
    assert.deepEqual(view.json.excerpt, { rendered: '', protected: true });
    const embed = await site.anonymous('GET', `/cms/v2/posts/${post.id}?context=embed`);
    assert.deepEqual(embed.json.excerpt, { rendered: '', protected: true });

    const adminView = await site.admin('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(adminView.json.content.rendered, '');
    const adminEdit = await site.admin('GET', `/cms/v2/posts/${post.id}?context=edit`);
    assert.equal(adminEdit.json.content.rendered, '<p>Hidden words</p>\n');
    assert.equal(adminEdit.json.excerpt.rendered, '<p>Hidden excerpt</p>\n');

    const unlocked = await site.anonymous('GET', `/cms/v2/posts/${post.id}?password=pw`);
    assert.equal(unlocked.json.content.rendered, '<p>Hidden words</p>\n');
    assert.equal(unlocked.json.content.protected, true);

    const wrong = await site.anonymous('GET', `/cms/v2/posts/${post.id}?password=nope`);
    assert.equal(wrong.status, 403);
    assert.equal(wrong.json.code, 'rest_post_incorrect_password');
    assert.equal(wrong.json.message, 'Incorrect post password.');
    const open = await site.create({ title: 'Open', status: 'publish' });
    const needless = await site.anonymous('GET', `/cms/v2/posts/${open.id}?password=pw`);
    assert.equal(needless.status, 403);
    assert.equal(needless.json.code, 'rest_post_incorrect_password');

    const list = await site.anonymous('GET', '/cms/v2/posts');
    const listed = list.json.find((item: { id: number }) => item.id === post.id);
    assert.equal(listed.content.rendered, '');
    assert.equal(listed.excerpt.rendered, '');
    const adminList = await site.admin('GET', '/cms/v2/posts?context=edit');
    assert.equal(adminList.json.find((item: { id: number }) => item.id === post.id).content.rendered, '<p>Hidden words</p>\n');
  });

  it('keeps password-protected posts out of anonymous searches only', async () => {
    const site = await makeSite();
    const locked = await site.create({ title: 'Needle locked', status: 'publish', password: 'pw' });
    const open = await site.create({ title: 'Needle open', status: 'publish' });
    const anonymous = await site.anonymous('GET', '/cms/v2/posts?search=needle');
    assert.deepEqual(ids(anonymous.json), [open.id]);
    const subscriber = await site.as('subscriber')('GET', '/cms/v2/posts?search=needle');
    assert.deepEqual(ids(subscriber.json).sort(), [locked.id, open.id].sort());
  });

  it('embeds only what the viewer may read', async () => {
    const site = await makeSite();
    const parent = await site.create({ title: 'Hidden parent', status: 'draft' }, { base: 'pages' });
    const child = await site.create({ title: 'Child', status: 'publish', parent: parent.id }, { base: 'pages' });
    const anonymous = await site.anonymous('GET', `/cms/v2/pages/${child.id}?_embed=up`);
    assert.equal(anonymous.json._embedded.up[0].code, 'rest_forbidden');
    const admin = await site.admin('GET', `/cms/v2/pages/${child.id}?_embed=up`);
    assert.equal(admin.json._embedded.up[0].id, parent.id);
    assert.equal(admin.json._embedded.up[0].title.rendered, 'Hidden parent');
    assert.equal(admin.json._embedded.up[0].content, undefined);

    const locked = await site.create({ title: 'Locked', content: 'secret', status: 'publish', password: 'pw' }, { base: 'pages' });
    const lockedChild = await site.create({ title: 'Under locked', status: 'publish', parent: locked.id }, { base: 'pages' });
    const embedded = await site.anonymous('GET', `/cms/v2/pages/${lockedChild.id}?_embed`);
    assert.deepEqual(embedded.json._embedded.up[0].excerpt, { rendered: '', protected: true });
  });
});
