/**
 * The first read of a list after a write: three sites on one store — one computing every answer from kept view
 * fragments (no response cache), one keeping answers too, one keeping nothing — get the same list requests after
 * each write that changes what the list shows (a listed post's title, its terms and their names, its author's name,
 * its revision history, a setting, a scheduled post falling due) and after writes that do not (another post). The
 * answers are the same byte for byte, the change shows at once, on the memory store, SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCms } from '../../../src/cms.js';
import { encodeResponse } from '../../../src/core/encode.js';
import { fixedClock } from '../../../src/ports/clock.js';
import type { StoragePort } from '../../../src/ports/storage.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';
import { postgresStorage } from '../../../src/storage/postgres/index.js';
import { sqliteStorage } from '../../../src/storage/sqlite/index.js';
import { startTestPostgres } from '../../storage/postgres-server.js';

interface Post {
  id: number;
  date: string;
  link: string;
  status: string;
  title: { rendered: string };
  tags: number[];
  _links: Record<string, { count?: number }[]>;
  _embedded?: { author: { name: string }[] };
}

async function sites(storage: StoragePort) {
  const clock = fixedClock('2024-05-01T12:00:00Z');
  const uncached = createCms({ storage, clock, responseCache: false });
  const cached = createCms({ storage, clock });
  const reference = createCms({ storage, clock, responseCache: false, viewFragments: false });
  const admin = await uncached.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'], name: 'Ada' });
  await uncached.users.createApplicationPassword(admin.id, { name: 'tests', password: 'adminpassword12345' });
  const headers = { authorization: `Basic ${Buffer.from('admin:adminpassword12345').toString('base64')}`, 'content-type': 'application/json' };
  const write = async (method: string, path: string, json: unknown = {}) => {
    const [route, query = ''] = path.split('?') as [string, string?];
    const answer = await uncached.handle({ method, path: `/cms/v2${route}`, query, headers, body: JSON.stringify(json) });
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { id: number };
  };
  const wire = async (cms: typeof uncached, query: string) => {
    const encoded = encodeResponse(await cms.handle({ method: 'GET', path: '/cms/v2/posts', query, headers: {} }));
    return `${encoded.status} ${JSON.stringify(encoded.headers)}\n${Buffer.from(encoded.body ?? new Uint8Array(0)).toString('utf8')}`;
  };
  /** The list through the site without a response cache, then twice through the one with it, each as the reference. */
  const list = async (query = 'per_page=10') => {
    const expected = await wire(reference, query);
    assert.equal(await wire(uncached, query), expected, `uncached GET /posts?${query}`);
    assert.equal(await wire(cached, query), expected, `cached GET /posts?${query}`);
    assert.equal(await wire(cached, query), expected, `cached again GET /posts?${query}`);
    return JSON.parse(expected.slice(expected.indexOf('\n') + 1)) as Post[];
  };
  return { clock, write, list, adminId: admin.id };
}

