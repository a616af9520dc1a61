import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from './helpers.js';

describe('revisions: when updates create them', () => {
  it('never on create; the first update always makes one, even when nothing it copies changed', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'First', content: 'Body', excerpt: 'Short', status: 'publish' });
    assert.equal((await site.storedRevisions(post.id)).length, 0);

    site.clock.advance(60_000);
    const updated = await site.update(post.id, { comment_status: 'closed' });
    const [revision, ...others] = await site.storedRevisions(post.id);
    assert.equal(others.length, 0);
    assert.ok(revision);
    assert.equal(revision.type, 'revision');
    assert.equal(revision.status, 'inherit');
    assert.equal(revision.parent, post.id);
    assert.equal(revision.slug, `${post.id}-revision-v1`);
    assert.equal(revision.title, 'First');
    assert.equal(revision.content, 'Body');
    assert.equal(revision.excerpt, 'Short');
    assert.equal(revision.author, site.ids.administrator);
    // The revision is dated at the update: the post's new modified time.
    assert.equal(revision.date, updated.modified);
    assert.equal(revision.date_gmt, updated.modified_gmt);
    assert.equal(revision.date, '2026-11-21T17:12:35');
    assert.equal(revision.guid, `http://example.test/?p=${revision.id}`);
  });

  it('later updates make one only when title, content or excerpt change (whitespace aside)', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Same', content: 'One two', status: 'publish' });
    await site.update(post.id, { title: 'Same' });
    assert.equal((await site.storedRevisions(post.id)).length, 1);

    await site.update(post.id, { status: 'draft', comment_status: 'closed', sticky: true });
    await site.update(post.id, { content: '  One   two\n' });
    assert.equal((await site.storedRevisions(post.id)).length, 1, 'status, sticky or spacing changes alone make no revision');

    await site.update(post.id, { title: 'Changed' });
    await site.update(post.id, { content: 'Other words' });
    await site.update(post.id, { excerpt: 'New excerpt' });
    const revisions = await site.storedRevisions(post.id);
    assert.deepEqual(revisions.map((revision) => revision.title), ['Same', 'Changed', 'Changed', 'Changed']);
    assert.deepEqual(revisions.map((revision) => revision.excerpt), ['', '', '', 'New excerpt']);
    // The newest revision always equals the post.
    const newest = revisions.at(-1)!;
    assert.equal(newest.content, 'Other words');
  });

  it('snapshots the stored text, after filtering, with the updating user as author', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Mine', content: 'Mine', status: 'publish' }, { by: 'author' });
    await site.update(post.id, { content: '<script>alert(1)</script><p onclick="x">hi</p>' }, { by: 'author' });
    await site.update(post.id, { title: 'Edited by an editor' }, { by: 'editor' });
    const revisions = await site.storedRevisions(post.id);
    assert.equal(revisions[0]!.content, 'alert(1)<p>hi</p>');
    assert.deepEqual(revisions.map((revision) => revision.author), [site.ids.author, site.ids.editor]);
  });

  it('moving a never-updated post to the trash makes one; so does restoring a changed one', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Trash me', status: 'publish' });
    const trashed = await site.admin('DELETE', `/cms/v2/posts/${post.id}`);
    assert.equal(trashed.status, 200);
    assert.equal((await site.storedRevisions(post.id)).length, 1);
    await site.update(post.id, { status: 'publish' });
    assert.equal((await site.storedRevisions(post.id)).length, 1);
  });

  it('autosaves do not count as the revision the first-update rule looks for', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Published', content: 'Text', status: 'publish' });
    const autosave = await site.as('editor')('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { content: 'Draft text' } });
    assert.equal(autosave.status, 200);
    await site.update(post.id, { comment_status: 'closed' });
    const slugs = (await site.storedRevisions(post.id)).map((revision) => revision.slug);
    assert.deepEqual(slugs, [`${post.id}-autosave-v1`, `${post.id}-revision-v1`]);
  });

  it('pages get revisions too; other record types and auto-drafts do not', async () => {
    const site = await makeSite();
    const page = await site.create({ title: 'Page', status: 'publish' }, { base: 'pages' });
    await site.update(page.id, { title: 'Page, again' }, { base: 'pages' });
    assert.equal((await site.storedRevisions(page.id)).length, 1);

    const storage = site.cms.deps.storage;
    const autoDraft = await storage.insert('posts', {
      type: 'post', status: 'auto-draft', date: '2026-11-21T17:00:00', date_gmt: null, modified: '2026-11-21T17:00:00',
      modified_gmt: null, author: site.ids.administrator, parent: 0, slug: '', menu_order: 0, title: 'Auto', content: '',
      excerpt: '', password: '', comment_status: 'open', ping_status: 'open', guid: '', template: '', featured_media: 0, meta: {},
    });
    await site.update(autoDraft.id, { title: 'Auto, renamed' });
    assert.equal((await site.storedRevisions(autoDraft.id)).length, 0);
  });

  it('a scheduled post going live makes none (the reference publishes it without an update)', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Later', status: 'future', date_gmt: '2026-11-22T00:00:00' });
    site.clock.set('2026-11-23T00:00:00Z');
    const read = await site.anonymous('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(read.json.status, 'publish');
    assert.equal((await site.storedRevisions(post.id)).length, 0);
  });

  it('is written in the update\'s transaction: when the save fails afterwards, neither is kept', async () => {
    const site = await makeSite({ onError: () => {} });
    const post = await site.create({ title: 'Before', status: 'publish' });
    let revisionSeenInTransaction = false;
    site.cms.deps.postEvents.onPostSaved(async (event) => {
      if (event.reason !== 'update') return;
      const { items } = await event.storage.list('posts', { where: [{ field: 'parent', op: 'eq', value: event.post.id }] });
      revisionSeenInTransaction = items.some((record) => record.type === 'revision');
      throw new Error('a later listener fails');
    });
    const response = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { title: 'After' } });
    assert.equal(response.status, 500);
    assert.equal(revisionSeenInTransaction, true);
    assert.equal((await site.storedRevisions(post.id)).length, 0);
    const stored = await site.cms.deps.storage.get('posts', post.id);
    assert.equal(stored?.title, 'Before');
  });

  it('keeps the parent\'s version-history count and predecessor in step', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Counted', status: 'publish' });
    const created = await site.admin('GET', `/cms/v2/posts/${post.id}`);
    assert.deepEqual(created.json._links['version-history'], [{ count: 0, href: `http://example.test/cms-json/cms/v2/posts/${post.id}/revisions` }]);
    assert.equal(created.json._links['predecessor-version'], undefined);

    const first = await site.update(post.id, { title: 'Counted once' });
    assert.equal(first._links['version-history'][0].count, 1);
    await site.update(post.id, { title: 'Counted twice' });
    const revisions = await site.storedRevisions(post.id);
    const read = await site.admin('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(read.json._links['version-history'][0].count, 2);
    const newest = revisions.at(-1)!;
    assert.deepEqual(read.json._links['predecessor-version'], [{ id: newest.id, href: `http://example.test/cms-json/cms/v2/posts/${post.id}/revisions/${newest.id}` }]);
  });

  it('removing a post for good removes its revisions', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Gone', status: 'publish' });
    await site.update(post.id, { title: 'Gone soon' });
    assert.equal((await site.storedRevisions(post.id)).length, 1);
    const removed = await site.admin('DELETE', `/cms/v2/posts/${post.id}?force=true`);
    assert.equal(removed.status, 200);
    assert.equal((await site.storedRevisions(post.id)).length, 0);
  });
});
