import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import type { HttpClient } from '../../src/ports/http-client.js';
import { WxrError, type WxrImportOptions } from '../../src/wxr/index.js';
import { item, makeCms, PNG, SAMPLE, SAMPLE_ITEMS, wxr } from './fixture.js';

/** Records in every collection an import writes to. */
async function totals(cms: ReturnType<typeof makeCms>): Promise<number[]> {
  const counts: number[] = [];
  for (const collection of ['users', 'terms', 'posts', 'comments']) {
    counts.push((await cms.deps.storage.list(collection, { limit: 0, withTotal: true })).total ?? -1);
  }
  return counts;
}

/** The 1-based line of the first occurrence of `text`. */
function lineOf(file: string, text: string): number {
  return file.slice(0, file.indexOf(text)).split('\n').length;
}

async function refused(file: string | Uint8Array, expected: { code: string; line?: number; message: RegExp }, options: WxrImportOptions = {}) {
  for (const storage of [undefined, sqliteStorage({ path: ':memory:' })]) {
    const cms = makeCms(storage ? { storage } : {});
    await cms.users.create({ login: 'admin', email: 'admin@new.example', roles: ['administrator'] });
    const before = await totals(cms);
    await assert.rejects(cms.importWxr(file, options), (error: unknown) => {
      assert.ok(error instanceof WxrError, String(error));
      assert.equal(error.code, expected.code);
      if (expected.line !== undefined) assert.equal(error.line, expected.line, error.message);
      assert.match(error.message, expected.message);
      return true;
    });
    assert.deepEqual(await totals(cms), before, 'nothing of the file is kept');
  }
}

describe('a malformed file is refused with its line, and nothing of it is kept', () => {
  test('a tag closed out of order on the last item, after many records were written', async () => {
    const file = wxr(`${SAMPLE_ITEMS}\t<item><title>Broken</title><wp:post_id>99</wp:post_id>\n\t\t<wp:post_type>post</wp:status>\n\t</item>\n`);
    await refused(file, { code: 'wxr_parse_error', line: lineOf(file, '<wp:post_type>post</wp:status>'), message: /<\/wp:status> does not close <wp:post_type> \(opened on line \d+\)/ });
  });

  test('an item without its post type or with an impossible date', async () => {
    const noType = wxr(SAMPLE_ITEMS + item({ id: 50, type: '', title: 'No type', slug: 'x', status: 'publish', date: '2024-01-01 00:00:00' }));
    await refused(noType, { code: 'wxr_invalid', line: lineOf(noType, '<title><![CDATA[No type') - 1, message: /<item>: <wp:post_type> is missing or empty/ });
    const badDate = wxr(item({ id: 51, type: 'post', title: 'Bad date', slug: 'x', status: 'publish', date: '2024-13-45 99:00:00' }));
    await refused(badDate, { code: 'wxr_invalid', message: /<wp:post_date> holds "2024-13-45 99:00:00", not a date/ });
  });

  test('files that are not WordPress exports', async () => {
    await refused('<html><body>hi</body></html>', { code: 'wxr_parse_error', line: 1, message: /the root element is <html>, not <rss>/ });
    await refused('<rss><channel><title>x</title><item><wp:post_id>1</wp:post_id></item></channel></rss>', {
      code: 'wxr_invalid', line: 1, message: /<wp:wxr_version> is missing/,
    });
    await refused('', { code: 'wxr_parse_error', message: /no <rss> element/ });
    await refused(SAMPLE.slice(0, SAMPLE.indexOf('Members only')), { code: 'wxr_parse_error', message: /the file ends inside a CDATA section in <title> \(opened on line \d+\)/ });
    await refused('<?xml version="1.0" encoding="ISO-8859-1"?><rss/>', { code: 'wxr_parse_error', message: /only UTF-8 is read/ });
    await refused(new Uint8Array([...Buffer.from('<rss><channel><title>'), 0xff, 0xfe, ...Buffer.from('</title></channel></rss>')]), {
      code: 'wxr_parse_error', message: /not valid UTF-8/,
    });
  });
});

