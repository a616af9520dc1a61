import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from './helpers.js';

describe('posts and pages: links and addresses', () => {
  it('links a page to its parent and gives pages no term links', async () => {
    const site = await makeSite();
    const parent = await site.create({ title: 'About', status: 'publish' }, { base: 'pages' });
    const child = await site.create({ title: 'Team', status: 'publish', parent: parent.id }, { base: 'pages' });
    const read = await site.anonymous('GET', `/cms/v2/pages/${child.id}`);
    assert.equal(read.json.link, 'http://example.test/about/team/');
    assert.equal(read.json.parent, parent.id);
    assert.equal(read.json.sticky, undefined);
    assert.equal(read.json.format, undefined);
    assert.equal(read.json.categories, undefined);
    const links = read.json._links;
    assert.deepEqual(links.up, [{ embeddable: true, href: `http://example.test/cms-json/cms/v2/pages/${parent.id}` }]);
    assert.equal(links['wp:term'], undefined);
    assert.deepEqual(links.about, [{ href: 'http://example.test/cms-json/cms/v2/types/page' }]);
    assert.deepEqual(links['wp:attachment'], [{ href: `http://example.test/cms-json/cms/v2/media?parent=${child.id}` }]);
    const top = await site.anonymous('GET', `/cms/v2/pages/${parent.id}`);
    assert.equal(top.json._links.up, undefined);
  });

  it('gives drafts plain links and the front page the home address', async () => {
    const site = await makeSite();
    const draftPage = await site.create({ title: 'Draft page' }, { base: 'pages' });
    assert.equal(draftPage.link, `http://example.test/?page_id=${draftPage.id}`);
    assert.equal(draftPage.permalink_template, 'http://example.test/%pagename%/');
    assert.equal(draftPage.generated_slug, 'draft-page');
    const draftPost = await site.create({ title: 'Draft post' });
    assert.equal(draftPost.link, `http://example.test/?p=${draftPost.id}`);

    const withFront = await makeSite({ site: { pageOnFront: 1 } });
    const front = await withFront.create({ title: 'Welcome', status: 'publish' }, { base: 'pages' });
    assert.equal(front.id, 1);
    assert.equal(front.link, 'http://example.test/');
    const remove = await withFront.as('editor')('DELETE', '/cms/v2/pages/1');
    assert.equal(remove.status, 403);
    assert.equal(remove.json.code, 'rest_cannot_delete');
  });

  it('follows the permalink structure setting, or plain links without one', async () => {
    const base = await makeSite();
    const post = await base.withPostSettings({ permalinkStructure: '/archives/%post_id%/%postname%' }).create({ title: 'Structured', status: 'publish' });
    assert.equal(post.link, `http://example.test/archives/${post.id}/structured`);
    const plain = await base.withPostSettings({ permalinkStructure: '' }).anonymous('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(plain.json.link, `http://example.test/?p=${post.id}`);
    assert.equal(post.guid.raw, `http://example.test/archives/${post.id}/structured`);
  });

  it('counts revisions (autosaves too) and points at the newest', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Revised', status: 'publish' });
    const storage = site.cms.deps.storage;
    const older = await storage.insert('posts', { type: 'revision', status: 'inherit', parent: post.id, date: '2026-11-21T10:00:00' });
    const newer = await storage.insert('posts', { type: 'revision', status: 'inherit', parent: post.id, date: '2026-11-21T11:00:00', slug: `${post.id}-autosave-v1` });
    assert.ok(older.id < newer.id);
    const read = await site.anonymous('GET', `/cms/v2/posts/${post.id}`);
    assert.deepEqual(read.json._links['version-history'], [{ count: 2, href: `http://example.test/cms-json/cms/v2/posts/${post.id}/revisions` }]);
    assert.deepEqual(read.json._links['predecessor-version'], [{ id: newer.id, href: `http://example.test/cms-json/cms/v2/posts/${post.id}/revisions/${newer.id}` }]);
  });

  it('gives action links only in the edit context, by capability', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Acts', status: 'draft' }, { role: 'contributor' });
    const contributor = await site.as('contributor')('GET', `/cms/v2/posts/${post.id}?context=edit`);
    const relations = Object.keys(contributor.json._links).filter((rel) => rel.startsWith('wp:action'));
    assert.deepEqual(relations, ['wp:action-assign-categories', 'wp:action-create-tags', 'wp:action-assign-tags']);
    const view = await site.admin('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(Object.keys(view.json._links).some((rel) => rel.startsWith('wp:action')), false);
  });

  it('honours _fields and skips links unless asked', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Fields', status: 'publish' });
    const response = await site.anonymous('GET', `/cms/v2/posts/${post.id}?_fields=id,title.rendered`);
    assert.deepEqual(response.json, { id: post.id, title: { rendered: 'Fields' } });
    const list = await site.anonymous('GET', '/cms/v2/posts?_fields=id,_links.self');
    assert.deepEqual(Object.keys(list.json[0]), ['id', '_links']);
  });
});
