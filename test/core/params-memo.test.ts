import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { args } from '../../src/core/args/define.js';
import type { Principal, RequestContext, Services } from '../../src/core/context.js';
import { Dispatcher } from '../../src/core/dispatch.js';
import { namespaceRoot } from '../../src/core/index-document.js';
import { keptParamsCount, parsedQuery } from '../../src/core/params-memo.js';
import { allowAnyone, Registry } from '../../src/core/registry.js';
import { send } from '../helpers/request.js';

const EDITOR: Principal = { id: 1, login: 'editor', roles: ['editor'], capabilities: new Set(['edit_things']) };

/** A core whose handlers report what they were handed; the memo is fresh for every core (its endpoints are new). */
function memoCore() {
  const seen: { route: string; params: Record<string, unknown>; query: unknown; prototypes: unknown[]; names: string[] }[] = [];
  let checks = 0;
  const registry = new Registry();
  registry.namespace('memo/v1', namespaceRoot(registry));
  const report = (context: RequestContext) => {
    seen.push({
      route: context.route, params: structuredClone({ ...context.params }), query: structuredClone({ ...context.query }),
      prototypes: [Object.getPrototypeOf(context.params), Object.getPrototypeOf(context.query)],
      names: Object.keys(context.params),
    });
    // A handler may change what it is handed; no later request sees it.
    (context.params.ids as number[]).push(99);
    (context.params as Record<string, unknown>).per_page = 'changed';
    (context.query as Record<string, unknown>).per_page = 'changed';
    return { has: ['ids', 'status', 'nothing'].filter((name) => context.has(name)) };
  };
  const listArgs = {
    per_page: args.integer({ default: 10, minimum: 1, maximum: 100 }),
    ids: args.array({ type: 'integer' }, { default: [] }),
    status: args.array({ type: 'string', enum: ['publish', 'draft'] }, { default: ['publish'] }, {
      phase: 'sanitize',
      check: (value, context) => {
        checks += 1;
        const asked = value as string[];
        if (asked.every((status) => status === 'publish') || context.user?.capabilities.has('edit_things')) return null;
        return { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: context.user ? 403 : 401 } };
      },
    }),
  };
  registry.add('memo/v1', '/things', [{ methods: ['GET'], args: listArgs, permission: allowAnyone, handler: report }]);
  registry.add('memo/v1', '/others', [{ methods: ['GET'], args: { ...listArgs, per_page: args.integer({ default: 3 }) }, permission: allowAnyone, handler: report }]);
  registry.add('memo/v1', '/things/(?P<id>[\\d]+)', [{
    methods: ['GET'], args: { id: args.integer(), ids: args.array({ type: 'integer' }, { default: [] }) }, permission: allowAnyone, handler: report,
  }]);
  registry.add('memo/v1', '/methods', [{
    methods: ['GET', 'HEAD'],
    args: {
      mode: args.string({ default: 'a' }, { check: (_value, context) => context.method === 'HEAD' ? { code: 'rest_no_head', message: 'No HEAD.', data: null } : null }),
      ids: args.array({ type: 'integer' }, { default: [] }),
    },
    permission: allowAnyone,
    handler: report,
  }]);
  const core = new Dispatcher({
    registry, services: {} as Services, site: { url: 'http://example.test' }, maxBodyBytes: 4096, headerPrefix: 'X-WP', jsonp: true,
    authenticate: ({ headers }) => (headers['x-as'] === 'editor' ? EDITOR : null),
  });
  return { core, seen, checks: () => checks };
}

const editor = { headers: { 'x-as': 'editor' } };

