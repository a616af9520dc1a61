/**
 * Kept answers to requests an adapter only writes out (`WRITTEN_OUT`): the kept bytes, with headers shared by the
 * hits of one caller kind and frozen, sent exactly as the answer a host reads in-process would be.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../../src/cms.js';
import { encodeResponse, isFromKeptBytes } from '../../../src/core/encode.js';
import { WRITTEN_OUT } from '../../../src/core/mount.js';
import type { CmsRequest, CmsResponse } from '../../../src/core/types.js';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:adminpassword12345').toString('base64')}` };

async function site(options: { responseCache?: false } = {}) {
  const cms = createCms({ site: { url: 'http://site.test' }, ...options });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
  await cms.users.createApplicationPassword(admin.id, { name: 'tests', password: 'adminpassword12345' });
  const created = await cms.handle({
    method: 'POST', path: '/cms/v2/posts', headers: { ...ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'First', content: '<p>Hello.</p>', status: 'publish' }),
  });
  assert.equal(created.status, 201);
  return { cms, id: (created.body as { id: number }).id };
}

const read = (path: string, init: Partial<CmsRequest> = {}): CmsRequest => ({ method: 'GET', path, query: '', headers: {}, ...init });
const writtenOut = (request: CmsRequest) => ({ ...request, [WRITTEN_OUT]: true }) as CmsRequest;
const wire = (response: CmsResponse) => {
  const { status, headers, body } = encodeResponse(response);
  return { status, headers: { ...headers }, body: Buffer.from(body ?? new Uint8Array(0)).toString('latin1') };
};

describe('kept answers written out', () => {
  it('are the kept bytes with shared, frozen headers, and encode as the answer read in-process does', async () => {
    const { cms, id } = await site();
    const request = read(`/cms/v2/posts/${id}`);
    await cms.handle(request);
    const first = await cms.handle(writtenOut(request));
    const second = await cms.handle(writtenOut(request));
    assert.ok(first.body instanceof Uint8Array);
    assert.equal(second.body, first.body, 'the kept bytes themselves');
    assert.equal(second.headers, first.headers, 'one header object for every hit of this caller kind');
    assert.ok(Object.isFrozen(first.headers));
    const inProcess = await cms.handle(request);
    assert.equal(isFromKeptBytes(inProcess), true);
    assert.deepEqual(wire(first), wire(inProcess));
    assert.notEqual(inProcess.headers, first.headers);
    assert.deepEqual((inProcess.body as { id: number }).id, id, 'a host still reads the value');
    inProcess.headers.Vary = 'changed';
    assert.equal((await cms.handle(writtenOut(request))).headers.Vary, 'Origin', "a host's change to its copy reaches no other answer");
  });

  it('follow a write at once: the next hit is the new answer', async () => {
    const { cms, id } = await site();
    const request = read(`/cms/v2/posts/${id}`);
    await cms.handle(writtenOut(request));
    const before = wire(await cms.handle(writtenOut(request)));
    const updated = await cms.handle({
      method: 'POST', path: `/cms/v2/posts/${id}`, headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Renamed' }),
    });
    assert.equal(updated.status, 200);
    const after = wire(await cms.handle(writtenOut(request)));
    assert.match(after.body, /Renamed/);
    assert.notEqual(after.headers.ETag, before.headers.ETag);
    assert.deepEqual(wire(await cms.handle(writtenOut(request))), after);
    assert.deepEqual(after, wire(await cms.handle(request)));
  });

  it('carry the headers of their own request: origin, signed-in caller, HEAD and revalidation', async () => {
    const { cms, id } = await site();
    const path = `/cms/v2/posts/${id}`;
    const cases: Partial<CmsRequest>[] = [
      {}, { headers: { origin: 'https://a.test' } }, {}, { headers: { origin: 'https://b.test' } },
      { query: 'context=edit', headers: ADMIN }, { method: 'HEAD' }, { method: 'HEAD', headers: { origin: 'https://a.test' } }, {},
    ];
    for (const init of cases) {
      const request = read(path, init);
      await cms.handle(request);
      assert.deepEqual(wire(await cms.handle(writtenOut(request))), wire(await cms.handle(request)), JSON.stringify(init));
    }
    const tag = (await cms.handle(read(path))).headers.ETag!;
    for (const ifNoneMatch of [tag, `W/${tag}`, '"other"', '*']) {
      const request = read(path, { headers: { 'if-none-match': ifNoneMatch } });
      const marked = await cms.handle(writtenOut(request));
      assert.deepEqual(wire(marked), wire(await cms.handle(request)), ifNoneMatch);
      assert.equal(marked.status, ifNoneMatch === '"other"' ? 200 : 304);
    }
  });

  it('without the response cache are the answer computed for the request, as its bytes, and encode as the answer read in-process does', async () => {
    const { cms, id } = await site({ responseCache: false });
    const cases: Partial<CmsRequest>[] = [
      {}, { query: 'per_page=1' }, { headers: { origin: 'https://a.test' } }, { query: 'context=edit', headers: ADMIN }, { method: 'HEAD' },
      { query: '_fields=id,title' }, { query: '_envelope' },
    ];
    for (const path of ['/cms/v2/posts', `/cms/v2/posts/${id}`]) {
      for (const init of cases) {
        const request = read(path, init);
        const marked = await cms.handle(writtenOut(request));
        const inProcess = await cms.handle(request);
        assert.deepEqual(wire(marked), wire(inProcess), `${path} ${JSON.stringify(init)}`);
        if (marked.status === 200 && init.method !== 'HEAD') assert.ok(marked.body instanceof Uint8Array, `${path} ${JSON.stringify(init)}: bytes`);
      }
    }
    const listed = await cms.handle(writtenOut(read('/cms/v2/posts')));
    assert.equal(isFromKeptBytes(listed), false);
    assert.ok(listed.headers.ETag, 'tagged as a kept answer is');
    const tag = listed.headers.ETag!;
    const revalidated = await cms.handle(writtenOut(read('/cms/v2/posts', { headers: { 'if-none-match': tag } })));
    assert.equal(revalidated.status, 304);
    assert.deepEqual(wire(revalidated), wire(await cms.handle(read('/cms/v2/posts', { headers: { 'if-none-match': tag } }))));
    const updated = await cms.handle({
      method: 'POST', path: `/cms/v2/posts/${id}`, headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Renamed' }),
    });
    assert.equal(updated.status, 200);
    const after = wire(await cms.handle(writtenOut(read('/cms/v2/posts'))));
    assert.match(after.body, /Renamed/, 'the store is asked again');
    assert.notEqual(after.headers.ETag, tag);
  });
});
