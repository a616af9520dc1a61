import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkResponse, PrototypeGuard } from './checks.js';
import { caseSeed, Random } from './random.js';
import { makeCase } from './requests.js';
import { seedSite } from './site.js';

const json = { 'Content-Type': 'application/json; charset=UTF-8' };
const kinds = (response: Parameters<typeof checkResponse>[0]) => checkResponse(response).map((violation) => violation.kind);

describe('the fuzzer checks', () => {
  it('flag a 5xx unless it is a documented one', () => {
    const internal = { code: 'internal_error', message: 'x', data: { status: 500 } };
    assert.deepEqual(kinds({ status: 500, headers: json, body: internal }), ['server-error']);
    const trash = { code: 'rest_trash_not_supported', message: 'x', data: { status: 501 } };
    assert.deepEqual(kinds({ status: 501, headers: json, body: trash }), []);
    assert.deepEqual(kinds({ status: 501, headers: json, body: { ...trash, code: 'other' } }), ['server-error']);
  });

  it('flag error bodies without code, message or data.status, also inside envelopes and batches', () => {
    assert.deepEqual(kinds({ status: 400, headers: json, body: { code: 'x', message: 'y' } }), ['error-shape']);
    assert.deepEqual(kinds({ status: 404, headers: json, body: { code: 'x', message: 'y', data: { status: 400 } } }), ['error-shape']);
    assert.deepEqual(kinds({ status: 403, headers: json, body: { code: 'x', message: 'y', data: { status: 403 } } }), []);
    assert.deepEqual(kinds({ status: 200, headers: json, body: { body: { code: 'x' }, status: 404, headers: [] } }), ['error-shape']);
    const batch = { responses: [{ body: { id: 1 }, status: 200, headers: [] }, { body: { message: 'm' }, status: 400, headers: [] }, { body: null, status: 502, headers: [] }] };
    assert.deepEqual(kinds({ status: 207, headers: json, body: batch }), ['error-shape', 'server-error', 'error-shape']);
  });

  it('read JSON as a client would: bytes, JSONP, and the JSONP errors that have no data', () => {
    assert.deepEqual(kinds({ status: 400, headers: json, body: new TextEncoder().encode('{"code":"x","message":"y","data":{"status":400}}') }), []);
    assert.deepEqual(kinds({ status: 400, headers: json, body: new TextEncoder().encode('{"code":') }), ['unreadable-body']);
    const javascript = { 'Content-Type': 'application/javascript; charset=UTF-8' };
    assert.deepEqual(kinds({ status: 404, headers: javascript, body: '/**/cb({"code":"x","message":"y","data":{"status":404}})' }), []);
    assert.deepEqual(kinds({ status: 404, headers: javascript, body: '/**/cb({"code":"x","message":"y"})' }), ['error-shape']);
    assert.deepEqual(kinds({ status: 400, headers: javascript, body: { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' } }), []);
    assert.deepEqual(kinds({ status: 200, headers: javascript, body: { namespace: 'cms/v2' } }), ['error-shape']);
  });

  it('notice a changed prototype and undo the change', () => {
    const guard = new PrototypeGuard();
    (Object.prototype as Record<string, unknown>).polluted = 'yes';
    (Array.prototype as unknown as Record<string, unknown>).extra = 1;
    const found = guard.check();
    assert.deepEqual(found.map((violation) => violation.signature).sort(), ['Array.prototype.extra', 'Object.prototype.polluted']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(([] as unknown as Record<string, unknown>).extra, undefined);
    assert.deepEqual(guard.check(), []);
  });
});

describe('the fuzzer', () => {
  it('draws the same numbers from the same seed, and different ones per case', () => {
    const draw = (seed: number) => { const random = new Random(seed); return Array.from({ length: 5 }, () => random.uint32()); };
    assert.deepEqual(draw(42), draw(42));
    assert.notDeepEqual(draw(42), draw(43));
    assert.notEqual(caseSeed(1, 0), caseSeed(1, 1));
    assert.notEqual(caseSeed(1, 0), caseSeed(2, 0));
  });

  it('makes the same request from the same case seed, so a failure replays', async () => {
    const site = await seedSite('memory');
    try {
      for (let index = 0; index < 50; index++) {
        const seed = caseSeed(5, index);
        const options = { appPasswordRate: 0.01 };
        assert.deepEqual(makeCase(site, site.cms.registry.routes, seed, options), makeCase(site, site.cms.registry.routes, seed, options));
      }
    } finally {
      await site.close();
    }
  });
});
