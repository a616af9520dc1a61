import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTitle } from '../../../src/content/render/index.js';

// Expected outputs come from running the reference implementation's own PHP functions on the same inputs.
// Prefix rules follow the REST representation: "Private: " for private posts, no "Protected: ".
const CASES: ReadonlyArray<readonly [string, string, string, boolean, string]> = [
  ["curly quotes in a published title", "Hello \"World\"", "publish", false, "Hello &#8220;World&#8221;"],
  ["private titles get the Private prefix", "Priv", "private", false, "Private: Priv"],
  ["password-protected titles get no prefix", "Secret", "publish", true, "Secret"],
  ["a password wins over the private status", "Both", "private", true, "Both"],
  ["trimmed, ampersand encoded, brand capitalised", "  Wordpress & Co -- it's  ", "draft", false, "WordPress &#038; Co &#8212; it&#8217;s"],
  ["HTML in titles is kept", "<b>Bold</b> title...", "publish", false, "<b>Bold</b> title&#8230;"],
  ["entities are kept", "A &amp; B &#8211; C", "publish", false, "A &amp; B &#8211; C"],
];

for (const [label, raw, status, hasPassword, expected] of CASES) {
  test(`renderTitle: ${label}`, () => {
    assert.equal(renderTitle(raw, { status, hasPassword }), expected);
  });
}

test('renderTitle: the Protected prefix is available where it is shown (oEmbed)', () => {
  const options = { status: 'publish', hasPassword: true, protectedPrefix: true };
  assert.equal(renderTitle('Secret "one"', options), 'Protected: Secret &#8220;one&#8221;');
  assert.equal(renderTitle('Open', { ...options, hasPassword: false }), 'Open');
});
