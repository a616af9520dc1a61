import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insertTerm } from '../../../src/content/taxonomy/index.js';
import { ids, makeSite, type Site } from './helpers.js';

/** Five published posts, one a day from 2026-01-01, with distinct authors, titles and modified dates. */
async function fivePosts(site: Site) {
  const posts = [];
  const authors = [site.ids.author, site.ids.editor, site.ids.author, site.ids.administrator, site.ids.editor];
  const titles = ['Echo', 'alpha', 'Delta', 'charlie', 'Bravo'];
  for (let index = 0; index < 5; index++) {
    posts.push(await site.create({
      title: titles[index], status: 'publish', date: `2026-01-0${index + 1}T10:00:00`, author: authors[index],
    }));
  }
  return posts.map((post) => post.id as number);
}

describe('posts: list parameters', () => {
  it('pages with page, per_page and offset, with total headers and Link relations', async () => {
    const site = await makeSite();
    const [p1, p2, p3, p4, p5] = await fivePosts(site);
    const first = await site.anonymous('GET', '/cms/v2/posts?per_page=2');
    assert.deepEqual(ids(first.json), [p5, p4]);
    assert.equal(first.headers['X-WP-Total'], '5');
    assert.equal(first.headers['X-WP-TotalPages'], '3');
    assert.equal(first.headers.Link, '<http://example.test/cms-json/cms/v2/posts?per_page=2&page=2>; rel="next"');
    const middle = await site.anonymous('GET', '/cms/v2/posts?per_page=2&page=2');
    assert.deepEqual(ids(middle.json), [p3, p2]);
    assert.equal(middle.headers.Link,
      '<http://example.test/cms-json/cms/v2/posts?per_page=2&page=1>; rel="prev", <http://example.test/cms-json/cms/v2/posts?per_page=2&page=3>; rel="next"');
    const last = await site.anonymous('GET', '/cms/v2/posts?per_page=2&page=3');
    assert.deepEqual(ids(last.json), [p1]);
    const offset = await site.anonymous('GET', '/cms/v2/posts?per_page=2&offset=1');
    assert.deepEqual(ids(offset.json), [p4, p3]);
    assert.equal(offset.headers['X-WP-Total'], '5');
    const offsetWithPage = await site.anonymous('GET', '/cms/v2/posts?per_page=2&offset=3&page=2');
    assert.deepEqual(ids(offsetWithPage.json), [p2, p1]);

    const beyond = await site.anonymous('GET', '/cms/v2/posts?per_page=2&page=4');
    assert.equal(beyond.status, 400);
    assert.equal(beyond.json.code, 'rest_post_invalid_page_number');
    assert.equal(beyond.json.message, 'The page number requested is larger than the number of pages available.');

    const empty = await site.anonymous('GET', '/cms/v2/posts?search=nothing-matches&page=7');
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.json, []);
    assert.equal(empty.headers['X-WP-Total'], '0');
    assert.equal(empty.headers['X-WP-TotalPages'], '0');

    const tooMany = await site.anonymous('GET', '/cms/v2/posts?per_page=500');
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.json.data.details.per_page.code, 'rest_out_of_bounds');
    const pageZero = await site.anonymous('GET', '/cms/v2/posts?page=0');
    assert.equal(pageZero.status, 400);
  });

  it('orders by each attribute, both ways', async () => {
    const site = await makeSite();
    const [p1, p2, p3, p4, p5] = await fivePosts(site);
    const order = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/posts?${query}`)).json);
    assert.deepEqual(await order('order=asc'), [p1, p2, p3, p4, p5]);
    assert.deepEqual(await order('orderby=id&order=desc'), [p5, p4, p3, p2, p1]);
    // Titles compare by code unit (capitals first), not with a case-insensitive collation.
    assert.deepEqual(await order('orderby=title&order=asc'), [p5, p3, p1, p2, p4]);
    assert.deepEqual(await order('orderby=slug&order=asc'), [p2, p5, p4, p3, p1]);
    assert.deepEqual(await order('orderby=author&order=asc'), [p4, p1, p3, p2, p5].sort((a, b) => {
      const author = (id: number) => ({ [p1]: site.ids.author, [p2]: site.ids.editor, [p3]: site.ids.author, [p4]: site.ids.administrator, [p5]: site.ids.editor })[id]!;
      return author(a) - author(b) || a - b;
    }));
    assert.deepEqual(await order(`include=${p3},${p1},${p5}&orderby=include`), [p3, p1, p5]);
    assert.deepEqual(await order(`include=${p3},${p1},${p5}&orderby=include&order=asc`), [p3, p1, p5]);
    assert.deepEqual(await order('slug=delta,alpha&orderby=include_slugs'), [p3, p2]);
    assert.deepEqual(await order('orderby=include_slugs&order=asc'), [p1, p2, p3, p4, p5]);

    site.clock.advance(60_000);
    await site.admin('POST', `/cms/v2/posts/${p2}`, { json: { content: 'touched' } });
    assert.deepEqual((await order('orderby=modified'))[0], p2);

    const noInclude = await site.anonymous('GET', '/cms/v2/posts?orderby=include');
    assert.equal(noInclude.status, 400);
    assert.equal(noInclude.json.code, 'rest_orderby_include_missing_include');
    assert.equal(noInclude.json.message, 'You need to define an include parameter to order by include.');
    const noSearch = await site.anonymous('GET', '/cms/v2/posts?orderby=relevance');
    assert.equal(noSearch.json.code, 'rest_no_search_term_defined');
    assert.equal(noSearch.json.message, 'You need to define a search term to order by relevance.');
    const badOrder = await site.anonymous('GET', '/cms/v2/posts?order=up');
    assert.equal(badOrder.json.data.details.order.code, 'rest_not_in_enum');
  });

  it('filters by include, exclude, author, author_exclude and slug', async () => {
    const site = await makeSite();
    const [p1, p2, p3, p4, p5] = await fivePosts(site);
    const list = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/posts?${query}`)).json);
    assert.deepEqual(await list(`include=${p1},${p4}`), [p4, p1]);
    assert.deepEqual(await list(`exclude=${p1},${p4}`), [p5, p3, p2]);
    assert.deepEqual(await list(`include[]=${p1}&include[]=${p2}&exclude=${p2}`), [p1]);
    assert.deepEqual(await list(`author=${site.ids.author}`), [p3, p1]);
    assert.deepEqual(await list(`author=${site.ids.author},${site.ids.administrator}`), [p4, p3, p1]);
    assert.deepEqual(await list(`author_exclude=${site.ids.editor}`), [p4, p3, p1]);
    assert.deepEqual(await list('slug=alpha,bravo'), [p5, p2]);
    // Lists split on commas and white space; each slug is sanitised.
    assert.deepEqual(await list('slug=Alpha Beta,echo'), [p2, p1]);
  });

  it('filters by publish and modified dates, reading offsets in the site time zone', async () => {
    const site = await makeSite({ site: { timezone: 'Europe/Paris' } });
    const [p1, p2, p3, p4, p5] = await fivePosts(site);
    const list = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/posts?${query}`)).json);
    assert.deepEqual(await list('after=2026-01-03T10:00:00'), [p5, p4]);
    assert.deepEqual(await list('before=2026-01-03T10:00:00'), [p2, p1]);
    assert.deepEqual(await list('after=2026-01-02T00:00:00&before=2026-01-04T00:00:00'), [p3, p2]);
    // 09:30 UTC is 10:30 in Paris: the post of 10:00 local is before it.
    assert.deepEqual(await list('after=2026-01-03T09:30:00Z'), [p5, p4]);
    assert.deepEqual(await list('after=2026-01-03T08:30:00Z'), [p5, p4, p3]);
    const invalid = await site.anonymous('GET', '/cms/v2/posts?after=soon');
    assert.equal(invalid.json.data.details.after.code, 'rest_invalid_date');

    site.clock.set('2026-02-01T00:00:00Z');
    await site.admin('POST', `/cms/v2/posts/${p2}`, { json: { content: 'touched' } });
    assert.deepEqual(await list('modified_after=2026-01-15T00:00:00'), [p2]);
    assert.deepEqual(await list('modified_before=2026-01-15T00:00:00'), [p5, p4, p3, p1]);
  });

  it('searches every term in title, excerpt or content, with exclusions and phrases', async () => {
    const site = await makeSite();
    const make = async (title: string, content = '', excerpt = '') => (await site.create({ title, content, excerpt, status: 'publish' })).id as number;
    const zeta = await make('zeta alpha');
    const alphaBeta = await make('alpha beta');
    const gamma = await make('gamma', 'lorem alpha');
    const betaAlphaGamma = await make('beta alpha gamma');
    const inExcerpt = await make('delta', '', 'an alpha here');
    const search = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/posts?${query}`)).json).sort((a, b) => a - b);
    assert.deepEqual(await search('search=alpha -beta'), [zeta, gamma, inExcerpt]);
    assert.deepEqual(await search('search="alpha beta"'), [alphaBeta]);
    assert.deepEqual(await search('search=ALPHA gamma'), [gamma, betaAlphaGamma]);
    assert.deepEqual(await search('search=the alpha of beta'), [alphaBeta, betaAlphaGamma]);
    assert.deepEqual(await search('search=alpha&search_columns=post_title'), [zeta, alphaBeta, betaAlphaGamma]);
    assert.deepEqual(await search('search=alpha&search_columns=post_content,post_excerpt'), [gamma, inExcerpt]);
    assert.deepEqual(await search('search=gamma&search_semantics=exact'), [gamma]);
    assert.deepEqual(await search('search=alpha&search_semantics=exact'), []);
    const badColumn = await site.anonymous('GET', '/cms/v2/posts?search=x&search_columns=post_author');
    assert.equal(badColumn.json.data.details.search_columns.code, 'rest_not_in_enum');
  });

  it('orders a search by relevance: title matches first, then by date', async () => {
    const site = await makeSite();
    const make = async (title: string, content: string, date: string) => (await site.create({ title, content, status: 'publish', date })).id as number;
    const contentOnly = await make('Nothing', 'kiwi banana', '2026-01-05T00:00:00');
    const titleOld = await make('Kiwi banana pie', '', '2026-01-01T00:00:00');
    const titleOne = await make('Kiwi tart', 'banana', '2026-01-03T00:00:00');
    const titleNew = await make('Fresh kiwi and banana', '', '2026-01-04T00:00:00');
    const relevance = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/posts?${query}&orderby=relevance`)).json);
    // Whole phrase in title, then all terms in title (newest first), then any term in title, then the rest.
    assert.deepEqual(await relevance('search=kiwi banana'), [titleOld, titleNew, titleOne, contentOnly]);
    assert.deepEqual(await relevance('search=kiwi'), [titleNew, titleOne, titleOld, contentOnly]);
    assert.deepEqual(await relevance('search=kiwi&order=asc'), [titleOld, titleOne, titleNew, contentOnly]);
  });

  it('filters by categories and tags, with children, AND, exclusions and tax_relation', async () => {
    const site = await makeSite();
    const storage = site.cms.deps.storage;
    const news = await insertTerm(storage, 'category', { name: 'News' });
    const world = await insertTerm(storage, 'category', { name: 'World', parent: news.id });
    const sport = await insertTerm(storage, 'category', { name: 'Sport' });
    const red = await insertTerm(storage, 'post_tag', { name: 'Red' });
    const blue = await insertTerm(storage, 'post_tag', { name: 'Blue' });
    const make = async (categories: number[], tags: number[]) =>
      (await site.create({ title: 't', status: 'publish', categories, tags })).id as number;
    const newsRed = await make([news.id], [red.id]);
    const worldBlue = await make([world.id], [blue.id]);
    const sportRedBlue = await make([sport.id], [red.id, blue.id]);
    const newsSport = await make([news.id, sport.id], []);
    const list = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/posts?${query}`)).json).sort((a, b) => a - b);

    assert.deepEqual(await list(`categories=${news.id}`), [newsRed, newsSport]);
    assert.deepEqual(await list(`categories[terms]=${news.id}&categories[include_children]=true`), [newsRed, worldBlue, newsSport]);
    assert.deepEqual(await list(`categories[terms][]=${news.id}&categories[terms][]=${sport.id}&categories[operator]=AND`), [newsSport]);
    assert.deepEqual(await list(`categories_exclude=${news.id}`), [worldBlue, sportRedBlue]);
    assert.deepEqual(await list(`categories_exclude[terms]=${news.id}&categories_exclude[include_children]=1`), [sportRedBlue]);
    assert.deepEqual(await list(`tags=${red.id}`), [newsRed, sportRedBlue]);
    assert.deepEqual(await list(`tags=${red.id}&tags_exclude=${blue.id}`), [newsRed]);
    assert.deepEqual(await list(`tags[terms]=${red.id},${blue.id}&tags[operator]=AND`), [sportRedBlue]);
    assert.deepEqual(await list(`categories=${world.id}&tags=${red.id}`), []);
    assert.deepEqual(await list(`categories=${world.id}&tags=${red.id}&tax_relation=OR`), [newsRed, worldBlue, sportRedBlue]);

    const childrenOnTags = await site.anonymous('GET', `/cms/v2/posts?tags[terms]=${red.id}&tags[include_children]=true`);
    assert.equal(childrenOnTags.status, 400);
    const unknownKey = await site.anonymous('GET', `/cms/v2/posts?categories[terms]=${news.id}&categories[colour]=red`);
    assert.equal(unknownKey.status, 400);
    const operatorOnExclude = await site.anonymous('GET', `/cms/v2/posts?categories_exclude[terms]=${news.id}&categories_exclude[operator]=AND`);
    assert.equal(operatorOnExclude.status, 400);
  });

  it('filters sticky posts and puts them first when ignore_sticky is false', async () => {
    const site = await makeSite();
    const [p1, p2, p3, p4, p5] = await fivePosts(site);
    await site.admin('POST', `/cms/v2/posts/${p2}`, { json: { sticky: true } });
    await site.admin('POST', `/cms/v2/posts/${p4}`, { json: { sticky: true } });
    const list = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/posts?${query}`)).json);
    assert.deepEqual(await list('sticky=true'), [p4, p2]);
    assert.deepEqual(await list('sticky=false'), [p5, p3, p1]);
    assert.deepEqual(await list(`sticky=true&include=${p2},${p3}`), [p2]);
    assert.deepEqual(await list(`sticky=true&include=${p3}`), []);
    assert.deepEqual(await list(''), [p5, p4, p3, p2, p1]);
    // Stickies on the page move up; those beyond it are fetched and inserted after them (page 1 only).
    assert.deepEqual(await list('ignore_sticky=false&per_page=2'), [p4, p2, p5]);
    assert.deepEqual(await list('ignore_sticky=false&per_page=2&page=2'), [p3, p2]);
    assert.deepEqual(await list(`ignore_sticky=false&per_page=2&exclude=${p2}`), [p4, p5]);
    assert.deepEqual(await list('ignore_sticky=false&search=a&per_page=2'), [p5, p4]);
    const headers = (await site.anonymous('GET', '/cms/v2/posts?ignore_sticky=false&per_page=2')).headers;
    assert.equal(headers['X-WP-Total'], '5');
  });

  it('filters by format', async () => {
    const site = await makeSite();
    const plain = await site.create({ title: 'plain', status: 'publish' });
    const aside = await site.create({ title: 'aside', status: 'publish', format: 'aside' });
    const quote = await site.create({ title: 'quote', status: 'publish', format: 'quote' });
    const list = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/posts?${query}`)).json).sort((a, b) => a - b);
    assert.deepEqual(await list('format=aside'), [aside.id]);
    assert.deepEqual(await list('format=standard,quote'), [plain.id, quote.id]);
    const duplicate = await site.anonymous('GET', '/cms/v2/posts?format=aside,aside');
    assert.equal(duplicate.status, 400);
  });

  it('filters pages by parent, parent_exclude and menu_order, and orders by menu_order', async () => {
    const site = await makeSite();
    const make = async (title: string, fields: Record<string, unknown> = {}) =>
      (await site.create({ title, status: 'publish', ...fields }, { base: 'pages' })).id as number;
    const top = await make('Top', { menu_order: 3 });
    const childA = await make('A', { parent: top, menu_order: 2 });
    const childB = await make('B', { parent: top, menu_order: 1 });
    const other = await make('Other', { menu_order: 2 });
    const list = async (query: string) => ids((await site.anonymous('GET', `/cms/v2/pages?${query}`)).json);
    assert.deepEqual((await list(`parent=${top}`)).sort((a, b) => a - b), [childA, childB]);
    assert.deepEqual((await list('parent=0')).sort((a, b) => a - b), [top, other]);
    assert.deepEqual((await list(`parent_exclude=${top}`)).sort((a, b) => a - b), [top, other]);
    assert.deepEqual((await list('menu_order=2')).sort((a, b) => a - b), [childA, other]);
    assert.deepEqual(await list('orderby=menu_order&order=asc'), [childB, childA, other, top]);
    assert.deepEqual(await list('orderby=parent&order=desc&parent_exclude=0'), [childB, childA]);
    const postsHaveNoParent = await site.anonymous('GET', '/cms/v2/posts?orderby=menu_order');
    assert.equal(postsHaveNoParent.status, 400);
  });
});
