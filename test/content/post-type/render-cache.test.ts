import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderedContent, renderedExcerpt, renderedTitle } from '../../../src/content/post-type/render-cache.js';
import { renderContent, renderExcerpt, renderTitle } from '../../../src/content/render/index.js';

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

test('kept titles equal fresh renders, for each status and with or without a password', () => {
  const titles = ['It\'s "quoted" -- here...', 'Wordpress (c) 2024', '  padded  ', '', 'Private: already'];
  for (const title of titles) {
    for (const status of ['publish', 'private', 'draft', 'future']) {
      for (const hasPassword of [false, true]) {
        // Asked twice, in both orders of the statuses: a kept title is never another status's.
        for (let round = 0; round < 2; round++) assert.equal(renderedTitle(title, status, hasPassword), renderTitle(title, { status, hasPassword }), `${status} ${hasPassword}`);
      }
    }
  }
  assert.equal(renderedTitle('Same', 'private', false), 'Private: Same');
  assert.equal(renderedTitle('Same', 'publish', false), 'Same');
  assert.equal(renderedTitle('Same', 'private', true), 'Same');
});

test('a post too large to keep is rendered each time, correctly', () => {
  const text = `"big" ${'x '.repeat(5_000_000)}`;
  assert.equal(renderedContent(text), renderContent(text));
});

test('large texts render on a worker thread to the same bytes, while the event loop keeps turning', async () => {
  const { renderedContentAsync, renderedExcerptAsync } = await import('../../../src/content/post-type/render-cache.js');
  const { OFF_THREAD_CHARACTERS } = await import('../../../src/content/render/pool/jobs.js');
  const dense = `Intro "one" 'two' 9x9\n\n<!--more-->\n${'"1\' a -- b... :) '.repeat(Math.ceil((4 * OFF_THREAD_CHARACTERS) / 17))}`;
  const blocks = Array.from({ length: 2_000 }, (_, index) => `<!-- wp:paragraph -->\n<p>Para "${index}" it's</p>\n<!-- /wp:paragraph -->`).join('\n\n');
  for (const text of [dense, blocks]) {
    assert.ok(text.length > OFF_THREAD_CHARACTERS);
    let turns = 0;
    const ticker = setInterval(() => { turns += 1; }, 1);
    const rendered = renderedContentAsync(text);
    assert.ok(rendered instanceof Promise, 'a large text is not rendered in place');
    const offThread = await rendered;
    clearInterval(ticker);
    assert.equal(offThread, renderContent(text));
    assert.equal(await renderedContentAsync(text), offThread, 'the second read comes from the cache');
    assert.equal(await renderedExcerptAsync('', text, undefined), renderExcerpt('', text));
    assert.equal(await renderedExcerptAsync('', text, 7), renderExcerpt('', text, { excerptLength: 7 }));
    assert.equal(await renderedExcerptAsync('Stored "one"', text, 3), renderExcerpt('Stored "one"', text, { excerptLength: 3 }));
    assert.ok(turns > 0, 'the loop turned while the worker rendered');
  }
  const small = 'It\'s "small".';
  assert.equal(renderedContentAsync(small), renderContent(small), 'a small text renders in place, synchronously');
});

test('a rendering too long to copy between threads in one piece comes back in chunks, the same text', async () => {
  const { renderedContentAsync, renderedExcerptAsync } = await import('../../../src/content/post-type/render-cache.js');
  const { ChunkedText, WHOLE_TEXT_CHARS } = await import('../../../src/core/chunked-text.js');
  // Every quote renders as a seven-character entity: the rendering is several times the text.
  const oneByte = `Intro\n\n${'"a" '.repeat(Math.ceil(WHOLE_TEXT_CHARS / 6))}`;
  const twoByte = `\u{1F600} ${oneByte} \u2019`;
  for (const text of [oneByte, twoByte]) {
    const rendered = await renderedContentAsync(text);
    assert.ok(rendered instanceof ChunkedText);
    assert.equal(rendered.toString(), renderContent(text));
    const excerpt = await renderedExcerptAsync(text, '', undefined);
    assert.ok(excerpt instanceof ChunkedText);
    assert.equal(excerpt.toString(), renderExcerpt(text, ''));
  }
});
