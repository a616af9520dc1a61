import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { args } from '../../src/core/args/define.js';
import { allowAnyone } from '../../src/core/registry.js';
import { emptyBody, emptyBodyOf } from '../../src/core/body.js';
import type { RequestContext } from '../../src/core/context.js';
import { asAnswered } from '../../src/core/allow.js';
import { send } from '../helpers/request.js';
import { makeCore } from './fixture.js';

/** A core whose probe route hands its context, and what it reads through it, to the test. */
function probing(): { core: ReturnType<typeof makeCore>; seen: RequestContext[] } {
  const core = makeCore();
  const seen: RequestContext[] = [];
  core.options.registry.add('test/v1', '/probe', [{
    methods: ['GET', 'POST'],
    permission: allowAnyone,
    args: { context: args.string(), _fields: args.string() },
    handler: (context) => {
      seen.push(context);
      // Taken off the context, as handlers may: each is its own property, not a method needing `this`.
      const { memo, url, wantsField, nothingDueNow } = context;
      let computed = 0;
      const first = memo('key', () => ++computed);
      const again = memo('key', () => ++computed);
      return { first, again, computed, url: url('/test/v1/things', { a: 1 }), title: wantsField('title'), due: typeof nothingDueNow() };
    },
  }]);
  return { core, seen };
}

