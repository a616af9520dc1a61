import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderExcerpt, teaserOf } from '../../../src/content/render/index.js';

// Expected outputs come from running the reference implementation's own PHP functions on the same inputs.
const CASES: ReadonlyArray<readonly [string, string, string, number, string]> = [
  ["generated from the content", "", "First para -- with 'quotes'...\n\nSecond line\nthird", 55, "<p>First para &#8212; with &#8216;quotes&#8217;&#8230; Second line third</p>\n"],
  ["60 words are cut to 55 with the more marker", "", "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 w35 w36 w37 w38 w39 w40 w41 w42 w43 w44 w45 w46 w47 w48 w49 w50 w51 w52 w53 w54 w55 w56 w57 w58 w59 w60", 55, "<p>w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 w35 w36 w37 w38 w39 w40 w41 w42 w43 w44 w45 w46 w47 w48 w49 w50 w51 w52 w53 w54 w55 [&hellip;]</p>\n"],
  ["56 words are cut", "", "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 w35 w36 w37 w38 w39 w40 w41 w42 w43 w44 w45 w46 w47 w48 w49 w50 w51 w52 w53 w54 w55 w56", 55, "<p>w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 w35 w36 w37 w38 w39 w40 w41 w42 w43 w44 w45 w46 w47 w48 w49 w50 w51 w52 w53 w54 w55 [&hellip;]</p>\n"],
  ["exactly 55 words are not cut", "", "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 w35 w36 w37 w38 w39 w40 w41 w42 w43 w44 w45 w46 w47 w48 w49 w50 w51 w52 w53 w54 w55", 55, "<p>w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 w35 w36 w37 w38 w39 w40 w41 w42 w43 w44 w45 w46 w47 w48 w49 w50 w51 w52 w53 w54 w55</p>\n"],
  ["a custom length", "", "one two three four five", 3, "<p>one two three [&hellip;]</p>\n"],
  ["length zero keeps only the marker", "", "one two three", 0, "<p> [&hellip;]</p>\n"],
  ["a manual excerpt is formatted, not trimmed", "Manual excerpt \"here\" & more\nsecond line", "ignored content", 2, "<p>Manual excerpt &#8220;here&#8221; &#038; more<br />\nsecond line</p>\n"],
  ["a whitespace-only excerpt counts as empty", "  ", "Generated from <b>content</b>", 55, "<p>Generated from content</p>\n"],
  ["only the teaser before the more tag", "", "Intro text\n<!--more-->\nRest of the post", 55, "<p>Intro text</p>\n"],
  ["block teaser before the more block", "", "<!-- wp:paragraph -->\n<p>Block para \"q\"</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:more -->\n<!--more-->\n<!-- /wp:more -->\n\n<!-- wp:paragraph -->\n<p>After more</p>\n<!-- /wp:paragraph -->", 55, "<p>Block para &#8220;q&#8221;</p>\n"],
  ["only text blocks contribute; groups contribute their inner blocks", "", "<!-- wp:image -->\n<figure class=\"wp-block-image\"><img src=\"a.png\" alt=\"\"/></figure>\n<!-- /wp:image -->\n\n<!-- wp:paragraph -->\n<p>Only text</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:group -->\n<div class=\"wp-block-group\"><!-- wp:paragraph -->\n<p>In group</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:group -->", 55, "<p>Only text In group</p>\n"],
  ["a quote with inner blocks is skipped", "", "<!-- wp:quote -->\n<blockquote class=\"wp-block-quote\"><!-- wp:paragraph -->\n<p>Quoted</p>\n<!-- /wp:paragraph --></blockquote>\n<!-- /wp:quote -->\n\n<!-- wp:paragraph -->\n<p>Para</p>\n<!-- /wp:paragraph -->", 55, "<p>Quoted Para</p>\n"],
  ["registered shortcodes, scripts and tags are removed", "", "Text [gallery ids=\"1\"] and [caption]<img src=\"x\"> Cap[/caption] end <script>bad()</script> a < b", 55, "<p>Text and end a < b\n</p>\n"],
  ["escaped shortcodes stay literal", "", "[[gallery]] shows [gallery] literally", 55, "<p>[gallery] shows literally</p>\n"],
  ["only the first page", "", "Page one text<!--nextpage-->Page two text", 55, "<p>Page one text</p>\n"],
  ["empty content gives an empty excerpt", "", "", 55, ""],
  ["whitespace of every kind separates words", "", "Words\twith\ttabs\nand\r\nnewlines   spaced", 3, "<p>Words with tabs [&hellip;]</p>\n"],
];

for (const [label, rawExcerpt, rawContent, excerptLength, expected] of CASES) {
  test(`renderExcerpt: ${label}`, () => {
    assert.equal(renderExcerpt(rawExcerpt, rawContent, { excerptLength }), expected);
  });
}

test('renderExcerpt: 55 words by default', () => {
  const words = Array.from({ length: 60 }, (_, index) => `w${index + 1}`);
  assert.equal(renderExcerpt('', words.join(' ')), `<p>${words.slice(0, 55).join(' ')} [&hellip;]</p>\n`);
});

test('renderExcerpt: revisions format a stored excerpt but never generate one', () => {
  assert.equal(renderExcerpt('', 'Some content', { generateFromContent: false }), '');
  assert.equal(renderExcerpt('Kept "as is"', 'Some content', { generateFromContent: false }), '<p>Kept &#8220;as is&#8221;</p>\n');
});

test('renderExcerpt: an attachment with no caption takes its text from the prepended file link', () => {
  const attachmentHtml = `<p class="attachment"><a href='http://example.test/wp-content/uploads/doc.pdf'>doc</a></p>`;
  assert.equal(renderExcerpt('', '', { attachmentHtml }), '<p>doc</p>\n');
});

test('teaserOf: first page only, cut at the first more tag, more-block delimiters removed', () => {
  assert.equal(teaserOf('one\n<!--nextpage-->\ntwo'), 'one');
  assert.equal(teaserOf('<!--nextpage-->first<!--nextpage-->second'), 'first');
  assert.equal(teaserOf('intro <!--more Custom text--> rest <!--more--> more'), 'intro ');
  assert.equal(teaserOf('<!-- wp:more -->\n<!--more-->\n<!-- /wp:more -->'), '\n');
  assert.equal(teaserOf('no markers at all'), 'no markers at all');
});

test('renderExcerpt: a generated excerpt is cut from what renderTeaser gives for the teaser', () => {
  const seen: string[] = [];
  const renderTeaser = (text: string) => {
    seen.push(text);
    return '<p>from the cache, many words</p>';
  };
  assert.equal(renderExcerpt('', 'Intro text\n<!--more-->\nRest', { excerptLength: 3, renderTeaser }), '<p>from the cache, [&hellip;]</p>\n');
  assert.deepEqual(seen, ['Intro text\n']);
  assert.equal(renderExcerpt('Stored', 'Content', { renderTeaser }), '<p>Stored</p>\n');
  assert.equal(seen.length, 1, 'a stored excerpt renders no teaser');
});
