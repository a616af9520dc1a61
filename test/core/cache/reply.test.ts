import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../../src/cms.js';
import { encodeResponse, isFromKeptBytes } from '../../../src/core/encode.js';
import { allowAnyone } from '../../../src/core/registry.js';
import { reply } from '../../../src/core/response.js';
import type { CmsRequest } from '../../../src/core/types.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';

function keptCms() {
  const cms = createCms({ site: { url: 'http://site.test' }, storage: createMemoryStorage() });
  let calls = 0;
  cms.registry.add('cms/v2', '/kept', [{ methods: ['GET'], permission: allowAnyone, handler: () => reply({ call: (calls += 1) }) }], { cache: { varies: 'caller' } });
  return cms;
}

const get = (init: Partial<CmsRequest> = {}): CmsRequest => ({ method: 'GET', path: '/cms/v2/kept', query: '', ...init });

describe('replies of a kept answer', () => {
  it("each carries headers of its own: changing one reply's headers changes no other", async () => {
    const cms = keptCms();
    await cms.handle(get());
    const hit = await cms.handle(get());
    assert.equal(isFromKeptBytes(hit), true);
    const expected = { ...hit.headers };
    hit.headers.Vary = 'changed';
    hit.headers.Extra = 'added';
    delete hit.headers.ETag;
    const again = await cms.handle(get());
    assert.deepEqual(again.headers, expected);
    assert.notEqual(again.headers, hit.headers);
  });

  it('carry the transport headers of their own request, whichever came before', async () => {
    const cms = keptCms();
    await cms.handle(get());
    const sequence: [Partial<CmsRequest>, Record<string, string | undefined>][] = [
      [{}, { Vary: 'Origin', 'Access-Control-Allow-Origin': undefined }],
      [{ headers: { origin: 'https://a.test' } }, { Vary: 'Origin', 'Access-Control-Allow-Origin': 'https://a.test' }],
      [{ headers: { origin: 'https://b.test' } }, { 'Access-Control-Allow-Origin': 'https://b.test' }],
      [{ method: 'HEAD' }, { Vary: undefined, 'Access-Control-Allow-Origin': undefined }],
      [{ headers: { origin: 'https://a.test' } }, { 'Access-Control-Allow-Origin': 'https://a.test' }],
      [{}, { Vary: 'Origin', 'Access-Control-Allow-Origin': undefined, 'Access-Control-Allow-Credentials': undefined }],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [init, expected] of sequence) {
        const response = await cms.handle(get(init));
        for (const [name, value] of Object.entries(expected)) assert.equal(response.headers[name], value, `${name} for ${JSON.stringify(init)}`);
        assert.equal(response.headers['Cache-Control'], 'no-cache');
      }
    }
  });

  it('copied, carry the body but not the kept bytes: a body the host replaces is the one sent', async () => {
    const cms = keptCms();
    await cms.handle(get());
    const hit = await cms.handle(get());
    const copy = { ...hit };
    assert.deepEqual(copy.body, { call: 1 });
    assert.equal(isFromKeptBytes(copy), false);
    const replaced = { ...hit, body: { replaced: true } };
    assert.equal(Buffer.from(encodeResponse(replaced).body!).toString(), '{"replaced":true}');
    assert.equal(Buffer.from(encodeResponse(hit).body!).toString(), '{"call":1}');
  });
});
