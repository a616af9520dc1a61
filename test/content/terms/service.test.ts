import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  countPublishedPosts, defaultCategoryId, deleteTerm, descendantIds, ensureDefaultTerms,
  getTerm, insertTerm, recountTerms, sanitizeTermName, sortTermIdsByName, termsExist, uniqueTermSlug, updateTerm,
  updateTermCountsForPost,
} from '../../../src/content/terms/index.js';
import { removeAccents, sanitizeTitle } from '../../../src/format/slug.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';

describe('terms service: the default category', () => {
  it('is created once, lazily, with id 1', async () => {
    const storage = createMemoryStorage();
    assert.equal(await storage.get('terms', 1), null);
    await Promise.all([ensureDefaultTerms(storage), ensureDefaultTerms(storage)]);
    await ensureDefaultTerms(storage);
    const { items } = await storage.list('terms');
    assert.equal(items.length, 1);
    assert.deepEqual(items[0], {
      id: 1, taxonomy: 'category', name: 'Uncategorized', slug: 'uncategorized', description: '', parent: 0, count: 0, meta: {},
    });
    assert.equal(await defaultCategoryId(storage), 1);
  });

  it('keeps an existing default category as it is', async () => {
    const storage = createMemoryStorage();
    await storage.insert('terms', { id: 1, taxonomy: 'category', name: 'General', slug: 'general', description: '', parent: 0, meta: {} });
    await ensureDefaultTerms(storage);
    assert.equal((await getTerm(storage, 'category', 1))?.name, 'General');
  });

  it('cannot be deleted', async () => {
    const storage = createMemoryStorage();
    const term = (await getTerm(storage, 'category', 1))!;
    assert.equal(await deleteTerm(storage, term), false);
    assert.notEqual(await storage.get('terms', 1), null);
  });
});

