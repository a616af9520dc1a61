/**
 * A record's revision history is read once per answer: its fragment's revision and its links (`version-history`,
 * `predecessor-version`) share the answer's reading. Every change of the history shows at once, in lists and
 * single reads, byte for byte as on a site keeping no fragments: revisions added through the interface and
 * straight to the store, with the same date as the newest (the tie is broken by id), deleted, and for records
 * whose fragment names no revision (featured media). A write's answer reads its record's terms and history the
 * same way, and shows every change made since, straight to the store too, as a site keeping no facts does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../../src/cms.js';
import { encodeResponse } from '../../../src/core/encode.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const REVISION = { type: 'revision', status: 'inherit', title: 'Old', content: 'Old', excerpt: '' };

async function site() {
  const storage = createMemoryStorage();
  const cms = createCms({ storage, responseCache: false });
  const reference = createCms({ storage, responseCache: false, viewFragments: false });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
  const write = async (method: string, path: string, json: unknown = {}) => {
    const answer = await cms.handle({ method, path: `/cms/v2${path}`, query: '', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json), user: { id: admin.id } });
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { id: number };
  };
  const upload = async () => {
    const answer = await cms.handle({
      method: 'POST', path: '/cms/v2/media', body: GIF, user: { id: admin.id },
      headers: { 'content-type': 'image/gif', 'content-disposition': 'attachment; filename="pixel.gif"' },
    });
    assert.equal(answer.status, 201);
    return (answer.body as { id: number }).id;
  };
  const wire = async (of: typeof cms, path: string, query: string) => {
    const encoded = encodeResponse(await of.handle({ method: 'GET', path: `/cms/v2${path}`, query, headers: {} }));
    return `${encoded.status} ${JSON.stringify(encoded.headers)}\n${Buffer.from(encoded.body ?? new Uint8Array(0)).toString('utf8')}`;
  };
  /** The answer, checked against the site keeping nothing; read twice (the second from what the first kept). */
  const read = async (path: string, query = '') => {
    const expected = await wire(reference, path, query);
    for (let round = 0; round < 2; round += 1) assert.equal(await wire(cms, path, query), expected, `${path}?${query}, read ${round + 1}`);
    return JSON.parse(expected.slice(expected.indexOf('\n') + 1)) as unknown;
  };
  return { storage, write, upload, read };
}

type Linked = { id: number; _links: Record<string, { count?: number; id?: number }[]> };
const historyOf = (post: Linked) => [post._links['version-history']![0]!.count, post._links['predecessor-version']?.[0]?.id ?? null];

describe('post answers: one reading of a revision history for the revision and the links', () => {
  it('shows every change of a history in lists and single reads', async () => {
    const { storage, write, upload, read } = await site();
    const ids: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      ids.push((await write('POST', '/posts', { title: `Post ${index}`, status: 'publish', date: `2024-04-0${index + 1}T10:00:00` })).id);
    }
    const [plain, featured] = [ids[1]!, ids[2]!];
    await write('POST', `/posts/${featured}`, { featured_media: await upload() });
    const listed = async (id: number) => historyOf((await read('/posts') as Linked[]).find((post) => post.id === id)!);
    const single = async (id: number) => historyOf(await read(`/posts/${id}`) as Linked);

    for (const id of [plain, featured]) {
      const revisions = async () => (await storage.list('posts', {
        where: [{ field: 'parent', op: 'eq', value: id }, { field: 'type', op: 'eq', value: 'revision' }], orderBy: [{ field: 'id', direction: 'desc' }],
      })).items.map((record) => record.id as number);
      const before = await revisions();
      assert.deepEqual(await listed(id), [before.length, before[0] ?? null]);
      await write('POST', `/posts/${id}`, { content: `Edited ${id}` });
      const made = await revisions();
      assert.equal(made.length, before.length + 1);
      const revision = made[0]!;
      const count = made.length;
      assert.deepEqual(await listed(id), [count, revision]);
      assert.deepEqual(await single(id), [count, revision]);

      // Straight to the store: a newer revision, then one of the same date (the later id is the newer).
      const newer = await storage.insert('posts', { ...REVISION, parent: id, date: '2030-01-01T00:00:00', date_gmt: '2030-01-01T00:00:00' });
      assert.deepEqual(await listed(id), [count + 1, newer.id]);
      assert.deepEqual(await single(id), [count + 1, newer.id]);
      const tied = await storage.insert('posts', { ...REVISION, parent: id, date: '2030-01-01T00:00:00', date_gmt: '2030-01-01T00:00:00' });
      assert.deepEqual(await single(id), [count + 2, tied.id]);
      assert.deepEqual(await listed(id), [count + 2, tied.id]);

      // Removed again: the history falls back to the revision made through the interface.
      await storage.remove('posts', tied.id);
      await storage.remove('posts', newer.id);
      assert.deepEqual(await listed(id), [count, revision]);
      assert.deepEqual(await single(id), [count, revision]);
    }
  });
});

