import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { args } from '../../src/core/args/define.js';
import type { RequestContext, Services } from '../../src/core/context.js';
import { Dispatcher } from '../../src/core/dispatch.js';
import { CmsError } from '../../src/core/errors.js';
import { namespaceRoot } from '../../src/core/index-document.js';
import { allowAnyone, Registry } from '../../src/core/registry.js';
import { item } from '../../src/core/response.js';
import { send } from '../helpers/request.js';
import { makeCore, THING_COUNT } from './fixture.js';

const EDITOR = { authorization: 'Bearer editor' };

describe('routing', () => {
  const core = makeCore();

  it('answers an unknown route and a wrong method with 404 rest_no_route and no Allow header', async () => {
    for (const [method, path] of [['GET', '/nope'], ['PATCH', '/test/v1/things'], ['GET', '/test/v1/things/abc']] as const) {
      const response = await send(core, method, path);
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.deepEqual(response.body, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
      assert.equal(response.headers.Allow, undefined);
    }
  });

  it('finds a route added after its path was asked for, and each path its own URL parameters', async () => {
    const registry = new Registry();
    registry.namespace('late/v1', namespaceRoot(registry));
    const core = new Dispatcher({ registry, services: {} as Services, site: { url: 'http://example.test' }, maxBodyBytes: 1024, headerPrefix: 'X-WP', jsonp: false });
    for (let round = 0; round < 2; round++) assert.equal((await send(core, 'GET', '/late/v1/items/7')).status, 404);
    registry.add('late/v1', '/items/(?P<id>[\\d]+)', [{ methods: ['GET'], permission: allowAnyone, handler: (context) => ({ id: context.params.id }) }]);
    for (let round = 0; round < 2; round++) {
      assert.deepEqual((await send(core, 'GET', '/late/v1/items/7')).json, { id: '7' });
      assert.deepEqual((await send(core, 'GET', '/late/v1/items/8')).json, { id: '8' });
    }
    assert.equal(registry.match('GET', '/late/v1/items/9'), registry.match('GET', '/late/v1/items/9'));
    assert.equal((await send(core, 'POST', '/late/v1/items/7')).status, 404);
  });

  it('strips trailing slashes and matches case-insensitively', async () => {
    assert.equal((await send(core, 'GET', '/test/v1/things/3/')).json.id, 3);
    assert.equal((await send(core, 'GET', '/TEST/V1/THINGS/3')).json.id, 3);
  });

  it('lets ?rest_route= override the path, and requires its leading slash', async () => {
    assert.equal((await send(core, 'GET', '/whatever?rest_route=/test/v1/things/4')).json.id, 4);
    assert.equal((await send(core, 'GET', '/?rest_route=test/v1/things/4')).status, 404);
  });

  it('gives the query precedence over URL parameters', async () => {
    assert.equal((await send(core, 'GET', '/test/v1/things/4?id=5')).json.id, 5);
  });

  it('answers HEAD like GET without a body', async () => {
    const get = await send(core, 'GET', '/test/v1/things?per_page=5&page=2');
    const head = await send(core, 'HEAD', '/test/v1/things?per_page=5&page=2');
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    assert.equal(head.headers['X-WP-Total'], String(THING_COUNT));
    assert.equal(head.headers.Link, get.headers.Link);
    assert.equal(head.headers.Allow, get.headers.Allow);
    assert.equal(head.headers.Vary, undefined, 'Vary: Origin is for a real GET only');
    assert.equal(get.headers.Vary, 'Origin');
  });

  it('overrides the method with _method and X-HTTP-Method-Override', async () => {
    const viaQuery = await send(core, 'GET', '/test/v1/things/4?_method=delete', { headers: EDITOR });
    assert.deepEqual(viaQuery.json, { deleted: true, force: false });
    const viaHeader = await send(core, 'POST', '/test/v1/things/4', { headers: { 'X-HTTP-Method-Override': 'DELETE' } });
    assert.equal(viaHeader.status, 401);
    assert.equal(viaHeader.headers['Cache-Control'], 'no-cache, must-revalidate, max-age=0');
  });
});

describe('OPTIONS', () => {
  const core = makeCore();

  it('describes the first matching route in help context, with the allowed methods', async () => {
    const anonymous = await send(core, 'OPTIONS', '/test/v1/things/4');
    assert.equal(anonymous.status, 200);
    assert.equal(anonymous.json.namespace, 'test/v1');
    assert.deepEqual(anonymous.json.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.equal(anonymous.json.schema.properties.secret.type, 'string');
    assert.equal(anonymous.headers.Allow, 'GET');
    const editor = await send(core, 'OPTIONS', '/test/v1/things/4', { headers: EDITOR });
    assert.equal(editor.headers.Allow, 'GET, POST, PUT, PATCH, DELETE');
  });

  it('wraps the description for _jsonp and _envelope as any other answer', async () => {
    const jsonp = await core.handle({ method: 'OPTIONS', path: '/test/v1/things/4', query: '_jsonp=cb' });
    assert.equal(jsonp.headers['Content-Type'], 'application/javascript; charset=UTF-8');
    assert.match(String(jsonp.body), /^\/\*\*\/cb\(\{"namespace":"test\/v1",/);
    const envelope = await send(core, 'OPTIONS', '/test/v1/things/4?_envelope');
    assert.equal(envelope.status, 200);
    assert.equal(envelope.json.status, 200);
    assert.equal(envelope.json.body.namespace, 'test/v1');
    assert.deepEqual(envelope.json.headers, { Allow: 'GET' });
    assert.equal(envelope.headers.Allow, undefined, 'the route headers move into the envelope');
  });

  it('answers 200 [] without Allow when nothing matches', async () => {
    const response = await send(core, 'OPTIONS', '/nothing/here');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, []);
    assert.equal(response.headers.Allow, undefined);
  });
});

describe('arguments', () => {
  const core = makeCore();

  it('coerces query strings by type and applies defaults', async () => {
    const response = await send(core, 'GET', '/test/v1/echo?count=3&flag=TRUE&tags=a,b,,c&untouched[x]=1');
    assert.equal(response.status, 200);
    assert.deepEqual(structuredClone(response.json.params), { count: 3, flag: true, tags: ['a', 'b', 'c'], untouched: { x: '1' } });
  });

  it('reports invalid parameters with the reference body', async () => {
    const response = await send(core, 'GET', '/test/v1/things?per_page=abc&page=0&order=up');
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): page, per_page',
      data: {
        status: 400,
        params: { page: 'page must be greater than or equal to 1', per_page: 'per_page is not of type integer.' },
        details: {
          page: { code: 'rest_out_of_bounds', message: 'page must be greater than or equal to 1', data: null },
          per_page: { code: 'rest_invalid_type', message: 'per_page is not of type integer.', data: { param: 'per_page' } },
        },
      },
    });
  });

  it('checks type-only arguments in the second pass', async () => {
    const response = await send(core, 'GET', '/test/v1/things?order=up');
    assert.equal(response.status, 400);
    assert.equal(response.json.data.params.order, 'order is not one of asc and desc.');
    assert.equal(response.headers.Allow, 'GET');
  });

  it('reports missing required parameters before anything else, and validation before permission', async () => {
    const response = await send(core, 'POST', '/test/v1/things', { json: {} });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title',
      data: { status: 400, params: ['title'] },
    });
    const permissionAfter = await send(core, 'POST', '/test/v1/things', { json: { title: 'ok' } });
    assert.equal(permissionAfter.status, 401);
    assert.equal(permissionAfter.json.code, 'rest_cannot_edit');
  });

  it('reports invalid JSON only once a route matched', async () => {
    const bad = await send(core, 'POST', '/test/v1/things', { json: '{"title": ', headers: EDITOR });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, {
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
    });
    assert.equal((await send(core, 'POST', '/nope', { json: '{' })).status, 404);
  });

  it('takes body over query and a JSON null as absent', async () => {
    const form = await send(core, 'POST', '/test/v1/echo?count=1', { form: 'count=2' });
    assert.equal(form.json.params.count, 2);
    const json = await send(core, 'POST', '/test/v1/echo?untouched=q', { json: { untouched: null } });
    assert.equal(json.json.params.untouched, 'q');
    const getForm = await send(core, 'GET', '/test/v1/echo?count=1', { form: 'count=2' });
    assert.equal(getForm.json.params.count, 1, 'form bodies are ignored on GET');
    const getJson = await send(core, 'GET', '/test/v1/echo?count=1', { json: { count: 4 } });
    assert.equal(getJson.json.params.count, 4, 'a JSON body counts on GET');
  });
});

