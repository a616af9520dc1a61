/** Remembered slugs (`sanitizeTitle` of the post-type kit) equal the reference's rule applied afresh. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sanitizeTitle } from '../../../src/content/post-type/slug.js';
import { sanitizeTitle as sanitizeTitleNow } from '../../../src/format/slug.js';

test('remembered slugs equal fresh ones, whatever fallback each ask names', () => {
  const texts = ['Hello World', 'Ünïcödé title', '<b>Tagged</b> -- text', '', '   ', '!!!', '日本語', 'x'.repeat(1_200), 'Post 1', 'post-1'];
  for (let round = 0; round < 2; round++) {
    for (const text of texts) {
      // A text without a slug gives each ask its own fallback, never one remembered from another ask.
      assert.equal(sanitizeTitle(text, `fallback-${round}`), sanitizeTitleNow(text, `fallback-${round}`), text);
      assert.equal(sanitizeTitle(text), sanitizeTitleNow(text), text);
    }
  }
});

test('many different texts are all answered right past the bound', () => {
  for (let index = 0; index < 1_500; index++) {
    const text = `Title ${index} ${index % 3 === 0 ? 'Ça' : ''}`;
    assert.equal(sanitizeTitle(text, '7'), sanitizeTitleNow(text, '7'));
  }
  assert.equal(sanitizeTitle('Title 3 Ça'), sanitizeTitleNow('Title 3 Ça'));
});