describe('GET parameters kept per query string', () => {
  it('hands each query its own parameters, however the requests alternate', async () => {
    const { core, seen } = memoCore();
    for (let round = 0; round < 3; round++) {
      for (const [query, perPage, ids] of [['per_page=5', 5, []], ['per_page=6&ids[]=3', 6, [3]], ['', 10, []], ['ids=4,5', 10, [4, 5]]] as const) {
        assert.equal((await send(core, 'GET', `/memo/v1/things${query ? `?${query}` : ''}`)).status, 200);
        assert.deepEqual(seen.at(-1)!.params.per_page, perPage);
        assert.deepEqual(seen.at(-1)!.params.ids, ids);
      }
    }
  });

  it('never hands one route the parameters of another, nor one path another path\'s', async () => {
    const { core, seen } = memoCore();
    for (let round = 0; round < 2; round++) {
      await send(core, 'GET', '/memo/v1/things?ids=1');
      await send(core, 'GET', '/memo/v1/others?ids=1');
      assert.deepEqual(seen.slice(-2).map((entry) => [entry.route, entry.params.per_page]), [['/memo/v1/things', 10], ['/memo/v1/others', 3]]);
      for (const id of [7, 8, 7]) {
        assert.equal((await send(core, 'GET', `/memo/v1/things/${id}?ids=1`)).status, 200);
        assert.equal(seen.at(-1)!.params.id, id);
      }
    }
  });

  it('gives every request fresh parameters and query, whatever a handler did with an earlier one\'s', async () => {
    const { core, seen } = memoCore();
    for (let round = 0; round < 3; round++) {
      const answer = await send(core, 'GET', '/memo/v1/things?ids[]=2&extra=x');
      assert.deepEqual(answer.json, { has: ['ids', 'status'] });
      assert.deepEqual(seen.at(-1), {
        route: '/memo/v1/things', params: { per_page: 10, ids: [2], status: ['publish'], extra: 'x' }, query: { ids: ['2'], extra: 'x' },
        prototypes: [null, null],
        names: ['per_page', 'ids', 'status', 'extra'],
      });
    }
  });

  it('hands out the same parameters in the same order on every request, as the full pipeline does', async () => {
    const { core, seen } = memoCore();
    for (let round = 0; round < 3; round++) await send(core, 'GET', '/memo/v1/things?b=1&7=x&ids=2&a[x]=1&per_page=4&s=-0');
    const first = seen[0]!;
    // The first request ran the full pipeline.
    assert.deepEqual(first.names, ['7', 'per_page', 'ids', 'status', 'b', 'a', 's']);
    assert.deepEqual(first.params, { 7: 'x', a: { x: '1' }, b: '1', ids: [2], per_page: 4, s: '-0', status: ['publish'] });
    for (const later of seen.slice(1)) assert.deepEqual(later, first);
  });

  it('runs the arguments\' own checks for every caller: what one caller may ask, another is refused, with the same error', async () => {
    const { core, checks } = memoCore();
    const fresh = memoCore();
    const refusedFresh = await send(fresh.core, 'GET', '/memo/v1/things?status=draft');
    assert.equal(refusedFresh.status, 400);
    assert.equal(refusedFresh.json.data.details.status.code, 'rest_forbidden_status');
    for (let round = 0; round < 2; round++) {
      const before = checks();
      assert.equal((await send(core, 'GET', '/memo/v1/things?status=draft', editor)).status, 200);
      assert.ok(checks() > before);
      const refused = await send(core, 'GET', '/memo/v1/things?status=draft');
      assert.deepEqual([refused.status, refused.json], [refusedFresh.status, refusedFresh.json]);
    }
  });

  it('runs a check again for the method: a GET\'s parameters do not let a HEAD through', async () => {
    const { core } = memoCore();
    assert.equal((await send(core, 'GET', '/memo/v1/methods?mode=b')).status, 200);
    const head = await send(core, 'HEAD', '/memo/v1/methods?mode=b');
    assert.equal(head.status, 400);
  });

  it('answers invalid parameters with the same error however often they come, between valid ones', async () => {
    const { core } = memoCore();
    const first = await send(memoCore().core, 'GET', '/memo/v1/things?per_page=0&ids=x');
    assert.equal(first.status, 400);
    assert.equal(first.json.code, 'rest_invalid_param');
    for (let round = 0; round < 3; round++) {
      assert.equal((await send(core, 'GET', '/memo/v1/things?per_page=1')).status, 200);
      const again = await send(core, 'GET', '/memo/v1/things?per_page=0&ids=x');
      assert.deepEqual([again.status, again.json], [first.status, first.json]);
    }
  });

  it('takes a GET\'s body parameters over the query, never the kept ones', async () => {
    const { core, seen } = memoCore();
    await send(core, 'GET', '/memo/v1/things?per_page=5');
    await send(core, 'GET', '/memo/v1/things?per_page=5', { json: { per_page: 7 } });
    assert.equal(seen.at(-1)!.params.per_page, 7);
    await send(core, 'GET', '/memo/v1/things?per_page=5');
    assert.equal(seen.at(-1)!.params.per_page, 5);
  });

  it('keeps a bounded number of parameter sets, and answers long or ever new queries and paths in full', async () => {
    const { core, seen } = memoCore();
    for (let index = 0; index < 2100; index++) {
      const path = index % 2 === 0 ? `/memo/v1/things?ids=${index}` : `/memo/v1/things/${index}?ids=${index}`;
      assert.equal((await send(core, 'GET', path)).status, 200);
      assert.deepEqual(seen.at(-1)!.params.ids, [index]);
      assert.ok(keptParamsCount() <= 2048);
    }
    assert.ok(keptParamsCount() > 1000);
    assert.equal((await send(core, 'GET', '/memo/v1/things?ids=0')).status, 200);
    assert.deepEqual(seen.at(-1)!.params.ids, [0]);
    const long = `ids=${Array.from({ length: 200 }, (_, index) => index).join(',')}`;
    for (let round = 0; round < 2; round++) {
      assert.equal((await send(core, 'GET', `/memo/v1/things?${long}`)).status, 200);
      assert.equal((seen.at(-1)!.params.ids as number[]).length, 200);
    }
  });
});

describe('query strings parsed once', () => {
  it('hands out a prototype-less copy of its own for each request', () => {
    const first = parsedQuery('a[]=1&b[c]=2');
    (first.a as string[]).push('x');
    (first.b as Record<string, string>).c = 'changed';
    const second = parsedQuery('a[]=1&b[c]=2');
    assert.deepEqual(JSON.parse(JSON.stringify(second)), { a: ['1'], b: { c: '2' } });
    assert.equal(Object.getPrototypeOf(second), null);
    assert.equal(Object.getPrototypeOf(second.b), null);
    assert.notEqual(first, second);
  });
});
