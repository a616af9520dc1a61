import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { limitNesting, MAX_NESTING_DEPTH } from '../../../src/format/kses/nesting.js';
import { sanitizePostHtml } from '../../../src/content/render/index.js';
import { sanitizeDescription } from '../../../src/users/fields.js';

const deep = (tag: string, depth: number) => `<${tag}>`.repeat(depth);

describe('limitNesting', () => {
  it('leaves documents that nest less than the limit alone, however many elements they have', () => {
    const documents = [
      '<p>x</p>'.repeat(2000),
      `<ul>${'<li>item'.repeat(2000)}</ul>`,
      `${'<p>paragraph without an end tag'.repeat(2000)}`,
      `<table>${'<tr><td>a<td>b'.repeat(1000)}</table>`,
      `<dl>${'<dt>term<dd>definition'.repeat(1000)}</dl>`,
      `${deep('div', MAX_NESTING_DEPTH)}x${'<br><img src="a.png"><hr>'.repeat(500)}`,
      `<svg>${'<path d="M0"/>'.repeat(2000)}</svg>`,
    ];
    for (const html of documents) assert.equal(limitNesting(html), html);
  });

  it('removes start tags that would nest deeper than the limit, keeping their text', () => {
    assert.equal(limitNesting(`${deep('b', 1000)}text`), `${deep('b', MAX_NESTING_DEPTH)}text`);
    assert.equal(limitNesting(`${deep('em', 300)}<i class="x">a</i>b`, 300), `${deep('em', 300)}a</i>b`);
    assert.equal(limitNesting(`${deep('span', 5)}<span>x</span></span>${'<span>'.repeat(3)}`, 5), `${deep('span', 5)}x</span></span><span><span>`);
  });

  it('follows the parser: end tags close what they match, self-closing tags close only inside svg and math', () => {
    assert.equal(limitNesting(`${'<b>x</b>'.repeat(1000)}`, 3), '<b>x</b>'.repeat(1000));
    assert.equal(limitNesting(`${'<b/>'.repeat(5)}`, 3), '<b/>'.repeat(3));
    assert.equal(limitNesting(`<svg>${'<g/>'.repeat(10)}</svg>`, 3), `<svg>${'<g/>'.repeat(10)}</svg>`);
    assert.equal(limitNesting(`${'<b title="</b>">'.repeat(5)}`, 3), '<b title="</b>">'.repeat(3));
    assert.equal(limitNesting(`${'<b><script></b></script>'.repeat(4)}`, 3), `${'<b><script></b></script>'.repeat(3)}<script></b></script>`);
  });

  it('keeps hostile nesting cheap in the sanitisers', () => {
    assert.equal(sanitizePostHtml(`${deep('b', 20_000)}x`), `${deep('b', MAX_NESTING_DEPTH)}x${'</b>'.repeat(MAX_NESTING_DEPTH)}`);
    assert.equal(sanitizeDescription(`${deep('i', 20_000)}x`), `${deep('i', MAX_NESTING_DEPTH)}x${'</i>'.repeat(MAX_NESTING_DEPTH)}`);
  });
});
