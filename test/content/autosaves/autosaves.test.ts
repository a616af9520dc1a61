import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidPreviewToken } from '../../../src/content/autosaves/index.js';
import { API, ids, makeSite } from '../revisions/helpers.js';

describe('autosaves: the author\'s own draft', () => {
  it('updates the draft itself, without a revision, and answers with it in revision shape', async () => {
    const site = await makeSite();
    const draft = await site.create({ title: 'AS draft', content: 'first' }, { by: 'author' });
    site.clock.advance(60_000);
    const response = await site.as('author')('POST', `/cms/v2/posts/${draft.id}/autosaves`, {
      json: { content: 'changed by autosave', sticky: true, categories: [], meta: { footnotes: 'x' } },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.json, {
      author: site.ids.author,
      date: null,
      date_gmt: null,
      id: draft.id,
      modified: '2026-11-21T17:12:35',
      modified_gmt: '2026-11-21T17:12:35',
      parent: 0,
      slug: '',
      guid: { rendered: `http://example.test/?p=${draft.id}`, raw: `http://example.test/?p=${draft.id}` },
      title: { raw: 'AS draft', rendered: 'AS draft' },
      content: { raw: 'changed by autosave', rendered: '<p>changed by autosave</p>\n' },
      excerpt: { raw: '', rendered: '' },
      preview_link: `http://example.test/?p=${draft.id}&preview=true`,
    });
    assert.equal((await site.storedRevisions(draft.id)).length, 0);
    const read = await site.as('author')('GET', `/cms/v2/posts/${draft.id}?context=edit`);
    assert.equal(read.json.content.raw, 'changed by autosave');
    // Only the post's own fields change: sticky, terms and meta are left as they were.
    assert.equal(read.json.sticky, false);
    assert.deepEqual(read.json.categories, draft.categories);
    assert.equal(read.json.meta.footnotes, '');
  });

  it('applies every post field sent, status included, with the user\'s rights', async () => {
    const site = await makeSite();
    const draft = await site.create({ title: 'Contributor draft', content: 'x' }, { by: 'contributor' });
    const publish = await site.as('contributor')('POST', `/cms/v2/posts/${draft.id}/autosaves`, { json: { status: 'publish' } });
    assert.equal(publish.status, 403);
    assert.equal(publish.json.code, 'rest_cannot_publish');
    const pending = await site.as('contributor')('POST', `/cms/v2/posts/${draft.id}/autosaves`, { json: { status: 'pending', title: 'Ready' } });
    assert.equal(pending.status, 200);
    const stored = await site.cms.deps.storage.get('posts', draft.id);
    assert.equal(stored?.status, 'pending');
    assert.equal(stored?.title, 'Ready');
  });

  it('gives a page\'s own draft its parent link and page preview address', async () => {
    const site = await makeSite();
    const parent = await site.create({ title: 'Parent', status: 'publish' }, { base: 'pages' });
    const draft = await site.create({ title: 'Child', parent: parent.id }, { base: 'pages' });
    const response = await site.admin('POST', `/cms/v2/pages/${draft.id}/autosaves`, { json: { title: 'Child, autosaved' } });
    assert.equal(response.status, 200);
    assert.equal(response.json.parent, parent.id);
    assert.equal(response.json.preview_link, `http://example.test/?page_id=${draft.id}&preview=true`);
    assert.deepEqual(response.json._links, { parent: [{ href: `${API}/cms/v2/pages/${parent.id}` }] });
  });
});

describe('autosaves: autosave revisions', () => {
  it('stores one per user for published posts, holding only the sent text', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Published', content: 'Live text', excerpt: 'Live excerpt', status: 'publish' });
    site.clock.advance(120_000);
    const response = await site.admin('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { content: 'Work in progress' } });
    assert.equal(response.status, 200);
    const [autosave, ...others] = await site.storedRevisions(post.id);
    assert.equal(others.length, 0);
    assert.equal(response.json.id, autosave!.id);
    assert.equal(response.json.slug, `${post.id}-autosave-v1`);
    assert.equal(response.json.parent, post.id);
    assert.equal(response.json.author, site.ids.administrator);
    assert.equal(response.json.date, '2026-11-21T17:13:35');
    assert.deepEqual(response.json.title, { raw: '', rendered: '' });
    assert.deepEqual(response.json.excerpt, { raw: '', rendered: '' });
    assert.equal(response.json.content.raw, 'Work in progress');
    assert.deepEqual(response.json._links, { parent: [{ href: `${API}/cms/v2/posts/${post.id}` }] });
    const preview = new URL(response.json.preview_link);
    assert.equal(`${preview.origin}${preview.pathname}`, 'http://example.test/2026/11/21/published/');
    assert.deepEqual([...preview.searchParams.keys()], ['preview_id', 'preview_nonce', 'preview']);
    assert.equal(preview.searchParams.get('preview_id'), String(post.id));
    assert.equal(preview.searchParams.get('preview'), 'true');
    const token = preview.searchParams.get('preview_nonce')!;
    assert.match(token, /^[0-9a-f]{10}$/);
    const now = site.cms.deps.clock.now();
    assert.equal(isValidPreviewToken(site.cms.deps.previewKey(), token, site.ids.administrator, post.id, now), true);
    assert.equal(isValidPreviewToken(site.cms.deps.previewKey(), token, site.ids.editor, post.id, now), false);
    assert.equal(isValidPreviewToken(site.cms.deps.previewKey(), token, site.ids.administrator, post.id, new Date(now.getTime() + 3 * 86_400_000)), false);

    // The post itself is untouched.
    const live = await site.admin('GET', `/cms/v2/posts/${post.id}?context=edit`);
    assert.equal(live.json.content.raw, 'Live text');
  });

  it('overwrites the same user\'s autosave, keeping earlier values of fields not sent', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Published', content: 'Live text', status: 'publish' });
    const first = await site.admin('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { title: 'Draft title', content: 'Draft one' } });
    site.clock.advance(30_000);
    const second = await site.admin('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { content: 'Draft two' } });
    assert.equal(second.status, 200);
    assert.equal(second.json.id, first.json.id);
    assert.equal(second.json.title.raw, 'Draft title');
    assert.equal(second.json.content.raw, 'Draft two');
    assert.equal(second.json.date, '2026-11-21T17:12:05');
    assert.equal((await site.storedRevisions(post.id)).length, 1);
  });

  it('removes the autosave and refuses when the sent text equals the post', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Published', content: 'Live text', status: 'publish' });
    const first = await site.admin('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { content: 'Something else' } });
    assert.equal(first.status, 200);
    const same = await site.admin('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { title: 'Published', content: ' Live   text ' } });
    assert.equal(same.status, 400);
    assert.deepEqual(same.json, {
      code: 'rest_autosave_no_changes',
      message: 'There is nothing to save. The autosave and the post content are the same.',
      data: { status: 400 },
    });
    assert.equal((await site.storedRevisions(post.id)).length, 0);
    // With no autosave left, the next one is created afresh, even if it matches the post.
    const fresh = await site.admin('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { content: 'Live text' } });
    assert.equal(fresh.status, 200);
    assert.notEqual(fresh.json.id, first.json.id);
  });

  it('keeps separate autosaves per user, also for someone else\'s draft, and lists them all', async () => {
    const site = await makeSite();
    const draft = await site.create({ title: 'Author draft', content: 'x' }, { by: 'author' });
    const byEditor = await site.as('editor')('POST', `/cms/v2/posts/${draft.id}/autosaves`, { json: { content: 'Editor notes' } });
    assert.equal(byEditor.json.slug, `${draft.id}-autosave-v1`);
    assert.equal(byEditor.json.author, site.ids.editor);
    site.clock.advance(60_000);
    const byAdmin = await site.admin('POST', `/cms/v2/posts/${draft.id}/autosaves`, { json: { content: 'Admin notes' } });
    assert.notEqual(byAdmin.json.id, byEditor.json.id);
    const stored = await site.cms.deps.storage.get('posts', draft.id);
    assert.equal(stored?.content, 'x');

    const list = await site.as('author')('GET', `/cms/v2/posts/${draft.id}/autosaves`);
    assert.equal(list.status, 200);
    assert.deepEqual(ids(list.json), [byAdmin.json.id, byEditor.json.id]);
    assert.equal(list.headers['X-WP-Total'], undefined);
    assert.equal(list.json[0].preview_link, undefined);
    assert.equal(list.json[0].content.raw, undefined);
    const editList = await site.as('author')('GET', `/cms/v2/posts/${draft.id}/autosaves?context=edit`);
    assert.match(editList.json[1].preview_link, new RegExp(`^http://example\\.test/\\?p=${draft.id}&preview_id=${draft.id}&preview_nonce=[0-9a-f]{10}&preview=true$`));

    // The single route answers with the newest autosave of anyone, whatever id the address names.
    for (const id of [byEditor.json.id, 999_999]) {
      const single = await site.as('author')('GET', `/cms/v2/posts/${draft.id}/autosaves/${id}`);
      assert.equal(single.status, 200);
      assert.equal(single.json.id, byAdmin.json.id);
    }
  });

  it('filters the text of users without unfiltered_html', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Author post', content: 'x', status: 'publish' }, { by: 'author' });
    const response = await site.as('author')('POST', `/cms/v2/posts/${post.id}/autosaves`, {
      json: { title: '  <b>Bold</b> <script>x</script> ', content: '<script>alert(1)</script><p onclick="x">hi</p>' },
    });
    assert.equal(response.json.title.raw, '<b>Bold</b> x');
    assert.equal(response.json.content.raw, 'alert(1)<p>hi</p>');
  });

  it('counts in the parent\'s version history and can be its predecessor version', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Published', status: 'publish' });
    await site.update(post.id, { title: 'Published, edited' });
    site.clock.advance(60_000);
    const autosave = await site.as('editor')('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { title: 'Next edit' } });
    const read = await site.admin('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(read.json._links['version-history'][0].count, 2);
    assert.equal(read.json._links['predecessor-version'][0].id, autosave.json.id);
  });

  it('answers 404 rest_post_no_autosave when there is none', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Published', status: 'publish' });
    const response = await site.admin('GET', `/cms/v2/posts/${post.id}/autosaves/1`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.json, { code: 'rest_post_no_autosave', message: 'There is no autosave revision for this post.', data: { status: 404 } });
    const list = await site.admin('GET', `/cms/v2/posts/${post.id}/autosaves`);
    assert.deepEqual(list.json, []);
  });
});
