import { test } from 'node:test';
import assert from 'node:assert/strict';
import { autop } from '../../../src/content/render/index.js';

// Expected outputs come from running the reference implementation's own PHP functions on the same inputs.
const CASES: ReadonlyArray<readonly [string, string, string]> = [
  ["blank lines make paragraphs, single newlines line breaks", "Line one\nLine two\n\nSecond paragraph", "<p>Line one<br />\nLine two</p>\n<p>Second paragraph</p>\n"],
  ["Windows line endings", "a\r\nb\r\n\r\nc", "<p>a<br />\nb</p>\n<p>c</p>\n"],
  ["lists and headings are not wrapped", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n\n<h2>Heading</h2>\nText after", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<h2>Heading</h2>\n<p>Text after</p>\n"],
  ["pre contents are preserved", "<pre>code here\n\n  indented</pre>\n\nAfter pre", "<pre>code here\n\n  indented</pre>\n<p>After pre</p>\n"],
  ["text inside a div gets its own paragraphs", "<div>inside div\n\nsecond</div>", "<div>inside div</p>\n<p>second</p></div>\n"],
  ["blockquote gets the paragraph inside", "<blockquote>quoted\nline</blockquote>", "<blockquote><p>quoted<br />\nline</p></blockquote>\n"],
  ["existing paragraphs are kept", "<p>already para</p>\n\n<p>two</p>", "<p>already para</p>\n<p>two</p>\n"],
  ["double br becomes a paragraph break", "one<br>two<br/><br />three", "<p>one<br />two</p>\n<p>three</p>\n"],
  ["script and svg keep their newlines", "<script>var a = 1;\n\nvar b;</script>\n\nText\n<svg>\n<path d=\"M0\"/>\n</svg>", "<p><script>var a = 1;</p>\n<p>var b;</script></p>\n<p>Text<br />\n<svg>\n<path d=\"M0\"/>\n</svg></p>\n"],
  ["newlines inside tags are kept", "<img src=\"x.png\" alt=\"a\nb\">\n\ntext", "<p><img src=\"x.png\" alt=\"a\nb\"></p>\n<p>text</p>\n"],
  ["hr ends a paragraph", "<hr>\ntext", "<hr>\n<p>text</p>\n"],
  ["table rows are left alone", "<table>\n<tr>\n<td>a\nb</td>\n</tr>\n</table>", "<table>\n<tr>\n<td>a<br />\nb</td>\n</tr>\n</table>\n"],
  ["options and figcaptions are collapsed", "<select><option>a</option>\n<option>b</option></select>\n<figure><img src=\"x\"/>\n<figcaption>cap</figcaption></figure>", "<p><select><option>a</option><option>b</option></select></p>\n<figure><img src=\"x\"/><figcaption>cap</figcaption></figure>\n"],
  ["audio and video sources are collapsed", "<video controls>\n<source src=\"a.mp4\">\n<track src=\"b.vtt\">\n</video>", "<p><video controls><source src=\"a.mp4\"><track src=\"b.vtt\"></video></p>\n"],
  ["whitespace only gives nothing", "  \n\t ", ""],
  ["the more comment sits in its own paragraph", "Intro text\n<!--more-->\nRest of the post", "<p>Intro text<br />\n<!--more--><br />\nRest of the post</p>\n"],
];

for (const [label, input, expected] of CASES) {
  test(`autop: ${label}`, () => {
    assert.equal(autop(input), expected);
  });
}

test('autop: without line breaks, single newlines stay newlines', () => {
  assert.equal(autop('one\ntwo\n\nthree', false), '<p>one\ntwo</p>\n<p>three</p>\n');
});