describe('write answers: terms and revision history as kept across states, every change seen', () => {
  it('answer as a site keeping no facts, after term renames and revisions straight to the store', async () => {
    const storage = createMemoryStorage();
    // The same store, telling no writes: nothing is kept across its states, everything is read afresh.
    const plainStorage = Object.create(storage) as typeof storage;
    plainStorage.writtenSince = undefined;
    const cms = createCms({ storage, responseCache: false });
    const plain = createCms({ storage: plainStorage, responseCache: false });
    const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
    const send = async (of: typeof cms, method: string, path: string, json?: unknown) => {
      const answer = await of.handle({
        method, path: `/cms/v2${path}`, query: method === 'GET' ? 'context=edit' : '', user: { id: admin.id },
        headers: json === undefined ? {} : { 'content-type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json),
      });
      assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body as Linked & { tags: number[]; comment_status: string };
    };
    const tags: number[] = [];
    for (const name of ['alpha', 'beta', 'gamma']) tags.push((await send(cms, 'POST', '/tags', { name })).id);
    const post = (await send(cms, 'POST', '/posts', { title: 'Tagged', content: 'Text', status: 'publish', tags })).id;
    const check = async (step: string, fields: Record<string, unknown>) => {
      const written = await send(cms, 'POST', `/posts/${post}`, fields);
      const fresh = await send(plain, 'GET', `/posts/${post}`);
      assert.deepEqual(written.tags, fresh.tags, `${step}: tags`);
      assert.deepEqual(historyOf(written), historyOf(fresh), `${step}: history`);
      assert.deepEqual(written._links, fresh._links, `${step}: links`);
      return written;
    };
    await check('first', { comment_status: 'closed' });
    await check('again', { comment_status: 'open' });
    // A term renamed straight to the store: the answer orders the tags by the new names.
    await storage.update('terms', tags[0]!, { name: 'zulu' });
    assert.deepEqual((await check('renamed', { comment_status: 'closed' })).tags, [tags[1], tags[2], tags[0]]);
    // A revision straight to the store, then removed: the answer's history follows.
    const revision = await storage.insert('posts', { ...REVISION, parent: post, date: '2030-01-01T00:00:00', date_gmt: '2030-01-01T00:00:00' });
    assert.deepEqual(historyOf(await check('revision added', { comment_status: 'open' }))[1], revision.id);
    await storage.remove('posts', revision.id);
    assert.notEqual(historyOf(await check('revision removed', { comment_status: 'closed' }))[1], revision.id);
    // Through the interface: an edit making a revision, a term renamed, a tag removed.
    await check('edited', { content: 'Text edited' });
    await send(cms, 'POST', `/tags/${tags[1]}`, { name: 'aardvark' });
    assert.deepEqual((await check('renamed through the interface', { comment_status: 'open' })).tags, [tags[1], tags[2], tags[0]]);
    assert.deepEqual((await check('a tag removed', { tags: [tags[0], tags[2]] })).tags, [tags[2], tags[0]]);
  });
});

describe('lists after a write: the history its answer read', () => {
  it('is taken in the very state of the store it was read in, for that record only', async () => {
    const storage = createMemoryStorage();
    // The same store, telling no writes: no history is kept or taken over, each is read afresh.
    const plainStorage = Object.create(storage) as typeof storage;
    plainStorage.writtenSince = undefined;
    const cms = createCms({ storage, responseCache: false });
    const plain = createCms({ storage: plainStorage, responseCache: false, viewFragments: false });
    const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
    const write = async (path: string, json: unknown) => {
      const answer = await cms.handle({ method: 'POST', path: `/cms/v2${path}`, query: '', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json), user: { id: admin.id } });
      assert.ok(answer.status < 300, `${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body as Linked;
    };
    const wire = async (of: typeof cms) => {
      const encoded = encodeResponse(await of.handle({ method: 'GET', path: '/cms/v2/posts', query: 'per_page=10', headers: {} }));
      return `${encoded.status} ${JSON.stringify(encoded.headers)}\n${Buffer.from(encoded.body ?? new Uint8Array(0)).toString('utf8')}`;
    };
    const same = async (step: string) => assert.equal(await wire(cms), await wire(plain), step);
    const ids: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      ids.push((await write('/posts', { title: `Post ${index}`, content: `Text ${index}`, status: 'publish', date: `2024-04-0${index + 1}T10:00:00` })).id);
    }
    for (let round = 0; round < 3; round += 1) await write(`/posts/${ids[0]}`, { content: `Text 0, round ${round}` });
    // No list read yet: no history is kept, and only the one the last write's answer read may be taken.
    await same('first list');
    await write(`/posts/${ids[1]}`, { content: 'Edited' });
    await same('after an edit');
    await write(`/posts/${ids[1]}`, { content: 'Edited again' });
    await storage.insert('posts', { ...REVISION, parent: ids[1], date: '2030-01-01T00:00:00', date_gmt: '2030-01-01T00:00:00' });
    await same('after a revision straight to the store');
    await write(`/posts/${ids[2]}`, { content: 'Edited' });
    const removed = await write(`/posts/${ids[2]}`, { content: 'Edited again' });
    await storage.remove('posts', removed._links['predecessor-version']![0]!.id!);
    await same('after a revision removed straight from the store');
    await write(`/posts/${ids[3]}`, { content: 'Edited' });
    await storage.update('posts', ids[0]!, { comment_status: 'closed' });
    await same('after a write to another record straight to the store');
    await write(`/posts/${ids[3]}`, { content: 'Edited again' });
    await write(`/posts/${ids[0]}`, { content: 'Edited once more' });
    await same('after edits of two records');
  });
});
