import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderedContent, renderedExcerpt } from '../../../src/content/post-type/render-cache.js';
import { renderContent, renderExcerpt } from '../../../src/content/render/index.js';

test('cached content and excerpts equal fresh renders, for the whole content and for a teaser', () => {
  const texts = [
    'It\'s "quoted" -- and :) here.\n\nSecond paragraph [gallery] with words enough to cut.',
    'Intro "text"\n<!--more-->\nThe rest',
    '<!-- wp:paragraph -->\n<p>Block \'para\'</p>\n<!-- /wp:paragraph -->',
  ];
  for (const text of texts) {
    for (let round = 0; round < 2; round++) {
      assert.equal(renderedContent(text), renderContent(text));
      assert.equal(renderedExcerpt('', text, undefined), renderExcerpt('', text));
      assert.equal(renderedExcerpt('', text, 3), renderExcerpt('', text, { excerptLength: 3 }));
      assert.equal(renderedExcerpt('Stored "one"', text, 3), renderExcerpt('Stored "one"', text, { excerptLength: 3 }));
    }
  }
});

test('a post too large to keep is rendered each time, correctly', () => {
  const text = `"big" ${'x '.repeat(5_000_000)}`;
  assert.equal(renderedContent(text), renderContent(text));
});
