/**
 * A save hands the store only the members it changes; the record stored is the one a merge of every member
 * gives, its members in the same order: through settings, texts, terms, meta, the trash and back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../../src/cms.js';
import type { StoragePort } from '../../../src/ports/storage.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';

async function site() {
  const inner = createMemoryStorage();
  const patches: { id: number; patch: Record<string, unknown> }[] = [];
  // Records what each post update asks for, and the record a merge of a full patch would have given.
  const spy = (port: StoragePort): StoragePort => ({
    ...port,
    update: async (collection, id, patch) => {
      if (collection === 'posts') patches.push({ id: Number(id), patch });
      return port.update(collection, id, patch);
    },
    transaction: (work) => port.transaction((tx) => work(spy(tx))),
  });
  const storage = { ...inner, ...spy(inner) };
  const cms = createCms({ storage, responseCache: false });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
  const write = async (method: string, path: string, json: unknown = {}) => {
    const answer = await cms.handle({ method, path: `/cms/v2${path}`, query: '', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json), user: { id: admin.id } });
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { id: number };
  };
  return { inner, cms, write, patches };
}

describe('post saves: the patch a store is handed', () => {
  it('holds the changed members only, and leaves the record as a full merge would', async () => {
    const { inner, write, patches } = await site();
    const tag = await write('POST', '/tags', { name: 'Red' });
    const { id } = await write('POST', '/posts', { title: 'First', content: '<p>Body</p>', status: 'publish', tags: [tag.id], meta: {} });
    const stored = async () => (await inner.get('posts', id))!;
    const lastPatch = () => patches.filter((entry) => entry.id === id).at(-1)!.patch;
    const keysBefore = Object.keys(await stored());

    patches.length = 0;
    await write('POST', `/posts/${id}`, { comment_status: 'closed' });
    const patch = lastPatch();
    assert.equal(patch.comment_status, 'closed');
    for (const unchanged of ['title', 'content', 'excerpt', 'tags', 'categories', 'meta', 'slug', 'type', 'status', 'guid']) {
      assert.ok(!(unchanged in patch), `${unchanged} is not in the patch`);
    }
    assert.deepEqual(Object.keys(await stored()), keysBefore, 'the members keep their order');
    assert.equal((await stored()).comment_status, 'closed');

    await write('POST', `/posts/${id}`, { excerpt: 'Short', tags: [] });
    // The modification time moves only when the clock has moved to another second.
    assert.deepEqual(Object.keys(lastPatch()).filter((key) => !key.startsWith('modified')).sort(), ['excerpt', 'tags']);
    assert.equal((await stored()).excerpt, 'Short');
    assert.deepEqual((await stored()).tags, []);
    assert.deepEqual(Object.keys(await stored()), keysBefore);

    // To the trash and back: the members the trash adds go again, as a merge of `undefined` drops them.
    await write('DELETE', `/posts/${id}`);
    const trashed = await stored();
    assert.equal(trashed.status, 'trash');
    assert.equal(trashed.trashed_slug, 'first');
    await write('POST', `/posts/${id}`, { status: 'publish' });
    const restored = await stored();
    assert.equal(restored.status, 'publish');
    assert.equal(restored.slug, 'first');
    for (const gone of ['trashed_slug', 'trashed_from_status', 'trashed_at']) assert.ok(!Object.hasOwn(restored, gone), `${gone} is gone`);
    assert.deepEqual(Object.keys(restored), keysBefore);
  });

  it('stores what a store handed every member stores, for a record written straight to the store with members missing', async () => {
    const { inner, write } = await site();
    const bare = await inner.insert('posts', { type: 'post', status: 'publish', title: 'Bare', content: '', excerpt: '', date: '2024-01-01T00:00:00', date_gmt: '2024-01-01T00:00:00', slug: 'bare', author: 1 });
    await write('POST', `/posts/${bare.id}`, { title: 'Bare, filled in' });
    const filled = (await inner.get('posts', bare.id))!;
    // Members the record lacked are added after the ones it had, in the order a save lists them.
    assert.deepEqual(Object.keys(filled).slice(0, 9), ['type', 'status', 'title', 'content', 'excerpt', 'date', 'date_gmt', 'slug', 'author']);
    assert.equal(filled.title, 'Bare, filled in');
    for (const added of ['modified', 'parent', 'menu_order', 'password', 'comment_status', 'ping_status', 'guid', 'template', 'meta', 'sticky', 'format', 'categories', 'tags']) {
      assert.ok(Object.hasOwn(filled, added), `${added} was added`);
    }
    const order = Object.keys(filled).slice(10);
    const expected = ['modified', 'modified_gmt', 'parent', 'menu_order', 'password', 'comment_status', 'ping_status', 'guid', 'template', 'featured_media', 'meta', 'sticky', 'format', 'categories', 'tags'];
    assert.deepEqual(order.filter((key) => expected.includes(key)), expected.filter((key) => order.includes(key)));
  });
});
