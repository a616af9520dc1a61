import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Cms } from '../../src/cms.js';
import type { WxrImportSummary } from '../../src/wxr/index.js';
import { send } from '../helpers/request.js';
import { makeCms, PHOTO_URL, SAMPLE } from './fixture.js';

type Json = Record<string, any>;

describe('cms.importWxr on a realistic export', () => {
  let cms: Cms;
  let summary: WxrImportSummary;
  let admin: { id: number };
  const get = async (path: string) => {
    const response = await send(cms, 'GET', path, { user: admin });
    assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.json)}`);
    return response.json;
  };
  const record = async (collection: string, id: number) => (await cms.deps.storage.get(collection, id)) as Json;
  const bySlug = (items: Json[]) => new Map(items.map((item) => [item.slug, item]));

  before(async () => {
    cms = makeCms();
    admin = await cms.users.create({ login: 'admin', email: 'admin@new.example', roles: ['administrator'] });
    summary = await cms.importWxr(SAMPLE);
  });

  test('reports what it made, what it skipped, and the file\'s channel', () => {
    assert.deepEqual(summary.created, { users: 3, categories: 3, tags: 2, posts: 7, pages: 3, attachments: 1, comments: 3 });
    assert.deepEqual({ ...summary.skipped }, { 'taxonomy:nav_menu': 1, 'type:nav_menu_item': 1 });
    assert.equal(summary.site.title, 'Old & Gold');
    assert.equal(summary.site.baseSiteUrl, 'http://old.example');
    assert.deepEqual(summary.warnings, []);
    assert.equal(summary.ids.posts.size, 11);
    assert.deepEqual([...summary.ids.users.keys()], [2, 3, 4]);
  });

  test('authors become users with their login, email and names, the default role and no password', async () => {
    const jane = await cms.users.find('jane');
    assert.ok(jane);
    assert.deepEqual([jane.email, jane.name, jane.firstName, jane.lastName, jane.roles], ['jane@old.example', 'Jane Doe', 'Jane', 'Doe', ['subscriber']]);
    assert.equal((await record('users', jane.id)).password_hash, null);
    assert.equal(summary.ids.users.get(2), jane.id);
  });

  test('categories keep their tree, names and descriptions; tags are made; menus are not', async () => {
    const categories = bySlug(await get('/cms/v2/categories?per_page=100&context=edit'));
    const [news, world, europe] = ['news', 'world', 'europe'].map((slug) => categories.get(slug)!);
    assert.deepEqual([news!.parent, world!.parent, europe!.parent], [0, news!.id, world!.id]);
    assert.equal(news!.name, 'News &amp; Views');
    assert.equal(news!.description, 'What happened');
    assert.equal(summary.ids.terms.get(5), europe!.id);
    assert.deepEqual([...bySlug(await get('/cms/v2/tags?context=edit')).keys()].sort(), ['food', 'travel']);
  });

  test('posts keep slugs, dates, statuses, sticky, terms, passwords, formats and their featured image', async () => {
    const posts = bySlug(await get('/cms/v2/posts?status=publish,future,draft,pending,private,trash&context=edit&per_page=100'));
    const hello = posts.get('hello-harbour')!;
    const categories = bySlug(await get('/cms/v2/categories?per_page=100'));
    const tags = bySlug(await get('/cms/v2/tags'));
    const jane = await cms.users.find('jane');
    assert.deepEqual(
      [hello.status, hello.date, hello.date_gmt, hello.sticky, hello.author, hello.excerpt.raw, hello.comment_status],
      ['publish', '2024-03-10T09:30:00', '2024-03-10T08:30:00', true, jane!.id, 'A short one', 'open'],
    );
    assert.deepEqual(hello.categories, [categories.get('europe').id]);
    assert.deepEqual([...hello.tags].sort(), [tags.get('food').id, tags.get('travel').id].sort());
    assert.equal(hello.featured_media, summary.ids.posts.get(10));
    assert.equal(hello.guid.raw, 'http://old.example/?p=11');
    assert.match(hello.content.raw, /^<!-- wp:paragraph --><p>See <img src="http:\/\/old\.example\/wp-content\/uploads\/2024\/03\/harbour-300x200\.jpg" \/> &amp; more/);

    const soon = posts.get('coming-soon')!;
    assert.deepEqual([soon.status, soon.date, soon.author], ['future', '2027-01-05T08:00:00', (await cms.users.find('bob'))!.id]);
    assert.deepEqual(soon.categories, [categories.get('news').id]);
    const members = posts.get('members-only')!;
    assert.deepEqual([members.password, members.comment_status, members.format], ['secret', 'closed', 'quote']);
    assert.equal(posts.get('diary')!.status, 'private');

    const draft = await record('posts', summary.ids.posts.get(13)!);
    assert.deepEqual([draft.status, draft.slug, draft.date, draft.date_gmt], ['draft', '', '2026-10-01T12:00:00', null]);
    assert.equal((await record('posts', summary.ids.posts.get(14)!)).status, 'pending');
    // Posts without categories get the default one, as in WordPress.
    assert.deepEqual(draft.categories, [1]);
  });

  test('a trashed post keeps what restoring it needs', async () => {
    const trashed = await record('posts', summary.ids.posts.get(16)!);
    assert.deepEqual(
      [trashed.status, trashed.slug, trashed.trashed_from_status, trashed.trashed_slug, trashed.trashed_at],
      ['trash', 'old-news__trashed', 'publish', 'old-news', '2023-11-14T22:13:20'],
    );
    const restored = await send(cms, 'POST', `/cms/v2/posts/${trashed.id}`, { user: admin, json: { status: 'publish' } });
    assert.equal(restored.status, 200);
    assert.equal(restored.json.slug, 'old-news');
  });

  test('the page tree is rebuilt even when a child comes before its parent', async () => {
    const pages = bySlug(await get('/cms/v2/pages?context=edit&orderby=menu_order&order=asc'));
    const about = pages.get('about')!;
    assert.deepEqual([...pages.keys()], ['about', 'team', 'contact']);
    assert.deepEqual([pages.get('team').parent, pages.get('contact').parent, about.parent], [about.id, about.id, 0]);
    assert.equal(pages.get('team').link, 'http://new.example/about/team/');
    assert.equal((await record('posts', pages.get('contact').id)).template, 'templates/contact.php');
  });

  test('the attachment is attached to its post and keeps its remote address', async () => {
    const id = summary.ids.posts.get(10)!;
    const media = await get(`/cms/v2/media/${id}?context=edit`);
    assert.deepEqual(
      [media.post, media.alt_text, media.mime_type, media.caption.raw, media.description.raw, media.slug],
      [summary.ids.posts.get(11), 'Boats in a harbour', 'image/jpeg', 'Caption', 'The old harbour', 'harbour'],
    );
    const stored = await record('posts', id);
    assert.deepEqual([stored.file, stored.source_url, stored.guid], ['', PHOTO_URL, 'http://old.example/?p=10']);
  });

  test('comments keep their thread, moderation status, authors and dates', async () => {
    const comments = await cms.comments.ofPost(summary.ids.posts.get(11)!);
    const [visitor, reply, held] = comments;
    assert.deepEqual(comments.map((comment) => comment.author_name), ['Visitor', 'Bob', 'Quiet']);
    assert.deepEqual([visitor!.status, reply!.status, held!.status], ['approved', 'approved', 'hold']);
    assert.deepEqual([visitor!.parent, reply!.parent, held!.parent], [0, visitor!.id, 0]);
    assert.equal(reply!.user_id, (await cms.users.find('bob'))!.id);
    assert.deepEqual([visitor!.date, visitor!.date_gmt, visitor!.author_url], ['2024-03-11T10:00:00', '2024-03-11T10:00:00', 'https://visitor.example/?a=1&b=2']);
    const listed = await send(cms, 'GET', `/cms/v2/comments?post=${summary.ids.posts.get(11)}`);
    assert.deepEqual(listed.json.map((comment: Json) => comment.author_name), ['Bob', 'Visitor']);
  });

  test('importing the same file again finds everything already there and adds nothing', async () => {
    const before = await cms.deps.storage.list('posts', { limit: 0, withTotal: true });
    const again = await cms.importWxr(SAMPLE);
    assert.deepEqual(again.created, { users: 0, categories: 0, tags: 0, posts: 0, pages: 0, attachments: 0, comments: 0 });
    assert.deepEqual(again.existing, { users: 3, categories: 3, tags: 2, posts: 7, pages: 3, attachments: 1, comments: 3 });
    assert.equal((await cms.deps.storage.list('posts', { limit: 0, withTotal: true })).total, before.total);
    assert.deepEqual([...again.ids.posts], [...summary.ids.posts]);
    assert.deepEqual([...again.ids.comments], [...summary.ids.comments]);
  });
});

describe('import options', () => {
  test('authors can get another role, and records of unknown authors a default user', async () => {
    const cms = makeCms();
    const owner = await cms.users.create({ login: 'owner', email: 'owner@new.example', roles: ['editor'] });
    const summary = await cms.importWxr(SAMPLE.replace('<dc:creator><![CDATA[carol]]></dc:creator>', '<dc:creator><![CDATA[nobody]]></dc:creator>'), {
      authorRole: 'author', defaultAuthor: owner.id,
    });
    assert.deepEqual((await cms.users.find('jane'))!.roles, ['author']);
    const pending = await cms.deps.storage.get('posts', summary.ids.posts.get(14)!);
    assert.equal(pending!.author, owner.id);
  });

  test('an unknown role or default user is refused before anything is read', async () => {
    const cms = makeCms();
    await assert.rejects(cms.importWxr(SAMPLE, { authorRole: 'overlord' }), { code: 'wxr_invalid_option' });
    await assert.rejects(cms.importWxr(SAMPLE, { defaultAuthor: 99 }), { code: 'wxr_invalid_option' });
    assert.equal((await cms.deps.storage.list('posts', { limit: 0, withTotal: true })).total, 0);
  });

  test('an author who cannot be made is reported, and their records go to the default author', async () => {
    const cms = makeCms();
    await cms.users.create({ login: 'someone', email: 'jane@old.example' });
    const summary = await cms.importWxr(SAMPLE);
    assert.equal(summary.created.users, 2);
    assert.match(summary.warnings[0]!, /line \d+: no user was made for the author "jane" \(Sorry, that email address is already used!\)/);
    assert.equal((await cms.deps.storage.get('posts', summary.ids.posts.get(11)!))!.author, 0);
  });
});
