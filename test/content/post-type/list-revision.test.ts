/**
 * A list's records told together (`listRevisionNow`): after a write that changes none of what a list shows, its
 * revision is told again without a look at each record, and the list found whole. Each write that does change it
 * shows at once, byte for byte as on a site keeping no fragments: a listed post's field that makes no revision,
 * its author, status (out of the list and back), deletion, featured media and terms, a new post entering the page,
 * a setting the links follow, and, on SQLite, another connection's commit to a listed post. What a list's revision
 * was told from holds no record: an old version of a listed post is not kept alive by it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createCms } from '../../../src/cms.js';
import { keptHistoriesOf } from '../../../src/content/post-type/fragment-revision.js';
import { encodeResponse } from '../../../src/core/encode.js';
import type { StoragePort } from '../../../src/ports/storage.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';
import { sqliteStorage } from '../../../src/storage/sqlite/index.js';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

interface Post {
  id: number; comment_status: string; author: number; featured_media: number; tags: number[]; link: string;
  _links: Record<string, { count?: number }[]>;
}

async function site(storage: StoragePort) {
  const cms = createCms({ storage, responseCache: false });
  const reference = createCms({ storage, responseCache: false, viewFragments: false });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
  const editor = await cms.users.create({ login: 'editor', email: 'editor@site.test', roles: ['editor'] });
  await cms.users.createApplicationPassword(admin.id, { name: 'tests', password: 'adminpassword12345' });
  const auth = { authorization: `Basic ${Buffer.from('admin:adminpassword12345').toString('base64')}` };
  const write = async (method: string, path: string, json: unknown = {}) => {
    const [route, query = ''] = path.split('?') as [string, string?];
    const answer = await cms.handle({ method, path: `/cms/v2${route}`, query, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(json) });
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { id: number };
  };
  const upload = async () => {
    const answer = await cms.handle({
      method: 'POST', path: '/cms/v2/media', body: GIF,
      headers: { ...auth, 'content-type': 'image/gif', 'content-disposition': 'attachment; filename="pixel.gif"' },
    });
    assert.equal(answer.status, 201);
    return (answer.body as { id: number }).id;
  };
  const wire = async (of: typeof cms) => {
    const encoded = encodeResponse(await of.handle({ method: 'GET', path: '/cms/v2/posts', query: 'per_page=5', headers: {} }));
    return { text: `${encoded.status} ${JSON.stringify(encoded.headers)}\n${Buffer.from(encoded.body ?? new Uint8Array(0)).toString('utf8')}`, bytes: encoded.body };
  };
  /** The list, as the site keeping nothing answers it; `bytes`: the body as sent, to tell a list found whole. */
  const list = async () => {
    const expected = (await wire(reference)).text;
    const { text, bytes } = await wire(cms);
    assert.equal(text, expected);
    return { posts: JSON.parse(text.slice(text.indexOf('\n') + 1)) as Post[], bytes };
  };
  return { write, upload, list, editor: editor.id, served: cms.deps.storage };
}