describe('terms service: lookups', () => {
  it('getTerm and termsExist only see terms of the asked taxonomy', async () => {
    const storage = createMemoryStorage();
    const tag = await insertTerm(storage, 'post_tag', { name: 'Red' });
    const category = await insertTerm(storage, 'category', { name: 'Red' });
    assert.equal((await getTerm(storage, 'post_tag', tag.id))?.slug, 'red');
    assert.equal(await getTerm(storage, 'category', tag.id), null);
    assert.equal(await getTerm(storage, 'category', 0), null);
    assert.deepEqual(await termsExist(storage, 'category', [category.id, tag.id, 99, 1]), [tag.id, 99]);
    assert.deepEqual(await termsExist(storage, 'post_tag', [tag.id]), []);
  });

  it('descendantIds adds every level of children, and nothing for tags', async () => {
    const storage = createMemoryStorage();
    const top = await insertTerm(storage, 'category', { name: 'Top' });
    const child = await insertTerm(storage, 'category', { name: 'Child', parent: top.id });
    const grandchild = await insertTerm(storage, 'category', { name: 'Grandchild', parent: child.id });
    const other = await insertTerm(storage, 'category', { name: 'Other' });
    assert.deepEqual(await descendantIds(storage, 'category', [top.id]), [top.id, child.id, grandchild.id]);
    assert.deepEqual(await descendantIds(storage, 'category', [child.id, other.id]), [child.id, other.id, grandchild.id]);
    assert.deepEqual(await descendantIds(storage, 'category', [404]), [404]);
    const tag = await insertTerm(storage, 'post_tag', { name: 'T' });
    assert.deepEqual(await descendantIds(storage, 'post_tag', [tag.id]), [tag.id]);
  });

  it('recountTerms counts published posts only, of the taxonomy post types', async () => {
    const storage = createMemoryStorage();
    const news = await insertTerm(storage, 'category', { name: 'News' });
    const tag = await insertTerm(storage, 'post_tag', { name: 'Hot' });
    await storage.insert('posts', { type: 'post', status: 'publish', categories: [news.id], tags: [tag.id] });
    await storage.insert('posts', { type: 'post', status: 'publish', categories: [news.id, 1, news.id], tags: [] });
    await storage.insert('posts', { type: 'post', status: 'draft', categories: [news.id], tags: [tag.id] });
    await storage.insert('posts', { type: 'post', status: 'private', categories: [news.id] });
    await storage.insert('posts', { type: 'page', status: 'publish', categories: [news.id] });
    assert.equal(await countPublishedPosts(storage, 'category', news.id), 0);
    await recountTerms(storage, 'category');
    assert.equal(await countPublishedPosts(storage, 'category', news.id), 2);
    assert.equal(await countPublishedPosts(storage, 'category', 1), 1);
    // Tags were not recounted yet; a tag id is not a category.
    assert.equal(await countPublishedPosts(storage, 'post_tag', tag.id), 0);
    assert.equal(await countPublishedPosts(storage, 'category', tag.id), 0);
    await recountTerms(storage, 'post_tag', [tag.id]);
    assert.equal(await countPublishedPosts(storage, 'post_tag', tag.id), 1);
  });

  it('updateTermCountsForPost follows a post through its life', async () => {
    const storage = createMemoryStorage();
    const a = await insertTerm(storage, 'category', { name: 'A' });
    const b = await insertTerm(storage, 'category', { name: 'B' });
    const tag = await insertTerm(storage, 'post_tag', { name: 'T' });
    const counts = async () => [
      await countPublishedPosts(storage, 'category', a.id), await countPublishedPosts(storage, 'category', b.id),
      await countPublishedPosts(storage, 'post_tag', tag.id),
    ];
    const draft = { id: 50, type: 'post', status: 'draft', categories: [a.id], tags: [tag.id] };
    await updateTermCountsForPost(storage, null, draft);
    assert.deepEqual(await counts(), [0, 0, 0]);
    const published = { ...draft, status: 'publish' };
    await updateTermCountsForPost(storage, draft, published);
    assert.deepEqual(await counts(), [1, 0, 1]);
    const moved = { ...published, categories: [b.id] };
    await updateTermCountsForPost(storage, published, moved);
    assert.deepEqual(await counts(), [0, 1, 1]);
    const trashed = { ...moved, status: 'trash' };
    await updateTermCountsForPost(storage, moved, trashed);
    assert.deepEqual(await counts(), [0, 0, 0]);
    await updateTermCountsForPost(storage, trashed, null);
    assert.deepEqual(await counts(), [0, 0, 0]);
    const page = { id: 51, type: 'page', status: 'publish', categories: [a.id] };
    await updateTermCountsForPost(storage, null, page);
    assert.deepEqual(await counts(), [0, 0, 0]);
  });

  it('sortTermIdsByName orders case-insensitively and drops unknown ids', async () => {
    const storage = createMemoryStorage();
    const zebra = await insertTerm(storage, 'post_tag', { name: 'zebra' });
    const apple = await insertTerm(storage, 'post_tag', { name: 'Apple' });
    const mango = await insertTerm(storage, 'post_tag', { name: 'mango' });
    assert.deepEqual(await sortTermIdsByName(storage, 'post_tag', [zebra.id, 999, mango.id, apple.id]), [apple.id, mango.id, zebra.id]);
  });
});

