import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderContent } from '../../../src/content/render/index.js';

// Expected outputs come from running the reference implementation's own PHP functions on the same inputs.
const SMILEYS = { smileyImageBaseUrl: 'http://example.test/wp-includes/images/smilies/' };

const CASES: ReadonlyArray<readonly [string, string, string]> = [
  ["classic content: texturize and paragraphs", "Line one\nLine two\n\nfoo -- bar --- baz... 3x4 \"quoted\" it's", "<p>Line one<br />\nLine two</p>\n<p>foo &#8212; bar &#8212; baz&#8230; 3&#215;4 &#8220;quoted&#8221; it&#8217;s</p>\n"],
  ["block content: delimiters removed, no paragraphs added, more tag kept", "<!-- wp:paragraph -->\n<p>Block para \"q\"</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:more -->\n<!--more-->\n<!-- /wp:more -->\n\n<!-- wp:paragraph -->\n<p>After more</p>\n<!-- /wp:paragraph -->", "\n<p>Block para &#8220;q&#8221;</p>\n\n\n\n<!--more-->\n\n\n\n<p>After more</p>\n"],
  ["nested and void blocks", "<!-- wp:heading {\"level\":3} -->\n<h3>Title</h3>\n<!-- /wp:heading -->\n\n<!-- wp:separator /-->\n\nfree text\n\n<!-- wp:columns -->\n<div class=\"wp-block-columns\"><!-- wp:column -->\n<div class=\"wp-block-column\"><!-- wp:paragraph -->\n<p>col</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column --></div>\n<!-- /wp:columns -->", "\n<h3>Title</h3>\n\n\n\n\nfree text\n\n\n<div class=\"wp-block-columns\">\n<div class=\"wp-block-column\">\n<p>col</p>\n</div>\n</div>\n"],
  ["shortcode block gets paragraphs", "<!-- wp:shortcode -->\n[foo]\nbar\n<!-- /wp:shortcode -->", "<p>[foo]<br />\nbar</p>\n"],
  ["classic more tag stays a comment", "Intro text\n<!--more-->\nRest of the post", "<p>Intro text<br />\n<!--more--><br />\nRest of the post</p>\n"],
  ["images and iframes get loading and decoding", "<img src=\"a.png\" width=\"10\" height=\"20\" class=\"wp-image-5\"> and <iframe src=\"x\" width=\"1\" height=\"2\"></iframe> <img src=\"b.png\">", "<p><img decoding=\"async\" loading=\"lazy\" src=\"a.png\" width=\"10\" height=\"20\" class=\"wp-image-5\"> and <iframe loading=\"lazy\" src=\"x\" width=\"1\" height=\"2\"></iframe> <img decoding=\"async\" src=\"b.png\"></p>\n"],
  ["smileys become emoji, not inside code", "Hello :) and ;-) and :mrgreen: <code>:)</code>", "<p>Hello 🙂 and 😉 and <img src=\"http://example.test/wp-includes/images/smilies/mrgreen.png\" alt=\":mrgreen:\" class=\"wp-smiley\" style=\"height: 1em; max-height: 1em;\" /> <code>:)</code></p>\n"],
  ["brand capitalised only after a space or bracket", "Wordpress and (Wordpress) and https://wordpress.org/Wordpress/", "<p>WordPress and (WordPress) and https://wordpress.org/Wordpress/</p>\n"],
  ["standalone registered shortcode is not wrapped in a paragraph", "[gallery ids=\"1,2\"]\n\nText", "[gallery ids=\"1,2\"]\n<p>Text</p>\n"],
  ["empty content", "", ""],
  ["unclosed block is closed at the end", "<!-- wp:paragraph -->\n<p>unclosed block", "\n<p>unclosed block"],
  ["stray closer leaves the rest as it is", "text before <!-- /wp:paragraph --> stray closer", "<p>text before <!-- /wp:paragraph --> stray closer</p>\n"],
];

for (const [label, input, expected] of CASES) {
  test(`renderContent: ${label}`, () => {
    assert.equal(renderContent(input, SMILEYS), expected);
  });
}

test('renderContent: image smileys stay text when no image URL is configured', () => {
  assert.equal(renderContent(':mrgreen: :)'), '<p>:mrgreen: \u{1F642}</p>\n');
});

test('renderContent: attachment markup goes before the formatted description', () => {
  const attachmentHtml = `<p class="attachment"><a href='http://example.test/wp-content/uploads/doc.pdf'>doc</a></p>`;
  assert.equal(
    renderContent('A "description"\n\nline two', { attachmentHtml }),
    `${attachmentHtml}\n<p>A &#8220;description&#8221;</p>\n<p>line two</p>\n`,
  );
  assert.equal(renderContent('', { attachmentHtml }), `${attachmentHtml}\n`);
});

test('renderContent: URLs alone on a line or in a paragraph are embedded when the resolver knows them', () => {
  const iframe = '<iframe src="https://video.test/embed/1" width="10" height="5"></iframe>';
  const lazyIframe = '<iframe loading="lazy" src="https://video.test/embed/1" width="10" height="5"></iframe>';
  const resolveEmbed = (url: string) => (url.includes('video.test') ? iframe : undefined);
  const raw = 'Before\n\nhttps://video.test/v/1\n\nhttps://unknown.test/x\n\nsee https://video.test/v/1 inline\n<p>https://video.test/v/2</p>';
  assert.equal(
    renderContent(raw, { resolveEmbed }),
    `<p>Before</p>\n<p>${lazyIframe}</p>\n<p>https://unknown.test/x</p>\n<p>see https://video.test/v/1 inline</p>\n<p>${lazyIframe}</p>\n`,
  );
});

test('renderContent: dynamic blocks are rendered by the supplied renderer', () => {
  const seen: Array<string | null> = [];
  const html = renderContent('<!-- wp:latest-posts {"postsToShow":2} /-->\n<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->', {
    renderDynamicBlock: (block) => {
      seen.push(block.blockName);
      return block.blockName === 'core/latest-posts' ? `<ul><li>${String(block.attrs?.postsToShow)} posts</li></ul>` : undefined;
    },
  });
  assert.equal(html, '<ul><li>2 posts</li></ul>\n\n<p>x</p>\n');
  assert.deepEqual(seen, ['core/latest-posts', 'core/paragraph']);
});

test('renderContent: attachment images are passed to the image hook before lazy loading is decided', () => {
  const calls: number[] = [];
  const html = renderContent('<img src="a.png" class="wp-image-5">', {
    attachmentImage: (tag, id) => {
      calls.push(id);
      return tag.replace('<img', '<img width="300" height="200"');
    },
  });
  assert.deepEqual(calls, [5]);
  assert.equal(html, '<p><img decoding="async" loading="lazy" width="300" height="200" src="a.png" class="wp-image-5"></p>\n');
});
