import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms, type CmsResponse } from '../../src/index.js';

const BASE = 'http://site.test/wp-json';

async function setUp() {
  const cms = createCms({ names: 'wordpress' });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
  const call = (method: string, path: string, query = '', body?: unknown): Promise<CmsResponse> => cms.handle({
    method, path, query, baseUrl: BASE, user: { id: admin.id },
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { cms, call };
}

const json = (response: CmsResponse) => response.body as Record<string, any>;

describe('createCms({ names: "wordpress" })', () => {
  it('defaults the API root to /wp-json and refuses unknown schemes', () => {
    assert.equal(createCms({ names: 'wordpress' }).apiRoot, '/wp-json');
    assert.equal(createCms({ names: 'wordpress', site: { apiRoot: '/api' } }).apiRoot, '/api');
    assert.equal(createCms().apiRoot, '/cms-json');
    assert.throws(() => createCms({ names: 'other' as never }), /Unknown names 'other'/);
  });

  it('links every record, page and embed through the reference names', async () => {
    const { call } = await setUp();
    const created = await call('POST', '/wp/v2/posts', '', { title: 'One', status: 'publish' });
    assert.equal(created.status, 201);
    assert.equal(created.headers.Location, `${BASE}/wp/v2/posts/${json(created).id}`);
    await call('POST', '/wp/v2/posts', '', { title: 'Two', status: 'publish' });
    const page = await call('GET', '/wp/v2/posts', 'per_page=1&_embed=author');
    assert.match(page.headers.Link!, new RegExp(`^<${BASE}/wp/v2/posts\\?per_page=1&_embed=author&page=2>; rel="next"`));
    const [first] = page.body as Record<string, any>[];
    assert.equal(first!._links.author[0].href, `${BASE}/wp/v2/users/1`);
    assert.equal(first!._embedded.author[0].slug, 'admin');
    const serialized = JSON.stringify(page.body);
    assert.ok(!serialized.includes('/cms/v2') && !serialized.includes('cms-json'), serialized);
  });

  it('answers the namespace root, OPTIONS and rest_route under the reference names only', async () => {
    const { call } = await setUp();
    const root = json(await call('GET', '/wp/v2'));
    assert.equal(root.namespace, 'wp/v2');
    assert.ok(Object.keys(root.routes).every((route) => route.startsWith('/wp/v2')));
    const options = await call('OPTIONS', '/wp/v2/posts');
    assert.equal(json(options).namespace, 'wp/v2');
    const viaQuery = await call('GET', '/', 'rest_route=/wp/v2/posts');
    assert.equal(viaQuery.status, 200);
    for (const path of ['/cms/v2/posts', '/forms/v1/contact-forms', '/slider/sliders', '/mailing/v1/lists']) {
      const answer = await call('GET', path);
      assert.equal(answer.status, 404, path);
      assert.equal(json(answer).code, 'rest_no_route', path);
    }
    const neutralNamespace = await call('GET', '/wp/v2', 'namespace=cms/v2');
    assert.equal(neutralNamespace.status, 404);
    assert.equal(json(neutralNamespace).code, 'rest_invalid_namespace');
  });

  it('describes the reference names in the OpenAPI document', async () => {
    const { cms } = await setUp();
    const paths = Object.keys((cms.openapi(BASE) as { paths: Record<string, unknown> }).paths);
    assert.ok(paths.includes('/wp/v2/posts/{id}'));
    assert.ok(paths.includes('/contact-form-7/v1/contact-forms'));
    assert.ok(!paths.some((path) => path.startsWith('/cms/') || path.startsWith('/forms/')));
  });
});
