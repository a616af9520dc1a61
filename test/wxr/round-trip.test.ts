import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { readWxr } from '../../src/wxr/reader.js';
import type { WxrItem } from '../../src/wxr/records.js';
import { makeCms, SAMPLE, wxr, item } from './fixture.js';

async function exported(cms: ReturnType<typeof makeCms>): Promise<string> {
  let text = '';
  for await (const piece of cms.exportWxr()) text += piece;
  return text;
}

async function itemsOf(file: string): Promise<WxrItem[]> {
  const items: WxrItem[] = [];
  for await (const record of readWxr(file)) if (record.kind === 'item') items.push(record.item);
  return items;
}

describe('export → import into a fresh store → export', () => {
  test('keeps every item, term, author and comment, byte for byte', async () => {
    const first = makeCms();
    await first.importWxr(SAMPLE);
    const once = await exported(first);
    assert.equal(XMLValidator.validate(once), true);

    for (const storage of [undefined, sqliteStorage({ path: ':memory:' })]) {
      const second = makeCms(storage ? { storage } : {});
      const summary = await second.importWxr(once);
      assert.deepEqual(summary.created, { users: 3, categories: 3, tags: 2, posts: 7, pages: 3, attachments: 1, comments: 3 });
      assert.deepEqual(summary.warnings, []);
      assert.equal(await exported(second), once);
    }

    const items = await itemsOf(once);
    assert.equal(items.length, 11);
    assert.deepEqual(items.map((entry) => `${entry.type}:${entry.status}`).sort(), [
      'attachment:inherit', 'page:publish', 'page:publish', 'page:publish', 'post:draft', 'post:future', 'post:pending',
      'post:private', 'post:publish', 'post:publish', 'post:trash',
    ]);
    assert.equal(items.reduce((total, entry) => total + entry.comments.length, 0), 3);
  });

  test('writes the elements WordPress writes, and text no XML parser chokes on', async () => {
    const cms = makeCms({ site: { name: 'A & B <site>' } });
    await cms.importWxr(wxr(item({
      id: 5, type: 'post', title: 'Odd ]]]]><![CDATA[> text \u0001', slug: 'odd', status: 'publish', date: '2024-01-01 00:00:00',
      content: 'keep ]]]]><![CDATA[> this &amp; <b>that</b>',
    })));
    const file = await exported(cms);
    assert.equal(XMLValidator.validate(file), true);
    assert.match(file, /<title>A &amp; B &lt;site&gt;<\/title>/);
    assert.match(file, /<wp:wxr_version>1\.2<\/wp:wxr_version>/);
    assert.match(file, /xmlns:wp="http:\/\/wordpress\.org\/export\/1\.2\/"/);
    for (const element of ['dc:creator', 'guid isPermaLink="false"', 'content:encoded', 'excerpt:encoded', 'wp:post_id', 'wp:post_date_gmt', 'wp:is_sticky']) {
      assert.ok(file.includes(`<${element}>`), element);
    }
    const [read] = await itemsOf(file);
    assert.equal(read!.title, 'Odd ]]> text ');
    assert.equal(read!.content, 'keep ]]> this &amp; <b>that</b>');
  });
});
