/**
 * Fragments kept by record revision: a write to one post leaves the other posts' fragments in use (they are not
 * prepared again), and every write that changes what a fragment shows — an edit of the post, a term rename, an
 * author rename, a settings change, a scheduled post falling due, an autosave — gives the same answer, byte for
 * byte, as a site keeping no fragments.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms, type Cms } from '../../../src/cms.js';
import { FragmentCache } from '../../../src/core/cache/fragments.js';
import { Generation } from '../../../src/core/cache/generation.js';
import { lastingFragmentKey, type FragmentScope } from '../../../src/core/cache/policy.js';
import { EncodedJson, encodeResponse } from '../../../src/core/encode.js';
import type { Condition, StoragePort } from '../../../src/ports/storage.js';
import { fixedClock } from '../../../src/ports/clock.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';

/** A store that counts, per post id, the revision-history reads made when preparing that post. */
function counted(storage: StoragePort) {
  const prepared = new Map<number, number>();
  const wrapper = Object.create(storage) as StoragePort;
  wrapper.list = (collection, query) => {
    const parent = query?.where?.find((condition): condition is Extract<Condition, { op: 'eq' }> => 'field' in condition && condition.field === 'parent' && condition.op === 'eq');
    if (collection === 'posts' && parent && query?.limit === 1) prepared.set(Number(parent.value), (prepared.get(Number(parent.value)) ?? 0) + 1);
    return storage.list(collection, query);
  };
  return { storage: wrapper, prepared };
}

async function sites() {
  const { storage, prepared } = counted(createMemoryStorage());
  const clock = fixedClock('2024-05-01T12:00:00Z');
  const fast = createCms({ storage, clock, responseCache: false });
  const slow = createCms({ storage, clock, responseCache: false, viewFragments: false });
  const user = await fast.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'], name: 'Ada' });
  await fast.users.createApplicationPassword(user.id, { name: 'tests', password: 'adminpassword12345' });
  const auth = { authorization: `Basic ${Buffer.from('admin:adminpassword12345').toString('base64')}`, 'content-type': 'application/json' };
  const write = async (method: string, path: string, json: unknown, through: Cms[] = [fast]) => {
    let body: unknown;
    for (const cms of through) {
      const answer = await cms.handle({ method, path: `/cms/v2${path}`, query: '', headers: auth, body: JSON.stringify(json) });
      assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      body = answer.body;
    }
    return body as { id: number };
  };
  const wire = async (cms: Cms, path: string, query: string) => {
    const encoded = encodeResponse(await cms.handle({ method: 'GET', path: `/cms/v2${path}`, query, headers: {} }));
    return `${encoded.status} ${JSON.stringify(encoded.headers)}\n${Buffer.from(encoded.body ?? new Uint8Array(0)).toString('utf8')}`;
  };
  /** The answer of the fragment site, checked against the site keeping none. */
  const read = async (path: string, query = '') => {
    const actual = await wire(fast, path, query);
    assert.equal(actual, await wire(slow, path, query), `GET ${path}?${query}`);
    return JSON.parse(actual.slice(actual.indexOf('\n') + 1)) as unknown;
  };
  /** The fragment site's answer alone. */
  const readFast = (path: string, query = '') => wire(fast, path, query);
  return { fast, slow, clock, write, read, readFast, prepared, userId: user.id };
}

