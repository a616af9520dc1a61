import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Cms } from '../../src/cms.js';
import type { WxrImportSummary } from '../../src/wxr/index.js';
import { makeCms } from './fixture.js';

/**
 * WordPress's own theme unit test export (test/fixtures/wordpress-theme-unit-test), imported and checked field by
 * field against the file as an independent XML parser reads it; then exported, imported again and exported again.
 */
const FILE = readFileSync(new URL('../fixtures/wordpress-theme-unit-test/themeunittestdata.wordpress.xml', import.meta.url), 'utf8');

type Node = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, processEntities: true, htmlEntities: true,
  isArray: (name) => ['item', 'category', 'wp:comment', 'wp:postmeta', 'wp:commentmeta', 'wp:author', 'wp:category', 'wp:tag', 'wp:term'].includes(name),
});
const channel = (parser.parse(FILE) as { rss: { channel: Node } }).rss.channel;
const items = channel.item as Node[];

/** An element's text, trimmed (the parser trims; the import keeps text as it is). */
const text = (node: Node, name: string): string => {
  const value = node[name];
  if (value === undefined) return '';
  return (typeof value === 'object' ? String((value as Node)['#text'] ?? '') : String(value)).trim();
};
const dateOf = (value: string) => (value === '' || value === '0000-00-00 00:00:00' ? null : value.replace(' ', 'T'));
const metaOf = (node: Node, key: string) => (node['wp:postmeta'] as Node[] | undefined)?.find((meta) => text(meta, 'wp:meta_key') === key);
const COMMENT_STATUSES: Record<string, string> = { 1: 'approved', 0: 'hold', spam: 'spam', trash: 'trash' };

const IMPORTED = new Set(['post', 'page', 'attachment']);
const imported = items.filter((item) => IMPORTED.has(text(item, 'wp:post_type')));
const logins = new Set((channel['wp:author'] as Node[]).map((author) => text(author, 'wp:author_login')));

async function exported(cms: Cms): Promise<string> {
  let file = '';
  for await (const piece of cms.exportWxr()) file += piece;
  return file;
}
const withoutTimes = (file: string) => file.replace(/created="[^"]*"/, '').replace(/<pubDate>[^<]*<\/pubDate>\n/, '');

