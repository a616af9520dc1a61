import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { args } from '../../src/core/args/define.js';
import type { Services } from '../../src/core/context.js';
import { Dispatcher } from '../../src/core/dispatch.js';
import { namespaceRoot } from '../../src/core/index-document.js';
import { allowAnyone, Registry } from '../../src/core/registry.js';
import { send } from '../helpers/request.js';

describe('argument defaults', () => {
  function defaultsCore() {
    const seen: unknown[] = [];
    let checks = 0;
    const registry = new Registry();
    registry.namespace('def/v1', namespaceRoot(registry));
    registry.add('def/v1', '/things', [{
      methods: ['GET'],
      args: {
        ids: args.array({ type: 'integer' }, { default: ['1', '2'] }),
        order: args.string({ enum: ['asc', 'desc'], default: 'desc' }),
        scope: args.string({ default: 'mine' }, {
          check: (value, context) => {
            checks += 1;
            return context.user === null && value === 'mine' ? { code: 'rest_forbidden_scope', message: 'Sign in first.', data: null } : null;
          },
        }),
      },
      permission: allowAnyone,
      handler: (context) => {
        seen.push(structuredClone({ ids: context.params.ids, order: context.params.order }));
        (context.params.ids as number[]).push(99);
        return { ok: true };
      },
    }]);
    const core = new Dispatcher({ registry, services: {} as Services, site: { url: 'http://example.test' }, maxBodyBytes: 1024, headerPrefix: 'X-WP', jsonp: true });
    return { core, seen, checks: () => checks };
  }

  it('gives every request the sanitised defaults afresh, unchanged by what an earlier request did with them', async () => {
    const { core, seen } = defaultsCore();
    for (let round = 0; round < 3; round++) assert.equal((await send(core, 'GET', '/def/v1/things?scope=all')).status, 200);
    assert.deepEqual(seen, Array.from({ length: 3 }, () => ({ ids: [1, 2], order: 'desc' })));
    assert.equal((await send(core, 'GET', '/def/v1/things?scope=all&order=sideways')).status, 400);
    assert.equal((await send(core, 'GET', '/def/v1/things?scope=all&ids=7')).status, 200);
    assert.deepEqual(seen.at(-1), { ids: [7], order: 'desc' });
  });

  it('runs a default\'s own check on every request: its answer may depend on the caller', async () => {
    const { core, checks } = defaultsCore();
    for (let round = 0; round < 2; round++) {
      const refused = await send(core, 'GET', '/def/v1/things');
      assert.equal(refused.status, 400);
      assert.equal((refused.json.data as { details: Record<string, { code: string }> }).details.scope!.code, 'rest_forbidden_scope');
    }
    assert.equal(checks(), 2);
  });
});

describe('parameters named like path parameters', () => {
  function pathCore() {
    const seen: unknown[] = [];
    const registry = new Registry();
    registry.namespace('path/v1', namespaceRoot(registry));
    const handler = (context: { params: Record<string, unknown> }) => {
      seen.push(context.params.id ?? context.params.user);
      return { ok: true };
    };
    registry.add('path/v1', '/things/(?P<id>\\d+)', [{ methods: ['GET', 'POST'], permission: allowAnyone, handler }]);
    registry.add('path/v1', '/owners/(?P<user>(?:[\\d]+|me))', [{ methods: ['GET'], permission: allowAnyone, handler }]);
    registry.add('path/v1', '/declared/(?P<id>[\\d]+)', [{ methods: ['GET'], args: { id: args.integer({}) }, permission: allowAnyone, handler }]);
    const core = new Dispatcher({ registry, services: {} as Services, site: { url: 'http://example.test' }, maxBodyBytes: 1024, headerPrefix: 'X-WP', jsonp: true });
    return { core, seen };
  }

  it('takes them in the reference\'s order (JSON, POST, GET, URL) when they follow the path\'s rule', async () => {
    const { core, seen } = pathCore();
    assert.equal((await send(core, 'GET', '/path/v1/things/1')).status, 200);
    assert.equal((await send(core, 'GET', '/path/v1/things/1?id=2')).status, 200);
    assert.equal((await send(core, 'POST', '/path/v1/things/1?id=2', { form: 'id=3' })).status, 200);
    assert.equal((await send(core, 'POST', '/path/v1/things/1?id=2', { json: { id: 4 } })).status, 200);
    assert.equal((await send(core, 'GET', '/path/v1/owners/7?user=me')).status, 200);
    assert.deepEqual(seen, ['1', '2', '3', 4, 'me']);
  });

  it('answers 400 rest_invalid_param for an object, a list or a value the path would not match, on undeclared and declared ones', async () => {
    const { core, seen } = pathCore();
    const cases: [string, string, { json?: unknown; form?: string }, string][] = [
      ['GET', '/path/v1/things/1?id[a]=1', {}, 'rest_invalid_type'],
      ['GET', '/path/v1/things/1?id[]=1', {}, 'rest_invalid_type'],
      ['GET', '/path/v1/things/1?id=abc', {}, 'rest_invalid_type'],
      ['GET', '/path/v1/things/1?id=', {}, 'rest_invalid_type'],
      ['POST', '/path/v1/things/1', { json: { id: { a: 1 } } }, 'rest_invalid_type'],
      ['POST', '/path/v1/things/1', { json: { id: true } }, 'rest_invalid_type'],
      ['POST', '/path/v1/things/1', { json: { id: -2 } }, 'rest_invalid_type'],
      ['POST', '/path/v1/things/1', { form: 'id[x]=1' }, 'rest_invalid_type'],
      ['GET', '/path/v1/owners/7?user=you', {}, 'rest_invalid_pattern'],
      ['GET', '/path/v1/owners/7?user[a]=me', {}, 'rest_invalid_type'],
      ['GET', '/path/v1/declared/1?id[a]=1', {}, 'rest_invalid_type'],
    ];
    for (const [method, path, init, detail] of cases) {
      const response = await send(core, method, path, init);
      assert.equal(response.status, 400, `${method} ${path} ${JSON.stringify(init)}`);
      assert.equal(response.json.code, 'rest_invalid_param');
      const details = (response.json.data as { details: Record<string, { code: string }> }).details;
      assert.equal(Object.values(details)[0]!.code, detail, path);
    }
    assert.deepEqual(seen, []);
  });
});