describe('view fragments kept by revision', () => {
  it('a write to one post leaves the others prepared once; edits of what a fragment shows answer afresh', async () => {
    const site = await sites();
    const tag = (await site.write('POST', '/tags', { name: 'alpha' })).id;
    const other = (await site.write('POST', '/tags', { name: 'beta' })).id;
    const a = (await site.write('POST', '/posts', { title: 'A', content: 'first', status: 'publish', tags: [tag, other] })).id;
    const b = (await site.write('POST', '/posts', { title: 'B', content: 'second', status: 'publish', tags: [tag, other] })).id;
    const lists = ['per_page=10', 'per_page=10&context=embed'];
    const readAll = async () => {
      for (const query of lists) await site.read('/posts', query);
      await site.read(`/posts/${a}`);
      await site.read(`/posts/${b}`);
    };
    await readAll();
    const preparedB = site.prepared.get(b) ?? 0;

    await site.write('POST', `/posts/${a}`, { title: 'A edited' });
    for (const query of lists) await site.readFast('/posts', query);
    await site.readFast(`/posts/${b}`);
    assert.equal(site.prepared.get(b) ?? 0, preparedB, 'B is not prepared again after a write to A');
    const preparedA = site.prepared.get(a) ?? 0;
    await site.readFast('/posts', 'per_page=10');
    assert.equal(site.prepared.get(a), preparedA, 'A, prepared once after its edit, is kept again');
    await readAll();
    const body = await site.read('/posts', 'per_page=10') as { id: number; title: { rendered: string } }[];
    assert.equal(body.find((post) => post.id === a)?.title.rendered, 'A edited');

    // Each of these changes what B's fragment shows, or may: the answers follow.
    await site.write('POST', `/tags/${tag}`, { name: 'zeta' });
    const renamed = await site.read('/posts', 'per_page=10') as { id: number; tags: number[] }[];
    assert.deepEqual(renamed.find((post) => post.id === b)?.tags, [other, tag], 'terms ordered by their new names');
    await readAll();
    await site.write('POST', `/users/${site.userId}`, { name: 'Grace', slug: 'grace' });
    await readAll();
    await site.write('POST', '/settings', { timezone: 'Europe/Paris', title: 'Renamed' }, [site.slow, site.fast]);
    await readAll();
    await site.readFast('/posts', 'per_page=10');
    const history = async () => ((await site.read(`/posts/${b}`)) as { _links: Record<string, { count?: number }[]> })._links['version-history']![0]!.count;
    const countBefore = await history();
    await site.write('POST', `/posts/${b}/autosaves`, { title: 'B draft', content: 'autosaved' });
    assert.equal(await history(), countBefore! + 1, 'the autosave counts among the revisions');
    await readAll();
    const preparedAfter = site.prepared.get(b) ?? 0;
    await site.write('POST', `/posts/${b}`, { excerpt: 'B edited' });
    const afterEdit = site.prepared.get(b) ?? 0;
    assert.ok(afterEdit > preparedAfter);
    await site.readFast('/posts', 'per_page=10');
    // Its history is the one the write's answer read in the same state of the store (the others' are kept), for its
    // revision and its links alike: it is not read again.
    assert.equal(site.prepared.get(b), afterEdit, 'an edit of B prepares it again for the list, with the history its write read');
    await readAll();

    // A scheduled post falling due: its answer and the list follow the clock.
    const due = (await site.write('POST', '/posts', { title: 'Later', status: 'future', date_gmt: '2024-05-01T13:00:00' })).id;
    const before = await site.read('/posts', 'per_page=10') as { id: number }[];
    assert.ok(!before.some((post) => post.id === due));
    site.clock.advance(2 * 60 * 60 * 1000);
    const after = await site.read('/posts', 'per_page=10') as { id: number; status: string }[];
    assert.equal(after.find((post) => post.id === due)?.status, 'publish');
    await site.read(`/posts/${due}`);
    await readAll();
  });
});

describe('fragments kept by revision, the cache and the key', () => {
  const generation = (serial: number, settings: object = {}) => new Generation(`token ${serial}`, settings, 1, Infinity, serial);

  it('outlive a new generation; an older generation neither reads nor keeps them', () => {
    const cache = new FragmentCache();
    const fragment = new EncodedJson(new Uint8Array([0x31]));
    const [first, second] = [generation(1), generation(2)];
    cache.setLasting(first, 'k', fragment);
    cache.set(first, 'g', fragment);
    assert.equal(cache.getLasting(second, 'k'), fragment, 'kept across generations');
    assert.equal(cache.get(second, 'g'), undefined, 'generation-bound fragments still go');
    assert.equal(cache.getLasting(first, 'k'), undefined, 'an older generation reads nothing');
    cache.setLasting(first, 'old', fragment);
    assert.equal(cache.getLasting(second, 'old'), undefined, 'nor keeps anything');
    assert.equal(cache.lastingSize, 1);
  });

  it('the key follows the settings object and the revision; the edit context has none', () => {
    const settings = {};
    const scope = (serial: number, of: object) => ({ generation: generation(serial, of) }) as unknown as FragmentScope;
    const key = lastingFragmentKey(scope(1, settings), 'base', 'view', 'r1');
    assert.ok(key !== null);
    assert.equal(lastingFragmentKey(scope(2, settings), 'base', 'view', 'r1'), key, 'the same across generations of one settings object');
    assert.notEqual(lastingFragmentKey(scope(2, {}), 'base', 'view', 'r1'), key, 'other settings, another key');
    assert.notEqual(lastingFragmentKey(scope(1, settings), 'base', 'view', 'r2'), key, 'another revision, another key');
    assert.equal(lastingFragmentKey(scope(1, settings), 'base', 'edit', 'r1'), null);
  });
});
