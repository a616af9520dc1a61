import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { readWxr, type WxrRecord } from '../../src/wxr/reader.js';
import type { WxrSource } from '../../src/wxr/input.js';
import { item, SAMPLE, wxr } from './fixture.js';

async function records(source: WxrSource): Promise<WxrRecord[]> {
  const read: WxrRecord[] = [];
  for await (const record of readWxr(source)) read.push(record);
  return read;
}

async function* pieces<T extends string | Uint8Array>(whole: T, size: number): AsyncGenerator<T> {
  for (let start = 0; start < whole.length; start += size) yield whole.slice(start, start + size) as T;
}

describe('reading a WXR file as a stream', () => {
  test('gives the same records however the file is cut, from text, bytes or streams', async () => {
    const expected = await records(SAMPLE);
    assert.deepEqual(expected.map((record) => record.kind), ['site', 'author', 'author', 'author', 'term', 'term', 'term', 'term', 'term', 'term', ...Array(12).fill('item')]);
    const bytes = new TextEncoder().encode(SAMPLE);
    for (const size of [2, 7, 4096]) assert.deepEqual(await records(pieces(SAMPLE, size)), expected, `text in pieces of ${size}`);
    for (const size of [3, 64]) assert.deepEqual(await records(pieces(bytes, size)), expected, `bytes in pieces of ${size}`);
    assert.deepEqual(await records(bytes), expected);
    assert.deepEqual(await records(Readable.from(pieces(Buffer.from(SAMPLE), 333))), expected);
    assert.deepEqual(await records(new Blob([SAMPLE]).stream()), expected);
    assert.deepEqual(await records(`\uFEFF${SAMPLE}`), expected);
  });

  test('reads text the way WordPress wrote it: CDATA as is, entities decoded outside it, multibyte characters whole', async () => {
    const file = wxr(item({
      id: 5, type: 'post', title: 'Caf\u00e9 \u2615 &amp; more', slug: 'cafe', status: 'publish', date: '2024-01-01 00:00:00',
      content: '<p>a &amp; b ]]]]><![CDATA[> c</p>',
      extra: '\t\t<category domain="post_tag" nicename="t&amp;g">Tag &lt;1&gt; &#8217; &#x1F600;</category>\n',
    }));
    for (const size of [1, 3]) {
      const read = (await records(pieces(new TextEncoder().encode(file), size))).find((record) => record.kind === 'item');
      assert.ok(read?.kind === 'item');
      assert.equal(read.item.title, 'Caf\u00e9 \u2615 &amp; more');
      assert.equal(read.item.content, '<p>a &amp; b ]]> c</p>');
      assert.deepEqual(read.item.terms, [{ taxonomy: 'post_tag', slug: 't&g', name: 'Tag <1> \u2019 \u{1F600}' }]);
    }
  });

  test('skips the channel\'s other elements and the items\' unknown ones', async () => {
    const file = wxr(`\t<image><url>x</url></image>\n\t<cloud domain="x"/>\n${item({
      id: 5, type: 'post', title: 'T', slug: 't', status: 'publish', date: '2024-01-01 00:00:00', extra: '<plugin:data><deep a="1">x</deep></plugin:data>\n',
    })}`);
    const read = await records(file);
    assert.equal(read.filter((record) => record.kind === 'item').length, 1);
  });
});