describe('terms service: writing', () => {
  it('sanitises names like the reference stores them', () => {
    assert.equal(sanitizeTermName('  Tom & <em>Jerry</em>  '), 'Tom &amp; Jerry');
    assert.equal(sanitizeTermName('a > b "quoted"'), 'a &gt; b "quoted"');
    assert.equal(sanitizeTermName('fish &amp; chips'), 'fish &amp; chips');
  });

  it('refuses names that are empty after trimming', async () => {
    const storage = createMemoryStorage();
    await assert.rejects(insertTerm(storage, 'post_tag', { name: '   ' }), { code: 'empty_term_name', status: 400 });
  });

  it('uses the id as slug when the name yields none', async () => {
    const storage = createMemoryStorage();
    const term = await insertTerm(storage, 'post_tag', { name: '!!!' });
    assert.equal(term.slug, String(term.id));
  });

  it('makes slugs unique: ancestors first for child categories, then numbers', async () => {
    const storage = createMemoryStorage();
    const world = await insertTerm(storage, 'category', { name: 'World' });
    const news = await insertTerm(storage, 'category', { name: 'News' });
    const worldNews = await insertTerm(storage, 'category', { name: 'News', parent: world.id });
    assert.equal(worldNews.slug, 'news-world');
    // Slugs only clash within a taxonomy.
    const tag = await insertTerm(storage, 'post_tag', { name: 'News' });
    assert.equal(tag.slug, 'news');
    const again = await insertTerm(storage, 'post_tag', { name: 'Other', slug: 'news' });
    assert.equal(again.slug, 'news-2');
    // Numbered slugs must be free in every taxonomy: the tag holds news-2.
    assert.equal(await uniqueTermSlug(storage, 'news', { taxonomy: 'category', parent: 0 }), 'news-3');
    assert.equal(await uniqueTermSlug(storage, 'news', { taxonomy: 'category', parent: 0, id: news.id }), 'news-3');
    assert.equal(await uniqueTermSlug(storage, 'fresh', { taxonomy: 'category', parent: 0 }), 'fresh');
  });

  it('update keeps omitted fields, rejects a taken slug and remakes an empty one', async () => {
    const storage = createMemoryStorage();
    const first = await insertTerm(storage, 'post_tag', { name: 'First', description: 'd' });
    const second = await insertTerm(storage, 'post_tag', { name: 'Second' });
    const renamed = await updateTerm(storage, first, { name: 'Renamed' });
    assert.deepEqual([renamed.name, renamed.slug, renamed.description], ['Renamed', 'first', 'd']);
    await assert.rejects(updateTerm(storage, second, { slug: 'first' }), {
      code: 'duplicate_term_slug', status: 400, message: 'The slug &#8220;first&#8221; is already in use by another term.',
    });
    const remade = await updateTerm(storage, renamed, { slug: '' });
    assert.equal(remade.slug, 'renamed');
  });

  it('update refuses a parent that would make a loop (the parent becomes 0)', async () => {
    const storage = createMemoryStorage();
    const top = await insertTerm(storage, 'category', { name: 'Top' });
    const child = await insertTerm(storage, 'category', { name: 'Child', parent: top.id });
    assert.equal((await updateTerm(storage, top, { parent: child.id })).parent, 0);
    assert.equal((await updateTerm(storage, child, { parent: child.id })).parent, 0);
  });

  it('delete moves children up and takes the term off posts, falling back to the default category', async () => {
    const storage = createMemoryStorage();
    const top = await insertTerm(storage, 'category', { name: 'Top' });
    const middle = await insertTerm(storage, 'category', { name: 'Middle', parent: top.id });
    const leaf = await insertTerm(storage, 'category', { name: 'Leaf', parent: middle.id });
    const onlyMiddle = await storage.insert('posts', { type: 'post', status: 'publish', categories: [middle.id] });
    const both = await storage.insert('posts', { type: 'post', status: 'draft', categories: [middle.id, top.id] });
    const untouched = await storage.insert('posts', { type: 'post', status: 'publish', categories: [top.id] });
    await recountTerms(storage, 'category');
    assert.equal(await countPublishedPosts(storage, 'category', 1), 0);
    assert.equal(await deleteTerm(storage, middle), true);
    // The published post that fell back to the default category now counts there.
    assert.equal(await countPublishedPosts(storage, 'category', 1), 1);
    assert.equal(await countPublishedPosts(storage, 'category', top.id), 1);
    assert.equal(await storage.get('terms', middle.id), null);
    assert.equal((await getTerm(storage, 'category', leaf.id))?.parent, top.id);
    assert.deepEqual((await storage.get('posts', onlyMiddle.id))?.categories, [1]);
    assert.deepEqual((await storage.get('posts', both.id))?.categories, [top.id]);
    assert.deepEqual((await storage.get('posts', untouched.id))?.categories, [top.id]);

    const tag = await insertTerm(storage, 'post_tag', { name: 'Gone' });
    const tagged = await storage.insert('posts', { type: 'post', status: 'publish', tags: [tag.id] });
    await deleteTerm(storage, tag);
    assert.deepEqual((await storage.get('posts', tagged.id))?.tags, []);
  });
});

