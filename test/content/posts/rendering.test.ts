import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from './helpers.js';

describe('posts: rendered fields', () => {
  it('generates excerpts of 55 words, or excerpt_length words on single reads', async () => {
    const site = await makeSite();
    const words = Array.from({ length: 60 }, (_, index) => `w${index + 1}`).join(' ');
    const post = await site.create({ title: 'Long', content: words, status: 'publish' });
    const expected55 = `<p>${Array.from({ length: 55 }, (_, index) => `w${index + 1}`).join(' ')} [&hellip;]</p>\n`;
    assert.equal(post.excerpt.rendered, expected55);
    const five = await site.anonymous('GET', `/cms/v2/posts/${post.id}?excerpt_length=5`);
    assert.equal(five.json.excerpt.rendered, '<p>w1 w2 w3 w4 w5 [&hellip;]</p>\n');
    const bad = await site.anonymous('GET', `/cms/v2/posts/${post.id}?excerpt_length=many`);
    assert.equal(bad.status, 400);
    const stored = await site.create({ title: 'Stored', content: words, excerpt: 'Hand "made"', status: 'publish' });
    assert.equal(stored.excerpt.rendered, '<p>Hand &#8220;made&#8221;</p>\n');
  });

  it('renders block content without paragraphs and reports block_version', async () => {
    const site = await makeSite();
    const content = '<!-- wp:paragraph -->\n<p>Block para "q"</p>\n<!-- /wp:paragraph -->';
    const post = await site.create({ title: 'Blocks', content, status: 'publish' });
    assert.equal(post.content.block_version, 1);
    assert.equal(post.content.rendered, '\n<p>Block para &#8220;q&#8221;</p>\n');
  });

  it('cuts generated excerpts at the more tag', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'More', content: 'Teaser text<!--more-->The rest', status: 'publish' });
    assert.equal(post.excerpt.rendered, '<p>Teaser text</p>\n');
  });

  it('prefixes private titles only', async () => {
    const site = await makeSite();
    const privatePost = await site.create({ title: 'Priv', status: 'private' });
    assert.equal(privatePost.title.rendered, 'Private: Priv');
    const locked = await site.create({ title: 'Locked', status: 'publish', password: 'pw' });
    assert.equal(locked.title.rendered, 'Locked');
  });

  it('answers HEAD without a body and embeds the author', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Head', status: 'publish' });
    const head = await site.anonymous('HEAD', `/cms/v2/posts/${post.id}`);
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    const embedded = await site.anonymous('GET', `/cms/v2/posts/${post.id}?_embed=author`);
    assert.equal(embedded.json._embedded.author[0].id, site.ids.administrator);
  });
});