/** `direct`: where the writes straight to the store go (another store on the same data, or the same). */
async function afterWrites(storage: StoragePort, direct = storage) {
  const { clock, write, list, adminId } = await sites(storage);
  const alpha = (await write('POST', '/tags', { name: 'alpha' })).id;
  const beta = (await write('POST', '/tags', { name: 'beta' })).id;
  const ids: number[] = [];
  for (let index = 0; index < 12; index += 1) {
    const date = `2024-04-${String(index + 1).padStart(2, '0')}T10:00:00`;
    ids.push((await write('POST', '/posts', { title: `Post ${index}`, content: `Text ${index}`, status: 'publish', date, tags: [alpha, beta] })).id);
  }
  const [oldest, listed, crowded] = [ids[0]!, ids[11]!, ids[10]!];
  // One listed post with more revisions than a batch of the page's histories holds.
  for (let edit = 0; edit < 25; edit += 1) await write('POST', `/posts/${crowded}`, { content: `Text, edit ${edit}` });
  const find = (posts: Post[], id: number) => posts.find((post) => post.id === id);
  for (let round = 0; round < 2; round += 1) await list();

  // Writes of a post outside the page, with and without a revision: the list is as it was.
  const before = await list();
  await write('POST', `/posts/${oldest}`, { comment_status: 'closed' });
  assert.deepEqual(await list(), before);
  await write('POST', `/posts/${oldest}`, { excerpt: 'Edited' });
  assert.deepEqual(await list(), before);
  assert.equal(find(before, crowded)!._links['version-history']![0]!.count, 25);

  await write('POST', `/posts/${listed}`, { title: 'Renamed' });
  assert.equal(find(await list(), listed)!.title.rendered, 'Renamed');

  // A term renamed reorders the tags of every post naming it (by name); a term added shows.
  assert.deepEqual(find(await list(), listed)!.tags, [alpha, beta]);
  await write('POST', `/tags/${alpha}`, { name: 'zeta' });
  assert.deepEqual(find(await list(), listed)!.tags, [beta, alpha]);
  const gamma = (await write('POST', '/tags', { name: 'gamma' })).id;
  await write('POST', `/posts/${listed}`, { tags: [alpha, beta, gamma] });
  assert.deepEqual(find(await list(), listed)!.tags, [beta, gamma, alpha]);

  // The author's name shows in embedded answers; the plain list is unchanged.
  assert.equal(find(await list('per_page=10&_embed=author'), listed)!._embedded!.author[0]!.name, 'Ada');
  await write('POST', `/users/${adminId}`, { name: 'Grace' });
  assert.equal(find(await list('per_page=10&_embed=author'), listed)!._embedded!.author[0]!.name, 'Grace');
  await list();

  // An autosave and a deleted revision change the history count and the newest revision.
  const history = async () => find(await list(), listed)!._links['version-history']![0]!.count!;
  const count = await history();
  await write('POST', `/posts/${listed}/autosaves`, { title: 'Draft', content: 'Autosaved' });
  assert.equal(await history(), count + 1);
  const revisions = await storage.list('posts', { where: [{ field: 'parent', op: 'eq', value: crowded }, { field: 'type', op: 'eq', value: 'revision' }] });
  await write('DELETE', `/posts/${crowded}/revisions/${revisions.items[0]!.id}?force=true`);
  assert.equal(find(await list(), crowded)!._links['version-history']![0]!.count, 24);

  // A setting: the site's address moves every link.
  await write('POST', '/settings', { url: 'http://moved.test' });
  assert.match(find(await list(), listed)!.link, /^http:\/\/moved\.test\//);

  // A scheduled post falls due by the clock alone: the next read lists it, first.
  const later = (await write('POST', '/posts', { title: 'Later', status: 'future', date_gmt: '2024-05-01T13:00:00' })).id;
  assert.equal(find(await list(), later), undefined);
  clock.advance(2 * 60 * 60 * 1000);
  const due = await list();
  assert.equal(due[0]!.id, later);
  assert.equal(due[0]!.status, 'publish');

  // A post scheduled before the one next due so far goes live at its own date, not at the other's.
  const sooner = (await write('POST', '/posts', { title: 'Sooner', status: 'future', date_gmt: '2024-05-01T16:00:00' })).id;
  await list();
  const soonest = (await write('POST', '/posts', { title: 'Soonest', status: 'future', date_gmt: '2024-05-01T15:00:00' })).id;
  await list();
  clock.advance(60 * 60 * 1000 + 30 * 60 * 1000);
  const first = await list();
  assert.deepEqual([first[0]!.id, first[0]!.status], [soonest, 'publish']);
  assert.equal(find(first, sooner), undefined);

  // Writes straight to the store, not through the interface: a revision of a listed post, a term's name.
  const counted = await history();
  await direct.insert('posts', { type: 'revision', status: 'inherit', parent: listed, date: '2024-05-01T12:00:00', date_gmt: '2024-05-01T12:00:00' });
  assert.equal(await history(), counted + 1);
  const tagsOf = async () => find(await list(), listed)!.tags;
  assert.deepEqual(await tagsOf(), [beta, gamma, alpha]);
  await direct.update('terms', gamma, { name: 'aardvark' });
  assert.deepEqual(await tagsOf(), [gamma, beta, alpha]);
}

/** The store without `writtenSince`: it cannot tell what was written, so nothing read from it is kept across writes. */
function untelling(storage: StoragePort): StoragePort {
  const { writtenSince: _writtenSince, ...rest } = storage;
  return rest;
}

describe('the first read of a list after a write', () => {
  it('on the memory store: every change shows, answers byte for byte as a site keeping nothing', async () => {
    await afterWrites(createMemoryStorage());
  });

  it('on a store that cannot tell what was written: every change shows, answers byte for byte as a site keeping nothing', async () => {
    await afterWrites(untelling(createMemoryStorage()));
  });

  it('on SQLite, with another store on the same file writing too: every change shows, as on a site keeping nothing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-after-write-'));
    const storage = sqliteStorage({ path: join(folder, 'site.db') });
    const other = sqliteStorage({ path: join(folder, 'site.db') });
    try {
      await afterWrites(storage, other);
    } finally {
      await storage.close?.();
      await other.close?.();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('on SQLite: every change shows, answers byte for byte as a site keeping nothing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-after-write-'));
    const storage = sqliteStorage({ path: join(folder, 'site.db') });
    try {
      await afterWrites(storage);
    } finally {
      await storage.close?.();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the first read of a list after a write, on PostgreSQL', async () => {
  const outcome = await startTestPostgres();
  if ('skip' in outcome) {
    it('on PostgreSQL', { skip: outcome.skip }, () => {});
    return;
  }
  const { server } = outcome;
  after(() => server.stop());

  it('with another store on the same schema writing too: every change shows, as on a site keeping nothing', async () => {
    const schema = `quire_after_write_${Date.now().toString(36)}_${process.pid}`;
    const storage = await postgresStorage({ connectionString: server.connectionString, schema, max: 4 });
    const other = await postgresStorage({ connectionString: server.connectionString, schema, max: 2 });
    try {
      await afterWrites(storage, other);
    } finally {
      await storage.close();
      await other.close();
    }
  });
});