describe('WordPress\'s theme unit test export', () => {
  let cms: Cms;
  let summary: WxrImportSummary;
  const record = async (collection: string, id: number) => (await cms.deps.storage.get(collection, id)) as Node;
  const newId = (oldId: string) => summary.ids.posts.get(Number(oldId));

  before(async () => {
    cms = makeCms();
    summary = await cms.importWxr(FILE);
  });

  test('every post, page and attachment is made; menus are skipped and counted', () => {
    const count = (type: string) => imported.filter((item) => text(item, 'wp:post_type') === type).length;
    assert.equal(summary.created.posts, count('post'));
    assert.equal(summary.created.pages, count('page'));
    assert.equal(summary.created.attachments, count('attachment'));
    assert.equal(summary.skipped['type:nav_menu_item'], items.filter((item) => text(item, 'wp:post_type') === 'nav_menu_item').length);
    assert.equal(summary.created.comments, imported.reduce((total, item) => total + ((item['wp:comment'] as Node[] | undefined)?.length ?? 0), 0));
  });

  test('each item keeps the fields of the file', async () => {
    for (const item of imported) {
      const oldId = text(item, 'wp:post_id');
      const id = newId(oldId);
      assert.ok(id !== undefined, `item ${oldId} was imported`);
      const post = await record('posts', id);
      const where = `item ${oldId}`;
      const type = text(item, 'wp:post_type');
      assert.equal(post.type, type, where);
      assert.equal(String(post.title).trim(), text(item, 'title'), where);
      assert.equal(String(post.content).trim(), text(item, 'content:encoded'), where);
      assert.equal(String(post.excerpt).trim(), text(item, 'excerpt:encoded'), where);
      assert.equal(post.slug, text(item, 'wp:post_name'), where);
      assert.equal(post.status, text(item, 'wp:status'), where);
      assert.equal(post.date, dateOf(text(item, 'wp:post_date')), where);
      if (dateOf(text(item, 'wp:post_date_gmt')) !== null) assert.equal(post.date_gmt, dateOf(text(item, 'wp:post_date_gmt')), where);
      assert.equal(post.comment_status, text(item, 'wp:comment_status'), where);
      assert.equal(post.ping_status, text(item, 'wp:ping_status'), where);
      assert.equal(post.password, text(item, 'wp:post_password'), where);
      assert.equal(post.menu_order, Number(text(item, 'wp:menu_order') || 0), where);
      assert.equal(post.guid, text(item, 'guid'), where);
      const oldParent = text(item, 'wp:post_parent');
      assert.equal(post.parent, oldParent === '0' || oldParent === '' ? 0 : newId(oldParent) ?? 0, where);

      const creator = text(item, 'dc:creator');
      if (logins.has(creator)) {
        assert.equal(((await record('users', Number(post.author))) as { login: string }).login, creator, where);
      } else {
        assert.equal(post.author, 0, where);
        assert.ok(summary.warnings.some((warning) => warning.includes(`${type} ${oldId} has the author "${creator}"`)), `${where}: a warning for its author "${creator}"`);
      }

      const terms = (item.category as Node[] | undefined) ?? [];
      const slugsOf = (domain: string) => terms.filter((term) => term['@domain'] === domain).map((term) => String(term['@nicename'])).sort();
      if (type === 'post') {
        assert.equal(post.sticky, text(item, 'wp:is_sticky') === '1', where);
        for (const [field, domain] of [['categories', 'category'], ['tags', 'post_tag']] as const) {
          const stored = await Promise.all((post[field] as number[]).map(async (term) => String((await record('terms', term)).slug)));
          // As in the reference, a post filed under no category is filed under the default one.
          const expected = field === 'categories' && slugsOf(domain).length === 0 ? ['uncategorized'] : slugsOf(domain);
          assert.deepEqual(stored.sort(), expected, `${where} ${field}`);
        }
        const format = slugsOf('post_format')[0]?.replace(/^post-format-/, '') ?? 'standard';
        assert.equal(post.format, format, where);
      }
      const template = metaOf(item, '_wp_page_template');
      if (template) assert.equal(post.template, text(template, 'wp:meta_value') === 'default' ? '' : text(template, 'wp:meta_value'), where);
      const thumbnail = metaOf(item, '_thumbnail_id');
      if (thumbnail) assert.equal(post.featured_media, newId(text(thumbnail, 'wp:meta_value')) ?? 0, where);
      if (type === 'attachment') {
        assert.equal(post.source_url, text(item, 'wp:attachment_url'), where);
        const alt = metaOf(item, '_wp_attachment_image_alt');
        assert.equal(post.alt_text, alt ? text(alt, 'wp:meta_value') : '', where);
      }

      const comments = (item['wp:comment'] as Node[] | undefined) ?? [];
      for (const comment of comments) {
        const oldComment = text(comment, 'wp:comment_id');
        const commentId = summary.ids.comments.get(Number(oldComment));
        assert.ok(commentId !== undefined, `${where} comment ${oldComment}`);
        const stored = await record('comments', commentId);
        const at = `${where} comment ${oldComment}`;
        assert.equal(stored.post, id, at);
        assert.equal(String(stored.content).trim(), text(comment, 'wp:comment_content'), at);
        assert.equal(String(stored.author_name).trim(), text(comment, 'wp:comment_author'), at);
        assert.equal(stored.author_email, text(comment, 'wp:comment_author_email'), at);
        assert.equal(stored.author_url, text(comment, 'wp:comment_author_url'), at);
        assert.equal(stored.date, dateOf(text(comment, 'wp:comment_date')), at);
        assert.equal(stored.date_gmt, dateOf(text(comment, 'wp:comment_date_gmt')), at);
        assert.equal(stored.status, COMMENT_STATUSES[text(comment, 'wp:comment_approved') || '1'], at);
        const oldParentComment = text(comment, 'wp:comment_parent');
        assert.equal(stored.parent, oldParentComment === '0' || oldParentComment === '' ? 0 : summary.ids.comments.get(Number(oldParentComment)) ?? 0, at);
      }
    }
  });

  test('exported, imported into a fresh store and exported again, nothing changes', async () => {
    const once = await exported(cms);
    assert.equal((once.match(/<item>/g) ?? []).length, imported.length);
    const second = makeCms();
    const again = await second.importWxr(once);
    assert.deepEqual(again.created, { ...summary.created, categories: again.created.categories, users: again.created.users });
    assert.equal(withoutTimes(await exported(second)), withoutTimes(once));
  });
});
