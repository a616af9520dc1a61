import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms, type CmsOptions } from '../../../src/cms.js';
import type { Principal } from '../../../src/core/context.js';
import { encodeResponse, isFromKeptBytes } from '../../../src/core/encode.js';
import { CmsError } from '../../../src/core/errors.js';
import { allowAnyone } from '../../../src/core/registry.js';
import { item, reply } from '../../../src/core/response.js';
import type { CmsRequest, CmsResponse } from '../../../src/core/types.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';

const NO_CACHE = 'no-cache, must-revalidate, max-age=0';

/** A cms with routes that count their calls: a kept answer shows the count of the call that computed it. */
function countingCms(options: CmsOptions = {}) {
  const storage = options.storage ?? createMemoryStorage();
  const cms = createCms({ site: { url: 'http://site.test' }, ...options, storage });
  const calls = { counted: 0, uncached: 0, embedding: 0 };
  cms.registry.add('cms/v2', '/counted', [{
    methods: ['GET'],
    permission: allowAnyone,
    handler: (context) => {
      calls.counted += 1;
      if (context.params.missing !== undefined) throw new CmsError('rest_missing', 'Not here.', 404);
      return reply({ call: calls.counted, user: context.user?.id ?? 0, params: context.params });
    },
  }], { cache: { varies: 'caller' } });
  cms.registry.add('cms/v2', '/uncached', [{
    methods: ['GET'], permission: allowAnyone,
    handler: () => ({ call: (calls.uncached += 1) }),
  }]);
  cms.registry.add('cms/v2', '/embedding', [{
    methods: ['GET'], permission: allowAnyone,
    handler: (context) => {
      calls.embedding += 1;
      const target = context.params.to === 'uncached' ? '/cms/v2/uncached' : '/cms/v2/counted';
      return item({ data: { call: calls.embedding }, links: { related: [{ embeddable: true, href: context.url(target) }] } });
    },
  }], { cache: { varies: 'caller' } });
  return { cms, calls, storage };
}

function get(path: string, query = '', init: Partial<CmsRequest> = {}): CmsRequest {
  return { method: 'GET', path, query, ...init };
}

const bytesOf = (response: CmsResponse) => Buffer.from(encodeResponse(response).body ?? new Uint8Array(0));