describe('permissions and errors', () => {
  it('answers 401 to anonymous and 403 to a logged-in user without the capability', async () => {
    const core = makeCore({ users: { 'Bearer reader': { id: 3, login: 'r', roles: [], capabilities: new Set() } } });
    const anonymous = await send(core, 'DELETE', '/test/v1/things/4');
    assert.equal(anonymous.status, 401);
    const reader = await send(core, 'DELETE', '/test/v1/things/4', { headers: { authorization: 'Bearer reader' } });
    assert.equal(reader.status, 403);
    assert.equal(reader.json.code, 'rest_cannot_edit');
    assert.equal(reader.headers['Cache-Control'], 'no-cache, must-revalidate, max-age=0', 'logged-in answers are not cached');
  });

  it('answers bad credentials before routing, without Allow', async () => {
    const response = await send(makeCore(), 'GET', '/test/v1/things', { headers: { authorization: 'Bearer nobody' } });
    assert.equal(response.status, 401);
    assert.equal(response.json.code, 'incorrect_password');
    assert.equal(response.headers.Allow, undefined);
  });

  it('answers a store that cannot be reached with 503 and Retry-After, unreported, wherever it fails', async () => {
    const unreachable = () => Object.assign(new Error('The database cannot be reached.'), { name: 'StorageError', code: 'store_unavailable' });
    const reported: unknown[] = [];
    const registry = new Registry();
    registry.namespace('down/v1', namespaceRoot(registry));
    registry.add('down/v1', '/read', [{ methods: ['GET'], permission: allowAnyone, handler: () => { throw unreachable(); } }]);
    const options = { registry, services: {} as Services, site: { url: 'http://example.test' }, maxBodyBytes: 1024, headerPrefix: 'X-WP', jsonp: false,
      onError: (error: unknown) => reported.push(error) };
    const cores = {
      handler: new Dispatcher(options),
      authentication: new Dispatcher({ ...options, authenticate: () => { throw unreachable(); } }),
      settings: new Dispatcher({ ...options, currentSite: async () => { throw unreachable(); } }),
    };
    for (const [where, core] of Object.entries(cores)) {
      const response = await send(core, 'GET', '/down/v1/read', { headers: { authorization: 'Bearer someone' } });
      assert.equal(response.status, 503, where);
      assert.equal(response.headers['Retry-After'], '5', where);
      assert.equal(response.json.code, 'store_unavailable', where);
      assert.deepEqual(response.json.data, { status: 503, retry_after: 5 }, where);
    }
    assert.deepEqual(reported, [], 'an outage is expected, not a fault to report');
  });

  it('turns unexpected errors into a bare 500 and reports them', async () => {
    const reported: unknown[] = [];
    const core = makeCore({ onError: (error) => reported.push(error) });
    const response = await send(core, 'GET', '/test/v1/boom');
    assert.equal(response.status, 500);
    assert.equal(response.json.code, 'internal_error');
    assert.deepEqual(Object.keys(response.json), ['code', 'message', 'data']);
    assert.doesNotMatch(JSON.stringify(response.body), /exploded|secret|at /);
    assert.equal(reported.length, 1);
    assert.match(String((reported[0] as Error).message), /exploded/);
  });

  it('refuses bodies over the limit with 413', async () => {
    const core = makeCore({ maxBodyBytes: 10 });
    const response = await send(core, 'POST', '/test/v1/echo', { json: { count: 123456789 } });
    assert.equal(response.status, 413);
    assert.equal(response.json.code, 'rest_request_too_large');
    assert.equal(response.json.data.status, 413);
    const declared = await send(core, 'POST', '/test/v1/echo', { headers: { 'content-length': '11' } });
    assert.equal(declared.status, 413);
  });
});

