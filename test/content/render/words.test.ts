import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stripAllTags, trimWords } from '../../../src/content/render/index.js';

// Expected outputs come from running the reference implementation's own PHP functions on the same inputs.
const TRIM_CASES: ReadonlyArray<readonly [string, string, number, string | null, string]> = [
  ["default marker", "one two three four", 2, null, "one two&hellip;"],
  ["tags stripped before counting", "<p>one <b>two</b></p><p>three</p>", 2, " [&hellip;]", "one twothree"],
  ["no cut when short enough", "  one   two  ", 5, null, "one two"],
];

const STRIP_CASES: ReadonlyArray<readonly [string, string, string]> = [
  ["tags, comments and scripts removed", "<p>a <!-- c --> <script>x()</script><b>b</b></p> < c", "a  b < c"],
  ["quoted > inside attributes", "<a title=\"x > y\" href=\"#\">link</a> after", "link after"],
  ["unterminated tag swallows the rest", "before <b unterminated", "before"],
];

for (const [label, text, count, more, expected] of TRIM_CASES) {
  test(`trimWords: ${label}`, () => {
    assert.equal(more === null ? trimWords(text, count) : trimWords(text, count, more), expected);
  });
}

for (const [label, html, expected] of STRIP_CASES) {
  test(`stripAllTags: ${label}`, () => {
    assert.equal(stripAllTags(html), expected);
  });
}