describe('request objects', () => {
  it('hand handlers a frozen context whose functions work taken off it, and the fields of the request', async () => {
    const { core, seen } = probing();
    const answer = await send(core, 'GET', '/test/v1/probe?context=embed', { remoteAddress: '192.0.2.7' });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, { first: 1, again: 1, computed: 1, url: 'http://example.test/cms-json/test/v1/things?a=1', title: true, due: 'boolean' });
    assert.deepEqual((await send(core, 'GET', '/test/v1/probe?_fields=title,computed')).json, { title: true, computed: 1 });
    const [context, fielded] = seen;
    assert.ok(fielded && fielded.wantsField('title') && !fielded.wantsField('url'));
    assert.ok(context && Object.isFrozen(context));
    assert.equal(context.method, 'GET');
    assert.equal(context.path, '/test/v1/probe');
    assert.equal(context.route, '/test/v1/probe');
    assert.equal(context.context, 'embed');
    assert.equal(context.remoteAddress, '192.0.2.7');
    assert.equal(context.origin, 'http');
    assert.equal(context.user, null);
    assert.equal(context.query.context, 'embed');
    assert.ok(context.has('context') && !context.has('other'));
    assert.equal(context.wantsField('content'), true);
  });

  it('leave out the client address when the adapter told none, and default the context to view', async () => {
    const { core, seen } = probing();
    await send(core, 'GET', '/test/v1/probe');
    const [context] = seen;
    assert.ok(context);
    assert.equal('remoteAddress' in context, false);
    assert.equal(context.context, 'view');
    assert.equal(context.wantsField('anything'), true);
  });

  it('keep every field in a copy of the context (the one `Allow` is asked with after a write)', async () => {
    const { core, seen } = probing();
    await send(core, 'GET', '/test/v1/probe', { remoteAddress: '192.0.2.8' });
    const [context] = seen;
    assert.ok(context);
    const copy = asAnswered(context, { context: 'edit' } as never);
    assert.equal(copy.context, 'edit');
    for (const name of ['method', 'route', 'path', 'query', 'body', 'headers', 'user', 'site', 'services', 'origin', 'remoteAddress'] as const) {
      assert.equal(copy[name], context[name], name);
    }
    for (const name of ['has', 'wantsField', 'url', 'memo', 'nothingDue', 'nothingDueNow', 'dispatch', 'prepare'] as const) {
      assert.equal(typeof copy[name], 'function', name);
    }
    assert.equal(copy.memo('fresh', () => 'value'), 'value');
  });

  it('give a context of its own to every request, remembering nothing of another, and forgetting after a write', async () => {
    const { core, seen } = probing();
    await send(core, 'GET', '/test/v1/probe');
    await send(core, 'GET', '/test/v1/probe');
    await send(core, 'POST', '/test/v1/probe');
    const [first, second, write] = seen;
    assert.ok(first && second && write && first !== second);
    assert.equal(first.memo('other', () => 'first'), 'first');
    assert.equal(second.memo('other', () => 'second'), 'second');
    // A read keeps what it remembered; a write forgets it once its handler ran (a write may have made it stale).
    assert.equal(first.memo('key', () => 'never'), 1);
    assert.equal(write.memo('key', () => 'again'), 'again');
  });

  it('share the functions that follow from the caller, site and store state alone, and only between requests that share those', async () => {
    const { core, seen } = probing();
    await send(core, 'GET', '/test/v1/probe');
    await send(core, 'GET', '/test/v1/probe?context=embed');
    await core.handle({ method: 'GET', path: '/test/v1/probe', query: '', headers: {}, baseUrl: 'http://other.test/api' });
    await send(core, 'GET', '/test/v1/probe', { headers: { authorization: 'Bearer editor' } });
    await send(core, 'GET', '/test/v1/probe');
    const [first, second, elsewhere, signedIn, again] = seen;
    assert.ok(first && second && elsewhere && signedIn && again);
    for (const name of ['url', 'dispatch', 'prepare', 'nothingDue', 'nothingDueNow'] as const) {
      assert.equal(second[name], first[name], `${name}: made once for two requests alike`);
    }
    assert.notEqual(first.memo, second.memo, 'what a request remembers stays its own');
    assert.equal(first.url('/test/v1/things'), 'http://example.test/cms-json/test/v1/things');
    // The site's configured address wins over the one a request came by; its functions are shared as its site is.
    assert.equal(elsewhere.url === first.url, elsewhere.site === first.site);
    assert.equal(elsewhere.url('/test/v1/things'), `${elsewhere.site.apiUrl}/test/v1/things`);
    assert.notEqual(signedIn.dispatch, first.dispatch);
    assert.notEqual(signedIn.url, first.url);
    assert.equal(signedIn.nothingDueNow, first.nothingDueNow, 'the store state alone: shared across callers');
    // Requests made inside carry the caller of their own request, not the last one's.
    const inner = async (run: () => Promise<unknown>) => {
      const before = seen.length;
      await run();
      assert.equal(seen.length, before + 1);
      return seen[before]!;
    };
    assert.ok(signedIn.user !== null);
    assert.equal((await inner(() => signedIn.prepare({ method: 'GET', path: '/test/v1/probe' }).run())).user, signedIn.user);
    assert.equal((await inner(() => again.prepare({ method: 'GET', path: '/test/v1/probe' }).run())).user, null);
    assert.equal((await inner(() => signedIn.dispatch({ method: 'GET', path: '/test/v1/probe' }))).user, signedIn.user);
    const batched = await inner(() => again.prepare({ method: 'GET', path: '/test/v1/probe' }, 'batch').run());
    assert.equal(batched.origin, 'batch');
    assert.equal(batched.user, null);
    assert.equal((await inner(() => again.dispatch({ method: 'GET', path: '/test/v1/probe' }))).origin, 'http');
    assert.equal(again.url('/test/v1/things'), 'http://example.test/cms-json/test/v1/things');
  });

  it('are made by `new`, not as object literals, so that no request object can be made old (pretenured)', async () => {
    const { core, seen } = probing();
    await send(core, 'GET', '/test/v1/probe');
    const [context] = seen;
    assert.ok(context);
    assert.notEqual(Object.getPrototypeOf(context), Object.prototype);
    assert.notEqual(Object.getPrototypeOf(context.body), Object.prototype);
    const body = emptyBodyOf('application/json; charset=utf-8');
    assert.notEqual(Object.getPrototypeOf(body), Object.prototype);
    assert.deepEqual({ ...body }, { json: undefined, jsonError: null, form: Object.create(null), files: [], raw: new Uint8Array(0), mediaType: 'application/json' });
    assert.notEqual(emptyBody(), emptyBody());
    assert.notEqual(emptyBody().form, emptyBody().form);
  });
});
