import { test } from 'node:test';
import assert from 'node:assert/strict';
import { texturize } from '../../../src/content/render/index.js';

// Expected outputs come from running the reference implementation's own PHP functions on the same inputs.
const CASES: ReadonlyArray<readonly [string, string, string]> = [
  ["dashes, ellipsis, times sign, quotes", "foo -- bar --- baz... 3x4 \"quoted\" it's", "foo &#8212; bar &#8212; baz&#8230; 3&#215;4 &#8220;quoted&#8221; it&#8217;s"],
  ["primes and abbreviated years", "It's 9' tall and 5\" wide. In '99 we said 'twas fine.", "It&#8217;s 9&#8242; tall and 5&#8243; wide. In &#8217;99 we said &#8217;twas fine."],
  ["nested quotes", "She said, \"He said 'hi' to me.\"", "She said, &#8220;He said &#8216;hi&#8217; to me.&#8221;"],
  ["quoted numbers", "'42' and \"3.14\" and (\"paren\") and ['bracket']", "&#8217;42&#8217; and &#8220;3.14&#8221; and (&#8220;paren&#8221;) and [&#8216;bracket&#8217;]"],
  ["code, pre and kbd are untouched", "<code>don't \"touch\"</code> <pre>\"x\"</pre> <kbd>--</kbd> but don't", "<code>don't \"touch\"</code> <pre>\"x\"</pre> <kbd>--</kbd> but don&#8217;t"],
  ["HTML comments are untouched", "<!-- a \"comment\" --> \"text\"", "<!-- a \"comment\" --> &#8220;text&#8221;"],
  ["bare ampersands are encoded, entities kept", "x & y &amp; z &copy; &#123; <a href=\"x?a=1&b=2\">l</a>", "x &#038; y &amp; z &copy; &#123; <a href=\"x?a=1&#038;b=2\">l</a>"],
  ["code shortcode is untouched, others are texturized", "[code]'raw' \"x\"[/code] then 'cooked' [unknown \"x\"]", "[code]&#8217;raw&#8217; &#8220;x&#8221;[/code] then &#8216;cooked&#8217; [unknown &#8220;x&#8221;]"],
  ["registered shortcode tags are untouched", "Text [caption id=\"x\"]<img src=\"a.png\"> \"cap\"[/caption]", "Text [caption id=\"x\"]<img src=\"a.png\"> &#8220;cap&#8221;[/caption]"],
  ["hex numbers and dimensions", "0x9999 and 2x4 and 10.5x3", "0x9999 and 2&#215;4 and 10.5&#215;3"],
  ["dash rules", "- dash at start\n2--3 and a - b\nxn--abc", "&#8211; dash at start\n2&#8211;3 and a &#8211; b\nxn--abc"],
  ["no-break spaces count as spaces", "a&nbsp;\"b\"&nbsp;-&nbsp;c and a\u00a0-\u00a0b", "a&nbsp;&#8220;b&#8221;&nbsp;&#8211;&nbsp;c and a\u00a0&#8211;\u00a0b"],
  ["trademark and backtick quotes", "text (tm) and ``quoted'' words", "text &#8482; and &#8220;quoted&#8221; words"],
  ["zero is returned as is", "0", "0"],
];

for (const [label, input, expected] of CASES) {
  test(`texturize: ${label}`, () => {
    assert.equal(texturize(input), expected);
  });
}

test('texturize: only registered shortcodes are protected', () => {
  assert.equal(texturize('[note "x"]', ['note']), '[note "x"]');
  assert.equal(texturize('[note "x"]', []), '[note &#8220;x&#8221;]');
});