describe('slugs', () => {
  it('follow the reference sanitize_title', () => {
    assert.equal(sanitizeTitle('Hello World'), 'hello-world');
    assert.equal(sanitizeTitle('Crème Brûlée'), 'creme-brulee');
    assert.equal(sanitizeTitle('Straße & Æsir'), 'strase-aesir');
    assert.equal(sanitizeTitle('<b>Bold</b> 50% off.now'), 'bold-50-off-now');
    assert.equal(sanitizeTitle('a/b — c'), 'a-b-c');
    assert.equal(sanitizeTitle('“Quoted” café'), 'quoted-cafe');
    assert.equal(sanitizeTitle('日本'), '%e6%97%a5%e6%9c%ac');
    assert.equal(sanitizeTitle('%C3%A9t'), '%c3%a9t');
    assert.equal(sanitizeTitle('x'.repeat(250)).length, 200);
    assert.equal(sanitizeTitle('???', 'fallback'), 'fallback');
    assert.equal(removeAccents('Łódź'), 'Lodz');
  });
});

describe('terms service: counts following a post', () => {
  it('follow status, type and term changes, and stay put through writes that keep them', async () => {
    const storage = createMemoryStorage();
    const news = await insertTerm(storage, 'category', { name: 'News' });
    const red = await insertTerm(storage, 'post_tag', { name: 'Red' });
    const blue = await insertTerm(storage, 'post_tag', { name: 'Blue' });
    const counts = async () => [
      await countPublishedPosts(storage, 'category', news.id),
      await countPublishedPosts(storage, 'post_tag', red.id),
      await countPublishedPosts(storage, 'post_tag', blue.id),
    ];
    const draft = { id: 7, type: 'post', status: 'draft', categories: [news.id], tags: [red.id], title: 'A' };
    await updateTermCountsForPost(storage, null, draft);
    assert.deepEqual(await counts(), [0, 0, 0]);
    const published = { ...draft, status: 'publish' };
    await updateTermCountsForPost(storage, draft, published);
    assert.deepEqual(await counts(), [1, 1, 0]);
    // Other fields, and the same terms in new arrays: nothing moves.
    const retitled = { ...published, title: 'B', categories: [news.id], tags: [red.id] };
    await updateTermCountsForPost(storage, published, retitled);
    assert.deepEqual(await counts(), [1, 1, 0]);
    const retagged = { ...retitled, tags: [blue.id, red.id] };
    await updateTermCountsForPost(storage, retitled, retagged);
    assert.deepEqual(await counts(), [1, 1, 1]);
    const reordered = { ...retagged, tags: [red.id, blue.id] };
    await updateTermCountsForPost(storage, retagged, reordered);
    assert.deepEqual(await counts(), [1, 1, 1]);
    const page = { ...reordered, type: 'page' };
    await updateTermCountsForPost(storage, reordered, page);
    assert.deepEqual(await counts(), [0, 0, 0]);
    await updateTermCountsForPost(storage, page, reordered);
    await updateTermCountsForPost(storage, reordered, { ...reordered, tags: [blue.id] });
    assert.deepEqual(await counts(), [1, 0, 1]);
    await updateTermCountsForPost(storage, { ...reordered, tags: [blue.id] }, null);
    assert.deepEqual(await counts(), [0, 0, 0]);
  });
});
