import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { item, makeCms, wxr } from './fixture.js';

const meta = (key: string, value: string) =>
  `\t\t<wp:postmeta>\n\t\t\t<wp:meta_key><![CDATA[${key}]]></wp:meta_key>\n\t\t\t<wp:meta_value><![CDATA[${value}]]></wp:meta_value>\n\t\t</wp:postmeta>\n`;

const comment = (id: number, approved: string, userId: number, parent = 0) => `\t\t<wp:comment>
\t\t\t<wp:comment_id>${id}</wp:comment_id>
\t\t\t<wp:comment_author><![CDATA[Visitor]]></wp:comment_author>
\t\t\t<wp:comment_date><![CDATA[2024-03-11 10:00:00]]></wp:comment_date>
\t\t\t<wp:comment_content><![CDATA[Hello]]></wp:comment_content>
\t\t\t<wp:comment_approved><![CDATA[${approved}]]></wp:comment_approved>
\t\t\t<wp:comment_parent>${parent}</wp:comment_parent>
\t\t\t<wp:comment_user_id>${userId}</wp:comment_user_id>
\t\t\t<wp:commentmeta><wp:meta_key><![CDATA[akismet_result]]></wp:meta_key><wp:meta_value><![CDATA[false]]></wp:meta_value></wp:commentmeta>
\t\t</wp:comment>
`;

describe('what an import drops or defaults is a warning of its summary', () => {
  test('a malformed or unknown author, meta with no field, a bad comment status, links to records not in the file', async () => {
    const file = wxr([
      item({ id: 1, type: 'post', title: 'Malformed author', slug: 'a', status: 'publish', date: '2024-01-01 12:00:00', creator: '>jane' }),
      item({ id: 2, type: 'page', title: 'No author', slug: 'b', status: 'publish', date: '2024-01-02 12:00:00', creator: '' }),
      item({
        id: 3, type: 'post', title: 'Kept author', slug: 'c', status: 'publish', date: '2024-01-03 12:00:00',
        extra: meta('enclosure', 'http://old.example/a.mp3') + meta('_edit_last', '2') + meta('_oembed_abc', '{}') + meta('_thumbnail_id', '99')
          + comment(5, 'maybe', 0) + comment(6, '1', 77, 404),
      }),
      item({ id: 4, type: 'post', title: 'Also enclosed', slug: 'd', status: 'publish', date: '2024-01-04 12:00:00', extra: meta('enclosure', 'x') }),
    ].join(''));
    const cms = makeCms();
    const summary = await cms.importWxr(file);
    const lines = summary.warnings.join('\n');
    assert.match(lines, /^line \d+: post 1 has the author ">jane", who is not among the file's authors or this site's users; stored without an author$/m);
    assert.match(lines, /^line \d+: page 2 has no author; stored without an author$/m);
    assert.match(lines, /^line \d+: comment 5 has the status "maybe"; stored as hold$/m);
    assert.match(lines, /^line \d+: comment 6 names user 77, who is not among the file's authors; stored without a user$/m);
    assert.match(lines, /^comment \d+: the comment it answers \(404 in the file\) is not in the file; it answers none$/m);
    assert.match(lines, /^post \d+: its featured image \(99 in the file\) is not an image of the file; it has none$/m);
    assert.match(lines, /^meta "enclosure" has no field here and was not kept \(2 records\)$/m);
    assert.match(lines, /^meta "akismet_result" has no field here and was not kept \(2 records\)$/m);
    // The reference's own bookkeeping (edit locks, oEmbed caches) is not content: no warning.
    assert.doesNotMatch(lines, /_edit_last|_oembed_/);
    assert.equal(summary.warnings.length, 8, lines);
    assert.equal((await cms.deps.storage.get('posts', summary.ids.posts.get(3)!))!.author, (await cms.users.find('jane'))!.id);
    assert.equal((await cms.deps.storage.get('posts', summary.ids.posts.get(1)!))!.author, 0);
  });

  test('a comment or ping status other than open or closed, an unknown post format, a featured image that is no id', async () => {
    const format = (slug: string) => `\t\t<category domain="post_format" nicename="post-format-${slug}"><![CDATA[${slug}]]></category>\n`;
    const file = wxr([
      item({ id: 1, type: 'post', title: 'Odd statuses', slug: 'a', status: 'publish', date: '2024-01-01 12:00:00', commentStatus: 'maybe', pingStatus: 'later' }),
      item({ id: 2, type: 'post', title: 'Odd format', slug: 'b', status: 'publish', date: '2024-01-02 12:00:00', extra: format('hologram') + meta('_thumbnail_id', 'abc') }),
      item({ id: 3, type: 'post', title: 'Known format', slug: 'c', status: 'publish', date: '2024-01-03 12:00:00', commentStatus: 'closed', extra: format('aside') }),
      item({ id: 4, type: 'page', title: 'Default statuses', slug: 'd', status: 'publish', date: '2024-01-04 12:00:00', commentStatus: '', pingStatus: '' }),
    ].join(''));
    const cms = makeCms();
    const summary = await cms.importWxr(file);
    const lines = summary.warnings.join('\n');
    assert.match(lines, /^line \d+: post 1 has the comment status "maybe"; stored as closed$/m);
    assert.match(lines, /^line \d+: post 1 has the ping status "later"; stored as closed$/m);
    assert.match(lines, /^line \d+: post 2 has the format "hologram"; stored as standard$/m);
    assert.match(lines, /^line \d+: post 2 has the featured image "abc", which is not an id; it has none$/m);
    assert.equal(summary.warnings.length, 4, lines);
    const stored = async (oldId: number) => (await cms.deps.storage.get('posts', summary.ids.posts.get(oldId)!))!;
    assert.deepEqual([(await stored(1)).comment_status, (await stored(1)).ping_status], ['closed', 'closed']);
    assert.equal((await stored(2)).format, 'standard');
    assert.deepEqual([(await stored(3)).comment_status, (await stored(3)).format], ['closed', 'aside']);
    // Left empty, as the reference, the type's defaults apply and nothing is said.
    assert.deepEqual([(await stored(4)).comment_status, (await stored(4)).ping_status], ['closed', 'closed']);
  });
});