describe('response shaping', () => {
  const core = makeCore();

  it('filters fields by context, nested ones too', async () => {
    const view = (await send(core, 'GET', '/test/v1/things/2')).json;
    assert.deepEqual(Object.keys(view), ['id', 'title', 'note', '_links']);
    assert.deepEqual(view.title, { rendered: '<p>Thing 2</p>' });
    const edit = (await send(core, 'GET', '/test/v1/things/2?context=edit', { headers: EDITOR })).json;
    assert.deepEqual(edit.title, { raw: 'Thing 2', rendered: '<p>Thing 2</p>' });
    assert.equal(edit.secret, 's2');
    const embed = (await send(core, 'GET', '/test/v1/things/2?context=embed')).json;
    assert.deepEqual(Object.keys(embed), ['id', 'title', '_links']);
  });

  it('shows a write answer in the context the handler chose', async () => {
    const response = await send(core, 'PATCH', '/test/v1/things/2', { json: { note: 'x' }, headers: EDITOR });
    assert.deepEqual(response.json, { id: 2, note: 'x', secret: 'shown in edit' });
  });

  it('compacts links with curies, attributes before href', async () => {
    const links = (await send(core, 'GET', '/test/v1/things/2')).json._links;
    assert.deepEqual(Object.keys(links), ['self', 'author', 'wp:term', 'about', 'curies']);
    assert.deepEqual(Object.keys(links['wp:term'][0]), ['taxonomy', 'embeddable', 'href']);
    assert.deepEqual(links.curies, [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }]);
    assert.equal(links.self[0].href, 'http://example.test/cms-json/test/v1/things/2');
  });

  it('applies _fields with nested paths; single items keep _links only when asked', async () => {
    const single = (await send(core, 'GET', '/test/v1/things/2?_fields=id,title.rendered')).json;
    assert.deepEqual(single, { id: 2, title: { rendered: '<p>Thing 2</p>' } });
    const withLinks = (await send(core, 'GET', '/test/v1/things/2?_fields=id,_links')).json;
    assert.deepEqual(Object.keys(withLinks), ['id', '_links']);
    const list = (await send(core, 'GET', '/test/v1/things?per_page=2&_fields=id,_links.self')).json;
    assert.deepEqual(list, [
      { id: 23, _links: { self: [{ href: 'http://example.test/cms-json/test/v1/things/23' }] } },
      { id: 22, _links: { self: [{ href: 'http://example.test/cms-json/test/v1/things/22' }] } },
    ]);
    assert.deepEqual((await send(core, 'GET', '/test/v1/things/2?_fields=nope')).body, []);
  });

  it('adds totals and prev/next links that keep the query, replacing the discovery link', async () => {
    const response = await send(core, 'GET', '/test/v1/things?per_page=5&page=2&_fields=id');
    assert.equal(response.headers['X-WP-Total'], '23');
    assert.equal(response.headers['X-WP-TotalPages'], '5');
    assert.equal(
      response.headers.Link,
      '<http://example.test/cms-json/test/v1/things?per_page=5&page=1&_fields=id>; rel="prev", '
        + '<http://example.test/cms-json/test/v1/things?per_page=5&page=3&_fields=id>; rel="next"',
    );
    const first = await send(core, 'GET', '/test/v1/things');
    assert.equal(first.headers.Link, '<http://example.test/cms-json/test/v1/things?page=2>; rel="next"');
    const single = await send(core, 'GET', '/test/v1/things/1');
    assert.equal(single.headers.Link, '<http://example.test/cms-json/>; rel="https://api.w.org/"');
  });

  it('wraps the answer in an envelope', async () => {
    const response = await send(core, 'GET', '/test/v1/things?per_page=1&_envelope&_fields=id');
    assert.equal(response.status, 200);
    assert.equal(response.headers['X-WP-Total'], undefined, 'own headers move into the envelope');
    assert.deepEqual(response.json.body, [{ id: 23 }]);
    assert.equal(response.json.status, 200);
    assert.equal(response.json.headers['X-WP-Total'], 23);
    assert.equal(response.json.headers.Allow, 'GET');
    const missing = await send(core, 'GET', '/nope?_envelope');
    assert.equal(missing.status, 200);
    assert.equal(missing.json.status, 404);
    assert.deepEqual(missing.json.headers, []);
  });

  it('embeds embeddable links through the pipeline, as the same user, in embed context', async () => {
    const body = (await send(core, 'GET', '/test/v1/things/2?_embed')).json;
    assert.deepEqual(body._embedded.author, [{
      id: 1, name: 'Person 1', _links: { self: [{ href: 'http://example.test/cms-json/test/v1/people/1' }] },
    }]);
    assert.equal(body._embedded['wp:term'].length, 2);
    assert.equal(body._embedded['wp:term'][1].code, 'rest_forbidden');
    assert.equal(body._embedded['wp:term'][1].data.status, 401);
    assert.equal(body._embedded.about, undefined, 'links that are not embeddable are not fetched');
    const onlyAuthor = (await send(core, 'GET', '/test/v1/things/2?_embed=author')).json;
    assert.deepEqual(Object.keys(onlyAuthor._embedded), ['author']);
    const listWithoutLinks = (await send(core, 'GET', '/test/v1/things?per_page=1&_embed&_fields=id')).json;
    assert.deepEqual(listWithoutLinks, [{ id: 23 }], 'collections need _links in _fields to embed');
    const list = (await send(core, 'GET', '/test/v1/things?per_page=2&_embed=author')).json;
    assert.equal(list[1]._embedded.author[0].name, 'Person 1');
  });

  it('sends the fixed headers and echoes CORS origins', async () => {
    const response = await send(core, 'POST', '/test/v1/echo', { headers: { origin: 'https://app.example' } });
    assert.equal(response.headers['Content-Type'], 'application/json; charset=UTF-8');
    assert.equal(response.headers['X-Robots-Tag'], 'noindex');
    assert.equal(response.headers['X-Content-Type-Options'], 'nosniff');
    assert.equal(response.headers['Access-Control-Expose-Headers'], 'X-WP-Total, X-WP-TotalPages, Link');
    assert.equal(response.headers['Access-Control-Allow-Origin'], 'https://app.example');
    assert.equal(response.headers['Access-Control-Allow-Credentials'], 'true');
    assert.equal(response.headers['Access-Control-Allow-Methods'], 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
    assert.equal(response.headers.Vary, 'Origin');
  });

  it('pretty-prints and wraps JSONP', async () => {
    const pretty = await send(core, 'GET', '/test/v1/things/1?_pretty&_fields=id');
    assert.equal(new TextDecoder().decode(pretty.body as Uint8Array), '{\n    "id": 1\n}');
    const jsonp = await core.handle({ method: 'GET', path: '/test/v1/things/1', query: '_jsonp=cb&_fields=id' });
    assert.equal(jsonp.body, '/**/cb({"id":1})');
    assert.equal(jsonp.headers['Content-Type'], 'application/javascript; charset=UTF-8');
    const invalid = await core.handle({ method: 'GET', path: '/', query: '_jsonp=alert(1)' });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.body, { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' });
  });
});

describe('Allow after a write', () => {
  /** A route whose permission checks read a record through the request memo, as resources do. */
  function recordsCore() {
    const records = new Map([[1, 'one'], [2, 'two']]);
    let loads = 0;
    const registry = new Registry();
    registry.namespace('rec/v1', namespaceRoot(registry));
    const load = (context: RequestContext) => context.memo(`record:${String(context.params.id)}`, () => {
      loads += 1;
      return records.get(context.params.id as number) ?? null;
    });
    const exists = (context: RequestContext) => load(context) !== null || new CmsError('rest_record_invalid_id', 'Invalid record ID.', 404);
    registry.add('rec/v1', '/records/(?P<id>[\\d]+)', [
      { methods: ['GET'], args: { id: args.integer() }, permission: exists, handler: (context) => ({ value: load(context) }) },
      { methods: ['POST'], args: { id: args.integer(), value: args.string() }, permission: exists, handler: (context) => {
        records.set(context.params.id as number, String(context.params.value));
        return { value: records.get(context.params.id as number) };
      } },
      { methods: ['DELETE'], args: { id: args.integer() }, permission: exists, handler: (context) => {
        records.delete(context.params.id as number);
        return { deleted: true };
      } },
    ]);
    const core = new Dispatcher({ registry, services: {} as Services, site: { url: 'http://example.test' }, maxBodyBytes: 1024, headerPrefix: 'X-WP', jsonp: true });
    return { core, loads: () => loads };
  }

  it('asks the permission checks about the state the write left: nothing is allowed on a deleted record', async () => {
    const { core } = recordsCore();
    const updated = await send(core, 'POST', '/rec/v1/records/1', { json: { value: 'uno' } });
    assert.deepEqual(updated.json, { value: 'uno' });
    assert.equal(updated.headers.Allow, 'GET, POST, DELETE');
    const deleted = await send(core, 'DELETE', '/rec/v1/records/2');
    assert.deepEqual(deleted.json, { deleted: true });
    assert.equal(deleted.headers.Allow, undefined);
    assert.equal((await send(core, 'GET', '/rec/v1/records/2')).status, 404);
  });

  it('reads keep what their permission check loaded for the Allow header', async () => {
    const { core, loads } = recordsCore();
    const read = await send(core, 'GET', '/rec/v1/records/1');
    assert.equal(read.headers.Allow, 'GET, POST, DELETE');
    assert.equal(loads(), 1, 'one load for the permission check, the handler and the Allow header');
  });
});

describe('the request context', () => {
  it('is the dispatcher\'s: a handler cannot change it, and chooses the answer\'s context through its result', async () => {
    const registry = new Registry();
    registry.namespace('ctx/v1', namespaceRoot(registry));
    const schema = { type: 'object', properties: { id: { type: 'integer', context: ['view', 'edit'] }, secret: { type: 'string', context: ['edit'] } } } as const;
    registry.add('ctx/v1', '/mutate', [{ methods: ['GET'], permission: allowAnyone, handler: (context) => {
      Object.assign(context, { context: 'edit' });
      return item({ data: { id: 1, secret: 's' } });
    } }], { schema: () => schema });
    registry.add('ctx/v1', '/edit', [{ methods: ['GET'], permission: allowAnyone, handler: () => item({ data: { id: 1, secret: 's' } }, { context: 'edit' }) }],
      { schema: () => schema });
    const errors: unknown[] = [];
    const core = new Dispatcher({
      registry, services: {} as Services, site: { url: 'http://example.test' }, maxBodyBytes: 1024, headerPrefix: 'X-WP', jsonp: true,
      onError: (error) => errors.push(error),
    });
    const mutated = await send(core, 'GET', '/ctx/v1/mutate');
    assert.equal(mutated.status, 500);
    assert.equal(mutated.json.code, 'internal_error');
    assert.ok(errors[0] instanceof TypeError, 'the frozen context refused the change');
    assert.deepEqual((await send(core, 'GET', '/ctx/v1/edit')).json, { id: 1, secret: 's' });
  });
});