describe('the response cache', () => {
  it('keeps a 200 answer: the handler runs once, the bytes and the tag are the same, no JSON work on a hit', async () => {
    const { cms, calls } = countingCms();
    const first = await cms.handle(get('/cms/v2/counted', 'a=1'));
    const second = await cms.handle(get('/cms/v2/counted', 'a=1'));
    assert.equal(calls.counted, 1);
    assert.equal(isFromKeptBytes(first), false);
    assert.equal(isFromKeptBytes(second), true);
    assert.deepEqual(bytesOf(second), bytesOf(first));
    assert.deepEqual(second.headers, first.headers);
    assert.match(first.headers.ETag!, /^"[\w-]{27}"$/);
    assert.equal(first.headers['Cache-Control'], 'no-cache');
    assert.deepEqual(second.body, { call: 1, user: 0, params: { a: '1' } });
  });

  it('hands every in-process caller its own copy of a kept body', async () => {
    const { cms } = countingCms();
    const first = await cms.handle(get('/cms/v2/counted'));
    (first.body as { call: number }).call = 99;
    const second = await cms.handle(get('/cms/v2/counted'));
    (second.body as { call: number }).call = 98;
    const third = await cms.handle(get('/cms/v2/counted'));
    assert.equal((third.body as { call: number }).call, 1);
    const pretty = await cms.handle(get('/cms/v2/counted', '_pretty'));
    const sent = bytesOf(pretty);
    (pretty.body as Uint8Array).fill(32);
    const hit = await cms.handle(get('/cms/v2/counted', '_pretty'));
    assert.equal(isFromKeptBytes(hit), true);
    (hit.body as Uint8Array).fill(32);
    assert.deepEqual(bytesOf(await cms.handle(get('/cms/v2/counted', '_pretty'))), sent);
  });

  it('keys on the exact query string, the site address and the caller; anonymous callers share one entry', async () => {
    const alice: Principal = { id: 5, login: 'alice', roles: ['editor'], capabilities: new Set(['read']) };
    const { cms, calls } = countingCms({ site: {} });
    const at = (baseUrl: string) => ({ baseUrl });
    await cms.handle(get('/cms/v2/counted', 'a=1&b=2', at('http://one.test/cms-json')));
    await cms.handle(get('/cms/v2/counted', 'b=2&a=1', at('http://one.test/cms-json')));
    assert.equal(calls.counted, 2, 'another spelling of the query is another entry');
    await cms.handle(get('/cms/v2/counted', 'a=1&b=2', at('http://two.test/cms-json')));
    assert.equal(calls.counted, 3, 'another site address is another entry (links are built from it)');
    await cms.handle(get('/cms/v2/counted', 'a=1&b=2', { ...at('http://one.test/cms-json'), user: alice }));
    assert.equal(calls.counted, 4, 'a signed-in caller has entries of their own');
    const again = await cms.handle(get('/cms/v2/counted', 'a=1&b=2', { ...at('http://one.test/cms-json'), user: alice }));
    assert.equal(calls.counted, 4);
    assert.equal((again.body as { user: number }).user, 5);
    assert.equal(again.headers['Cache-Control'], NO_CACHE, 'signed-in answers keep the reference\'s no-cache headers');
    const promoted = { ...alice, capabilities: new Set(['read', 'edit_posts']) };
    await cms.handle(get('/cms/v2/counted', 'a=1&b=2', { ...at('http://one.test/cms-json'), user: promoted }));
    assert.equal(calls.counted, 5, 'a principal with other capabilities is another caller, even with no write to the store');
    const anonymous = await cms.handle(get('/cms/v2/counted', 'a=1&b=2', at('http://one.test/cms-json')));
    assert.equal(calls.counted, 5);
    assert.equal((anonymous.body as { user: number }).user, 0);
  });

  it('keys on the caller only as far as the route declares its answer varies', async () => {
    const { cms } = countingCms();
    const alice: Principal = { id: 5, login: 'alice', roles: ['editor'], capabilities: new Set(['read']) };
    const bob: Principal = { id: 6, login: 'bob', roles: ['editor'], capabilities: new Set(['read']) };
    const counts = { nothing: 0, capabilities: 0 };
    for (const varies of ['nothing', 'capabilities'] as const) {
      cms.registry.add('cms/v2', `/varies-${varies}`, [{
        methods: ['GET'], permission: allowAnyone, handler: () => ({ call: (counts[varies] += 1) }),
      }], { cache: { varies } });
    }
    for (const user of [undefined, alice, bob]) await cms.handle(get('/cms/v2/varies-nothing', '', user ? { user } : {}));
    assert.equal(counts.nothing, 1, 'one answer for everyone');
    for (const user of [undefined, alice, bob]) await cms.handle(get('/cms/v2/varies-capabilities', '', user ? { user } : {}));
    assert.equal(counts.capabilities, 2, 'anonymous callers apart; callers of equal roles and capabilities share');
    await cms.handle(get('/cms/v2/varies-capabilities', '', { user: { ...bob, capabilities: new Set(['read', 'edit_posts']) } }));
    assert.equal(counts.capabilities, 3);
  });

  it('keeps every output switch apart, and lays per-request headers (CORS) over a kept answer', async () => {
    const { cms, calls } = countingCms();
    const switches = ['', '_envelope', '_pretty', '_jsonp=cb', '_fields=call', '_embed', '_method=GET'];
    const first = [];
    for (const query of switches) first.push(bytesOf(await cms.handle(get('/cms/v2/counted', query))));
    assert.equal(calls.counted, switches.length);
    assert.equal(new Set(first.map((bytes) => bytes.toString())).size, switches.length, 'each switch answers differently');
    for (const [index, query] of switches.entries()) assert.deepEqual(bytesOf(await cms.handle(get('/cms/v2/counted', query))), first[index]);
    assert.equal(calls.counted, switches.length);
    const jsonp = await cms.handle(get('/cms/v2/counted', '_jsonp=cb'));
    assert.equal(jsonp.headers['Content-Type'], 'application/javascript; charset=UTF-8');
    assert.equal(jsonp.body, '/**/cb({"call":4,"user":0,"params":{"_jsonp":"cb"}})');
    const cors = await cms.handle(get('/cms/v2/counted', '', { headers: { origin: 'https://app.test' } }));
    assert.equal(isFromKeptBytes(cors), true);
    assert.equal(cors.headers['Access-Control-Allow-Origin'], 'https://app.test');
    const plain = await cms.handle(get('/cms/v2/counted', ''));
    assert.equal(plain.headers['Access-Control-Allow-Origin'], undefined);
  });

  it('answers HEAD as GET without the body, from the same entry and with the same tag', async () => {
    const { cms, calls } = countingCms();
    const head = await cms.handle({ method: 'HEAD', path: '/cms/v2/counted', query: '_embed' });
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    assert.equal(encodeResponse(head).body, null);
    const got = await cms.handle(get('/cms/v2/counted', '_embed'));
    assert.equal(calls.counted, 1, 'HEAD computed the GET answer, which GET then found');
    assert.equal(got.headers.ETag, head.headers.ETag);
    assert.deepEqual(got.body, { call: 1, user: 0, params: { _embed: '' } });
    assert.equal(head.headers.Vary, undefined, 'HEAD still has no Vary: Origin, as before');
  });

  it('keeps only 200 answers of routes declared cache, for GET and HEAD without a body', async () => {
    const { cms, calls } = countingCms();
    const missing = await cms.handle(get('/cms/v2/counted', 'missing=1'));
    await cms.handle(get('/cms/v2/counted', 'missing=1'));
    assert.equal(missing.status, 404);
    assert.equal(calls.counted, 2, 'errors are computed every time');
    assert.equal(missing.headers.ETag, undefined);
    await cms.handle(get('/cms/v2/counted', '_envelope&missing=1'));
    await cms.handle(get('/cms/v2/counted', '_envelope&missing=1'));
    assert.equal(calls.counted, 4, 'an enveloped error is not kept either');
    const uncached = await cms.handle(get('/cms/v2/uncached'));
    await cms.handle(get('/cms/v2/uncached'));
    assert.equal(calls.uncached, 2);
    assert.equal(uncached.headers.ETag, undefined);
    assert.equal(uncached.headers['Cache-Control'], undefined, 'anonymous answers of other routes carry no caching headers, as the reference');
    await cms.handle({ method: 'GET', path: '/cms/v2/counted', query: 'b=1', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
    await cms.handle({ method: 'GET', path: '/cms/v2/counted', query: 'b=1', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
    assert.equal(calls.counted, 6, 'a GET with a body is computed every time');
    await cms.handle({ method: 'POST', path: '/cms/v2/counted', query: '_method=GET&c=1' });
    await cms.handle({ method: 'POST', path: '/cms/v2/counted', query: '_method=GET&c=1' });
    assert.equal(calls.counted, 8, 'a POST read as GET is not kept');
  });

  it('does not keep the answer of a route declared cache that reads a request header after all', async () => {
    const { cms } = countingCms();
    let calls = 0;
    cms.registry.add('cms/v2', '/reads-header', [{
      methods: ['GET'], permission: allowAnyone,
      handler: (context) => ({ call: (calls += 1), language: context.headers['accept-language'] ?? null }),
    }], { cache: { varies: 'caller' } });
    const french = await cms.handle(get('/cms/v2/reads-header', '', { headers: { 'accept-language': 'fr' } }));
    const german = await cms.handle(get('/cms/v2/reads-header', '', { headers: { 'accept-language': 'de' } }));
    assert.deepEqual([french.body, german.body], [{ call: 1, language: 'fr' }, { call: 2, language: 'de' }]);
    assert.equal(german.headers.ETag, undefined);
  });

  it('does not keep an answer that embeds a route not declared cache', async () => {
    const { cms, calls } = countingCms();
    await cms.handle(get('/cms/v2/embedding', 'to=uncached&_embed'));
    const second = await cms.handle(get('/cms/v2/embedding', 'to=uncached&_embed'));
    assert.equal(calls.embedding, 2);
    assert.equal(second.headers.ETag, undefined);
    await cms.handle(get('/cms/v2/embedding', 'to=counted&_embed'));
    const kept = await cms.handle(get('/cms/v2/embedding', 'to=counted&_embed'));
    assert.equal(calls.embedding, 3);
    assert.deepEqual((kept.body as { _embedded: unknown })._embedded, { related: [{ call: 1, user: 0, params: { context: 'embed' } }] });
  });

  it('serves nothing kept after any write to the store', async () => {
    const { cms, calls, storage } = countingCms();
    await cms.handle(get('/cms/v2/counted'));
    await storage.insert('anything', { value: 1 });
    const after = await cms.handle(get('/cms/v2/counted'));
    assert.equal(calls.counted, 2);
    assert.equal(isFromKeptBytes(after), false);
    await storage.transaction(async (tx) => {
      await tx.update('anything', 1, { value: 2 });
    });
    await cms.handle(get('/cms/v2/counted'));
    assert.equal(calls.counted, 3);
  });

  it('serves no kept index once a host registers another route', async () => {
    const { cms } = countingCms();
    await cms.handle(get('/cms/v2'));
    assert.ok(isFromKeptBytes(await cms.handle(get('/cms/v2'))));
    cms.registry.add('cms/v2', '/late', [{ methods: ['GET'], permission: allowAnyone, handler: () => 'late' }]);
    const index = await cms.handle(get('/cms/v2'));
    assert.ok('/cms/v2/late' in (index.body as { routes: Record<string, unknown> }).routes);
  });

  it('keeps nothing with a store without a change token, or with responseCache: false, and still tags answers', async () => {
    const plain = createMemoryStorage();
    delete (plain as { changeToken?: unknown }).changeToken;
    for (const options of [{ storage: plain }, { responseCache: false as const }]) {
      const { cms, calls } = countingCms(options);
      const first = await cms.handle(get('/cms/v2/counted'));
      const second = await cms.handle(get('/cms/v2/counted'));
      assert.equal(calls.counted, 2);
      assert.equal(isFromKeptBytes(second), false);
      assert.match(first.headers.ETag!, /^"[\w-]+"$/);
      assert.notEqual(second.headers.ETag, first.headers.ETag, 'the bodies differ (the call count), so do the tags');
      const conditional = await cms.handle(get('/cms/v2/counted', '', { headers: { 'if-none-match': second.headers.ETag! } }));
      assert.equal(conditional.status, 200, 'the answer changed since');
    }
  });

  it('stays within its entry and byte bounds', async () => {
    const { cms, calls } = countingCms({ responseCache: { maxEntries: 1 } });
    await cms.handle(get('/cms/v2/counted', 'a'));
    await cms.handle(get('/cms/v2/counted', 'b'));
    await cms.handle(get('/cms/v2/counted', 'a'));
    assert.equal(calls.counted, 3, 'one entry: b pushed a out');
    await cms.handle(get('/cms/v2/counted', 'a'));
    assert.equal(calls.counted, 3);
    const small = countingCms({ responseCache: { maxBytes: 300 } });
    await small.cms.handle(get('/cms/v2/counted', `long=${'x'.repeat(400)}`));
    await small.cms.handle(get('/cms/v2/counted', `long=${'x'.repeat(400)}`));
    assert.equal(small.calls.counted, 2, 'an answer larger than the bound is not kept');
  });
});

describe('conditional requests', () => {
  it('answer 304 with no body when If-None-Match names the tag, whether the answer was kept or not', async () => {
    for (const responseCache of [undefined, false as const]) {
      const { cms } = countingCms(responseCache === false ? { responseCache } : {});
      const first = await cms.handle(get('/cms/v2/counted'));
      const tag = first.headers.ETag!;
      // Without the cache the count moves on, so only the kept answer still matches its tag.
      const again = await cms.handle(get('/cms/v2/counted', '', { headers: { 'if-none-match': `"other", W/${tag}` } }));
      if (responseCache === false) {
        assert.equal(again.status, 200);
        continue;
      }
      assert.equal(again.status, 304);
      assert.equal(again.body, null);
      assert.equal(encodeResponse(again).body, null);
      assert.deepEqual(again.headers, {
        'X-Content-Type-Options': 'nosniff',
        'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
        'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
        ETag: tag,
        'Cache-Control': 'no-cache',
        Vary: 'Origin',
      });
      const head = await cms.handle({ method: 'HEAD', path: '/cms/v2/counted', headers: { 'if-none-match': tag } });
      assert.equal(head.status, 304);
    }
  });

  it('compare a tag computed without the cache with the tag of the same bytes', async () => {
    const { cms } = countingCms({ responseCache: false });
    const index = await cms.handle(get('/cms/v2'));
    const conditional = await cms.handle(get('/cms/v2', '', { headers: { 'if-none-match': index.headers.ETag! } }));
    assert.equal(conditional.status, 304);
    const signedIn = await cms.handle(get('/cms/v2', '', { user: { id: 1, login: 'a', roles: [], capabilities: new Set() } as Principal, headers: { 'if-none-match': index.headers.ETag! } }));
    assert.equal(signedIn.status, 304, 'the same bytes for another caller: the same tag');
    assert.equal(signedIn.headers['Cache-Control'], NO_CACHE);
    assert.equal(signedIn.headers.Expires, 'Wed, 11 Jan 1984 05:00:00 GMT');
  });

  it('ignore If-None-Match on routes not declared cache and on writes', async () => {
    const { cms } = countingCms();
    const uncached = await cms.handle(get('/cms/v2/uncached', '', { headers: { 'if-none-match': '*' } }));
    assert.equal(uncached.status, 200);
    const write = await cms.handle({ method: 'POST', path: '/cms/v2/posts', headers: { 'if-none-match': '*' } });
    assert.equal(write.status, 401);
  });
});

describe('the store change token on a cached read', () => {
  it('is read once per request, shared by the settings and the cache', async () => {
    const storage = createMemoryStorage();
    const read = storage.changeToken.bind(storage);
    let reads = 0;
    storage.changeToken = () => {
      reads += 1;
      return read();
    };
    const { cms, calls } = countingCms({ storage });
    await cms.handle(get('/cms/v2/counted'));
    reads = 0;
    const kept = await cms.handle(get('/cms/v2/counted'));
    assert.ok(isFromKeptBytes(kept));
    assert.equal(calls.counted, 1);
    assert.equal(reads, 1);
  });

  it('is read after authentication, so a login that writes to the store keeps the next answer kept', async () => {
    const storage = createMemoryStorage();
    let writes = 0;
    const { cms, calls } = countingCms({
      storage,
      authenticate: async (input) => {
        if (input.headers.authorization !== 'Bearer writer') return null;
        await storage.insert('login_stamps', { at: (writes += 1) });
        return null;
      },
    });
    await cms.handle(get('/cms/v2/counted', '', { headers: { authorization: 'Bearer writer' } }));
    const kept = await cms.handle(get('/cms/v2/counted'));
    assert.equal(writes, 1);
    assert.ok(isFromKeptBytes(kept), 'kept under the state the login left');
    assert.equal(calls.counted, 1);
  });
});
