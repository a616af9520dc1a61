import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sanitizePostHtml, sanitizeTitleHtml } from '../../../src/content/render/index.js';

// Expected outputs come from running the reference implementation's own PHP functions on the same inputs.
// Void elements are written with " />" by the sanitiser; otherwise these match the reference byte for byte.
const POST_CASES: ReadonlyArray<readonly [string, string, string]> = [
  ["scripts, event handlers and iframes are removed", "<script>alert(1)</script><p onclick=\"x\">hi</p><iframe src=\"x\"></iframe>", "alert(1)<p>hi</p>"],
  ["javascript: is cut from links, allowed links kept", "<a href=\"javascript:alert(1)\">x</a> <a href=\"http://ok.test/?a=1&b=2\" target=\"_blank\" rel=\"noopener\">ok</a>", "<a href=\"alert(1)\">x</a> <a href=\"http://ok.test/?a=1&amp;b=2\" target=\"_blank\" rel=\"noopener\">ok</a>"],
  ["obfuscated schemes are caught", "<a href=\"JAVASCRIPT:alert(1)\">x</a><a href=\"jav&#x09;ascript:alert(1)\">y</a>", "<a href=\"alert(1)\">x</a><a href=\"alert(1)\">y</a>"],
  ["other allowed schemes and relative URLs are kept", "<a href=\"mailto:a@b.test\">m</a><a href=\"tel:123\">t</a><a href=\"//cdn.test/x\">p</a><a href=\"page.html#x\">r</a>", "<a href=\"mailto:a@b.test\">m</a><a href=\"tel:123\">t</a><a href=\"//cdn.test/x\">p</a><a href=\"page.html#x\">r</a>"],
  ["global attributes are allowed", "<p class=\"a\" data-foo=\"bar\" aria-label=\"l\">x</p><h2 id=\"anchor\" class=\"wp-block-heading\">H</h2>", "<p class=\"a\" data-foo=\"bar\" aria-label=\"l\">x</p><h2 id=\"anchor\" class=\"wp-block-heading\">H</h2>"],
  ["block comments survive", "<!-- wp:paragraph {\"align\":\"center\"} -->\n<p class=\"has-text-align-center\">c</p>\n<!-- /wp:paragraph -->", "<!-- wp:paragraph {\"align\":\"center\"} -->\n<p class=\"has-text-align-center\">c</p>\n<!-- /wp:paragraph -->"],
  ["bare ampersands are encoded", "Tom & Jerry &amp; &copy; <b>bold</b>", "Tom &amp; Jerry &amp; &copy; <b>bold</b>"],
  ["unsafe style declarations are dropped", "<p style=\"color: red; position: absolute; background-image: url(javascript:x)\">s</p>", "<p style=\"color: red\">s</p>"],
  ["css functions and custom properties are allowed", "<div style=\"width: calc(100% - 10px); margin: var(--x)\">c</div><span style=\"--my-var: 3px\">v</span>", "<div style=\"width: calc(100% - 10px);margin: var(--x)\">c</div><span style=\"--my-var: 3px\">v</span>"],
  ["svg and math are removed, text kept", "<svg onload=alert(1)><circle/></svg><math><mi>x</mi></math>", "x"],
  ["list and table attributes", "<ol start=\"3\" reversed><li value=\"2\">x</li></ol><table><tr><td colspan=\"2\">x</td></tr></table>", "<ol start=\"3\" reversed><li value=\"2\">x</li></ol><table><tr><td colspan=\"2\">x</td></tr></table>"],
  ["text comparisons are escaped", "<p>5 > 3 and 2 < 4</p>", "<p>5 &gt; 3 and 2 &lt; 4</p>"],
];

const TITLE_CASES: ReadonlyArray<readonly [string, string, string]> = [
  ["inline formatting kept, script removed, ampersand encoded", "<b>Bold</b> & <script>x</script>", "<b>Bold</b> &amp; x"],
  ["block elements and attributes outside the title list are removed", "<p class=\"x\"><a href=\"http://x.test\" class=\"y\" title=\"t\">link</a></p><em>e</em>", "<a href=\"http://x.test\" title=\"t\">link</a><em>e</em>"],
];

for (const [label, input, expected] of POST_CASES) {
  test(`sanitizePostHtml: ${label}`, () => {
    assert.equal(sanitizePostHtml(input), expected);
  });
}

for (const [label, input, expected] of TITLE_CASES) {
  test(`sanitizeTitleHtml: ${label}`, () => {
    assert.equal(sanitizeTitleHtml(input), expected);
  });
}

test('sanitizePostHtml: data: URLs lose their scheme and event handlers are dropped', () => {
  assert.equal(
    sanitizePostHtml('<img src="data:image/png;base64,xx" alt="" onerror="x"><img src="/rel.png" alt="r" width="10">'),
    '<img src="image/png;base64,xx" alt="" /><img src="/rel.png" alt="r" width="10" />',
  );
});

test('sanitizePostHtml: no executable markup survives common attack vectors', () => {
  const attacks = [
    '<img src=x onerror=alert(1)//>',
    '<a href=" javascript:alert(1)">z</a>',
    '<a href="&#106;avascript:alert(1)">e</a>',
    '<svg><script>alert(1)</script></svg>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<p style="background:url(javascript:alert(1))">s</p>',
    '<!--><script>alert(1)</script>-->',
    '<object data="javascript:alert(1)"></object><embed src="x.swf">',
  ];
  for (const attack of attacks) {
    const clean = sanitizePostHtml(attack);
    assert.doesNotMatch(clean, /<script|<iframe|<object|<embed|<svg|\son\w+=|javascript:/i, `${attack} -> ${clean}`);
  }
});

test('sanitizePostHtml: a comment the parser reads as an attribute value is not put back there', () => {
  const clean = sanitizePostHtml('<a title="x>" href="<!-- " onmouseover="alert(1) -->">l</a>');
  assert.equal(clean, '<a title="x&gt;" href="">l</a>');
});

test('sanitizePostHtml: comments are kept with their text sanitised and no double dashes', () => {
  assert.equal(sanitizePostHtml('<!-- a -- b --><p>x</p>'), '<!-- a - b --><p>x</p>');
  assert.equal(sanitizePostHtml('<!--<b onclick="x">y</b>-->'), '<!--<b>y</b>-->');
});

test('sanitizePostHtml and sanitizeTitleHtml: text without markup characters comes out as it is, as through the sanitiser', () => {
  const texts = ['He said "hi" — it\'s 1/250 s', 'ünï 😀\u00a0\u2028 tab\there', "`x` ${y} \\ = ; % # ! ? ( ) [ ] { } ~ ^ * + , . |", '', 'line\nbreak\r\n'];
  for (const text of texts) {
    for (const sanitize of [sanitizePostHtml, sanitizeTitleHtml]) {
      assert.equal(sanitize(text), text);
      assert.equal(sanitize(`\x01${text}\x1f`), text, 'control characters are still removed');
      // The same text next to markup goes through the sanitiser, which leaves it alone too.
      assert.equal(sanitize(`${text}<b>x</b>`), `${text}<b>x</b>`);
    }
  }
});