describe('hostile files', () => {
  test('no document type, so no entity can be declared or expanded', async () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<rss><channel><title>&b;</title></channel></rss>`;
    await refused(laughs, { code: 'wxr_parse_error', line: 2, message: /document type declarations are not accepted/ });
  });

  test('element and attribute names cannot reach a prototype', async () => {
    const element = wxr(item({ id: 5, type: 'post', title: 'x', slug: 'x', status: 'publish', date: '2024-01-01 00:00:00', extra: '<__proto__><polluted>yes</polluted></__proto__>\n' }));
    await refused(element, { code: 'wxr_parse_error', message: /named __proto__, constructor or prototype/ });
    // Attributes the import does not read are dropped unread, whatever their names.
    const attribute = wxr(item({ id: 5, type: 'post', title: 'x', slug: 'x', status: 'publish', date: '2024-01-01 00:00:00', extra: '<category domain="category" nicename="a" __proto__="1" constructor="2">A</category>\n' }));
    const summary = await makeCms().importWxr(attribute);
    assert.equal(summary.created.categories, 4);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('values that name prototype members are only values', async () => {
    const cms = makeCms();
    const summary = await cms.importWxr(wxr(item({
      id: 5, type: '__proto__', title: 'x', slug: 'x', status: 'publish', date: '2024-01-01 00:00:00',
    }) + item({ id: 6, type: 'post', title: 'y', slug: '__proto__', status: 'constructor', date: '2024-01-01 00:00:00', extra: '<category domain="__proto__" nicename="constructor">x</category>\n' })));
    assert.equal(summary.skipped['type:__proto__'], 1);
    assert.equal(summary.skipped['taxonomy:__proto__'], 1);
    assert.equal(summary.created.posts, 1);
    assert.match(summary.warnings[0]!, /has the status "constructor"; stored as draft/);
  });

  test('limits: file size, item size, item count, nesting depth', async () => {
    await refused(SAMPLE, { code: 'wxr_too_large', message: /larger than 1000 bytes/ }, { maxBytes: 1000 });
    await refused(SAMPLE, { code: 'wxr_too_large', line: lineOf(SAMPLE, '<item>'), message: /<item> is longer than 2000 characters/ }, { maxItemLength: 2000 });
    await refused(SAMPLE, { code: 'wxr_too_large', message: /more than 11 items/ }, { maxItems: 11 });
    await refused(SAMPLE, { code: 'wxr_too_large', message: /more than 3 authors and terms/ }, { maxItems: 3 });
    const deep = wxr(item({ id: 5, type: 'post', title: 'x', slug: 'x', status: 'publish', date: '2024-01-01 00:00:00', extra: `${'<x>'.repeat(40)}${'</x>'.repeat(40)}\n` }));
    await refused(deep, { code: 'wxr_too_large', message: /nested deeper than 18 levels/ });
    const comment = `<!--${'-'.repeat(5000)}`;
    await refused(`<rss>${comment}`, { code: 'wxr_too_large', message: /longer than 4000 characters/ }, { maxItemLength: 4000 });
  });

  test('files fetched before a failure are removed again', async () => {
    const fetched: string[] = [];
    const httpClient: HttpClient = { fetch: async (request) => { fetched.push(request.url); return { status: 200, headers: {}, body: PNG, url: request.url }; } };
    const cms = makeCms({ httpClient });
    const file = wxr(`${SAMPLE_ITEMS}\t<item><wp:post_id>99</wp:post_id></item>\n`);
    await assert.rejects(cms.importWxr(file, { fetchAttachments: true }), { code: 'wxr_invalid' });
    assert.equal(fetched.length, 1);
    assert.deepEqual(await cms.deps.blobs.list(''), []);
  });
});