async function writesShow(storage: StoragePort, other?: StoragePort) {
  const { write, upload, list, editor, served } = await site(storage);
  const tag = (await write('POST', '/tags', { name: 'alpha' })).id;
  const beta = (await write('POST', '/tags', { name: 'beta' })).id;
  const ids: number[] = [];
  for (let index = 0; index < 8; index += 1) {
    const date = `2024-04-0${index + 1}T10:00:00`;
    ids.push((await write('POST', '/posts', { title: `Post ${index}`, status: 'publish', date, tags: [tag, beta] })).id);
  }
  const [outside, listed] = [ids[0]!, ids[5]!];
  const find = (posts: Post[], id: number) => posts.find((post) => post.id === id);
  await list();
  const before = await list();

  // Writes outside the list leave it as it was: found whole, the very same bytes.
  await write('POST', `/posts/${outside}`, { comment_status: 'closed' });
  const kept = await list();
  assert.deepEqual(kept.posts, before.posts);
  assert.equal(kept.bytes, before.bytes, 'found whole after a write to another post');
  // Edits of a post outside the list, each making a revision: its history, read by the edit's answer, is not
  // kept, so no kept history is dropped and the list's revision is told again without a look at each record.
  const histories = keptHistoriesOf(served)!;
  const drops = histories.drops;
  for (let round = 0; round < 3; round += 1) {
    await write('POST', `/posts/${outside}`, { excerpt: `Edited ${round}` });
    assert.equal((await list()).bytes, before.bytes, `found whole after edit ${round} of another post`);
    assert.equal(histories.drops, drops, `no kept history dropped by edit ${round} of another post`);
  }
  /**
   * A write outside the list, then a read: each record's revision is told on the way, so the list's revision is
   * kept from then on; the change that follows is seen through it.
   */
  let toggle = false;
  const settle = async () => {
    toggle = !toggle;
    await storage.update('posts', outside, { comment_status: toggle ? 'open' : 'closed' });
    await list();
  };

  // A listed post's field written straight to the store: no revision, no term written with it.
  await settle();
  await storage.update('posts', listed, { comment_status: 'closed' });
  assert.equal(find((await list()).posts, listed)!.comment_status, 'closed');
  await settle();
  await storage.update('posts', listed, { comment_status: 'open' });
  assert.equal(find((await list()).posts, listed)!.comment_status, 'open');

  // A revision of a listed post and a term's name, straight to the store: its history and the order of its tags.
  const history = async () => find((await list()).posts, listed)!._links['version-history']![0]!.count!;
  await settle();
  const count = await history();
  await settle();
  await storage.insert('posts', { type: 'revision', status: 'inherit', parent: listed, date: '2024-05-01T12:00:00', date_gmt: '2024-05-01T12:00:00' });
  assert.equal(await history(), count + 1);
  assert.deepEqual(find((await list()).posts, listed)!.tags, [tag, beta]);
  await settle();
  await storage.update('terms', tag, { name: 'omega' });
  assert.deepEqual(find((await list()).posts, listed)!.tags, [beta, tag]);

  // A listed post's field that makes no revision, and its author.
  await write('POST', `/posts/${listed}`, { comment_status: 'closed' });
  assert.equal(find((await list()).posts, listed)!.comment_status, 'closed');
  await write('POST', `/posts/${listed}`, { author: editor });
  assert.equal(find((await list()).posts, listed)!.author, editor);

  // Out of the list and back, by status; deleted; a new post entering the page.
  await write('POST', `/posts/${listed}`, { status: 'draft' });
  assert.equal(find((await list()).posts, listed), undefined);
  await write('POST', `/posts/${listed}`, { status: 'publish' });
  assert.ok(find((await list()).posts, listed));
  await write('DELETE', `/posts/${listed}`);
  assert.equal(find((await list()).posts, listed), undefined);
  await write('DELETE', `/posts/${listed}?force=true`);
  await list();
  const entering = (await write('POST', '/posts', { title: 'New', status: 'publish', date: '2024-04-20T10:00:00' })).id;
  assert.equal((await list()).posts[0]!.id, entering);

  // Featured media: set, then the media itself changed and removed.
  const media = await upload();
  await write('POST', `/posts/${ids[7]}`, { featured_media: media });
  assert.equal(find((await list()).posts, ids[7]!)!.featured_media, media);
  await list();
  await write('POST', `/media/${media}`, { title: 'Renamed media' });
  await list();
  await write('DELETE', `/media/${media}?force=true`);
  await list();

  // Terms: renamed, deleted.
  await write('POST', `/tags/${tag}`, { name: 'zeta' });
  await list();
  await write('DELETE', `/tags/${tag}?force=true`);
  assert.deepEqual(find((await list()).posts, ids[6]!)!.tags, [beta]);

  // A setting the links follow, there and back: the list follows each.
  await write('POST', '/settings', { url: 'http://moved.test' });
  assert.match(find((await list()).posts, ids[6]!)!.link, /^http:\/\/moved\.test\//);
  await write('POST', '/settings', { url: 'http://localhost' });
  assert.match(find((await list()).posts, ids[6]!)!.link, /^http:\/\/localhost\//);
  await write('POST', '/settings', { url: 'http://moved.test' });
  assert.match(find((await list()).posts, ids[6]!)!.link, /^http:\/\/moved\.test\//);

  if (!other) return;
  // Another connection's commits: a listed post's field with no revision, and a term added to it.
  await list();
  await other.update('posts', ids[6]!, { comment_status: 'closed' });
  assert.equal(find((await list()).posts, ids[6]!)!.comment_status, 'closed');
  const gamma = await other.insert('terms', { taxonomy: 'post_tag', name: 'gamma', slug: 'gamma', description: '', parent: 0, count: 0 });
  await other.update('posts', ids[6]!, { tags: [gamma.id] });
  assert.deepEqual(find((await list()).posts, ids[6]!)!.tags, [gamma.id]);
}

describe('a list told by its records together', () => {
  it('keeps no old version of a listed record alive', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const storage = createMemoryStorage();
    const { write, list } = await site(storage);
    const ids: number[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await write('POST', '/posts', { title: `Post ${index}`, status: 'publish' })).id);
    await list();
    await list();
    const shared = async () => (await storage.list('posts', { where: [{ field: 'id', op: 'eq', value: ids[0]! }], shared: true })).items[0]!;
    const old = new WeakRef(await shared());
    await storage.update('posts', ids[0]!, { comment_status: 'closed' });
    assert.notEqual(await shared(), old.deref(), 'the store shares a new version');
    // More commits than the store remembers for `writtenSince` (it holds the versions they wrote), to another record.
    for (let index = 0; index < 300; index += 1) await storage.update('posts', ids[2]!, { comment_status: index % 2 === 0 ? 'closed' : 'open' });
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    assert.equal(old.deref(), undefined);
  });

  it('on the memory store: a write to another post keeps the list whole, every change shows', async () => {
    await writesShow(createMemoryStorage());
  });

  it('on SQLite, with another connection writing too: every change shows', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-list-revision-'));
    const storage = sqliteStorage({ path: join(folder, 'site.db') });
    const other = sqliteStorage({ path: join(folder, 'site.db') });
    try {
      await writesShow(storage, other);
    } finally {
      await storage.close?.();
      await other.close?.();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
