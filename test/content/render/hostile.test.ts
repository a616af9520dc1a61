import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderCommentText } from '../../../src/comments/text.js';
import { filterContentTags } from '../../../src/content/render/content-tags.js';
import {
  autop, convertSmilies, renderContent, renderExcerpt, stripAllTags, stripShortcodes, teaserOf, texturize,
} from '../../../src/content/render/index.js';
import { unautopShortcodes } from '../../../src/content/render/shortcodes.js';

// Large and repetitive inputs a client may store (they must render in time linear in their size, see
// test/bench/render.ts); here only the output is checked.
const MB = 400_000;
const times = (unit: string, size: number) => Math.ceil(size / unit.length);

test('400 kB of smileys between spaces becomes emoji throughout', () => {
  const count = times('hi :) there ;-) 8O :mrgreen: ', MB);
  assert.equal(convertSmilies('hi :) there ;-) 8O :mrgreen: '.repeat(count)), 'hi \u{1F642} there \u{1F609} \u{1F62F} :mrgreen: '.repeat(count));
});

test('smileys after 130,000 tags and a line break are still found, and none inside code', () => {
  const text = `${'<b>'.repeat(MB / 3)}\n:) <code>:) ${'<i>'.repeat(1000)}</code> :)`;
  assert.equal(convertSmilies(text), `${'<b>'.repeat(MB / 3)}\n\u{1F642} <code>:) ${'<i>'.repeat(1000)}</code> \u{1F642}`);
});

test('400 kB of quotes and dashes is texturized throughout', () => {
  const quotes = times('"a" \'b\' ', MB);
  assert.equal(texturize('"a" \'b\' '.repeat(quotes)), '&#8220;a&#8221; &#8216;b&#8217; '.repeat(quotes));
  const dashes = times('a -- b --- c - d... ', MB);
  assert.equal(texturize('a -- b --- c - d... '.repeat(dashes)), 'a &#8212; b &#8212; c &#8211; d&#8230; '.repeat(dashes));
});

test('200,000 tags and 200 kB of lines make one paragraph each', () => {
  assert.equal(renderContent('<b>'.repeat(MB / 2)), `<p>${'<b>'.repeat(MB / 2)}</p>\n`);
  const lines = times('line of text\n', MB / 2);
  assert.equal(autop('line of text\n'.repeat(lines)), `<p>${'line of text<br />\n'.repeat(lines - 1)}line of text</p>\n`);
});

test('paragraph making meets thousands of unclosed list items and scripts', () => {
  const count = 20_000;
  assert.equal(autop(`${'<p><li'.repeat(count)}\nx`), `<p><li${'\n\n<li'.repeat(count - 2)}\n \n\n<li\nx \n<br />\n`);
  assert.equal(autop('<script>a\nb'.repeat(count)), `<p>${'<script>a<br />\nb'.repeat(count)}</p>\n`);
});

test('the excerpt of a large post is its first 55 words', () => {
  assert.equal(renderExcerpt('', 'word '.repeat(MB / 5)), `<p>${'word '.repeat(54)}word [&hellip;]</p>\n`);
  assert.equal(renderExcerpt('', '<b>'.repeat(MB / 3)), '');
});

test('unclosed shortcodes, more tags and scripts by the thousand are handled', () => {
  const count = 20_000;
  assert.equal(stripShortcodes('[gallery '.repeat(count)), '[gallery '.repeat(count));
  assert.equal(stripShortcodes(`${'[gallery]'.repeat(count)}x`), 'x');
  assert.equal(unautopShortcodes(`${'<p>[gallery]'.repeat(count)}</p>`), `${'<p>[gallery]'.repeat(count - 1)}[gallery]`);
  assert.equal(teaserOf(`${'<!--more'.repeat(count)}x`), `${'<!--more'.repeat(count)}x`);
  assert.equal(teaserOf(`a${'<!--more'.repeat(count)}-->`), 'a');
  assert.equal(stripAllTags(`${'<script>'.repeat(count)}a</script>b`), 'b');
  assert.equal(stripAllTags(`${'<style>'.repeat(count)}text`), 'text');
});

test('thousands of distinct images each get their loading attributes', () => {
  const tags = Array.from({ length: 20_000 }, (_, index) => `<img src="${index}.png" width="1" height="1">`);
  const expected = tags.map((tag) => tag.replace('<img ', '<img decoding="async" loading="lazy" '));
  assert.equal(filterContentTags(tags.join('\n')), expected.join('\n'));
});

test('a large comment is formatted throughout', () => {
  const count = times(':) "q" ', MB / 2);
  assert.equal(renderCommentText(':) "q" '.repeat(count)), `<p>${'\u{1F642} &#8220;q&#8221; '.repeat(count)}</p>\n`);
});

test('a dimension before a long run of digits, periods and commas is found once, the run left as it is', () => {
  const decimals = '.1'.repeat(MB / 2);
  assert.equal(texturize(`9x9 ${decimals}`), `9&#215;9 ${decimals}`);
  // No word boundary ends the digits after the "x", so that one stays.
  const commas = '1,'.repeat(MB / 4);
  const digits = '2'.repeat(MB / 2);
  assert.equal(texturize(`${commas}x${digits}y 1x2`), `${commas}x${digits}y 1&#215;2`);
});

test('400 kB of the densest quotes, primes, hyphens and ampersands is texturized throughout', () => {
  const count = MB / 2;
  assert.equal(texturize('\'"'.repeat(count)), '&#8216;&#8221;'.repeat(count));
  assert.equal(texturize("a'".repeat(count)), 'a&#8217;'.repeat(count));
  assert.equal(texturize('"1\''.repeat(count)), `&#8220;1&#8242;${'&#8221;1&#8242;'.repeat(count - 1)}`);
  assert.equal(texturize(' -'.repeat(count)), ' &#8211;'.repeat(count));
  assert.equal(texturize('& '.repeat(count)), '&#038; '.repeat(count));
});
