/**
 * Real WordPress clients, unchanged, against the standalone server serving the reference's names
 * (`quire serve --names wordpress`): `@wordpress/api-fetch` with its default paths and middlewares, and `wpapi`
 * discovering the routes from the index.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import apiFetch from '@wordpress/api-fetch';
import WPAPI from 'wpapi';
import { serve } from '../cli/helpers.js';

const PASSWORD = 'abcd EFGH 1234 ijkl MNOP 5678';
const BASIC = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
/** A 1×1 PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

interface ApiError { code: string; message: string; data: { status: number } }

let server: ChildProcess;
let apiUrl: string;
let siteUrl: string;

before(async () => {
  const started = await serve(['--names', 'wordpress', '--admin-app-password', PASSWORD]);
  server = started.child;
  apiUrl = started.apiUrl.replace(/\/$/, '');
  siteUrl = apiUrl.replace(/\/wp-json$/, '');
  apiFetch.use(apiFetch.createRootURLMiddleware(`${apiUrl}/`));
  apiFetch.use((options, next) => next({ ...options, headers: { ...options.headers, Authorization: BASIC } }));
});

after(() => {
  server?.kill();
});

describe('names: wordpress, through @wordpress/api-fetch', () => {
  it('serves below /wp-json with the reference namespaces in the index', async () => {
    assert.match(apiUrl, /\/wp-json$/);
    const index = await apiFetch<{ namespaces: string[]; routes: Record<string, { namespace: string }> }>({ path: '/' });
    for (const name of ['wp/v2', 'contact-form-7/v1', 'mc4wp/v1', 'sliderrevolution', 'oembed/1.0', 'wp-site-health/v1']) {
      assert.ok(index.namespaces.includes(name), name);
    }
    for (const name of ['cms/v2', 'forms/v1', 'mailing/v1', 'slider', 'cms-site-health/v1']) {
      assert.ok(!index.namespaces.includes(name), name);
    }
    assert.equal(index.routes['/wp/v2/posts']?.namespace, 'wp/v2');
    assert.equal(index.routes['/sliderrevolution']?.namespace, 'sliderrevolution');
    assert.ok(Object.keys(index.routes).every((route) => !route.startsWith('/cms/')));
  });

  it('creates, updates (through the method override), reads and lists posts at /wp/v2/posts', async () => {
    const created = await apiFetch<{ id: number; title: { raw: string }; _links: Record<string, { href: string }[]> }>({
      path: '/wp/v2/posts', method: 'POST', data: { title: 'Hello', content: '<p>Hi</p>', status: 'publish' },
    });
    assert.equal(created.title.raw, 'Hello');
    assert.equal(created._links.self![0]!.href, `${apiUrl}/wp/v2/posts/${created.id}`);
    assert.equal(created._links.collection![0]!.href, `${apiUrl}/wp/v2/posts`);
    assert.equal(created._links['wp:attachment']![0]!.href, `${apiUrl}/wp/v2/media?parent=${created.id}`);

    const updated = await apiFetch<{ title: { raw: string } }>({ path: `/wp/v2/posts/${created.id}`, method: 'PUT', data: { title: 'Changed' } });
    assert.equal(updated.title.raw, 'Changed');
    const read = await apiFetch<{ title: { rendered: string } }>({ path: `/wp/v2/posts/${created.id}?context=view` });
    assert.equal(read.title.rendered, 'Changed');
    const all = await apiFetch<{ id: number }[]>({ path: '/wp/v2/posts?per_page=-1' });
    assert.ok(all.some((post) => post.id === created.id));
  });

  it('pages through a collection with per_page=-1 by following the Link headers', async () => {
    for (let n = 0; n < 12; n += 1) await apiFetch({ path: '/wp/v2/tags', method: 'POST', data: { name: `tag ${n}` } });
    const response = await apiFetch<Response>({ path: '/wp/v2/tags?per_page=5', parse: false });
    assert.equal(response.headers.get('X-WP-Total'), '12');
    assert.match(response.headers.get('Link') ?? '', new RegExp(`<${apiUrl}/wp/v2/tags\\?[^>]*page=2[^>]*>; rel="next"`));
    const tags = await apiFetch<{ name: string }[]>({ path: '/wp/v2/tags?per_page=-1' });
    assert.equal(tags.length, 12);
  });

  it('uploads media as multipart form data at /wp/v2/media', async () => {
    const form = new FormData();
    form.append('file', new Blob([PIXEL], { type: 'image/png' }), 'pixel.png');
    form.append('alt_text', 'One pixel');
    const media = await apiFetch<{ id: number; alt_text: string; media_details: { width: number }; _links: Record<string, { href: string }[]> }>({
      path: '/wp/v2/media', method: 'POST', body: form,
    });
    assert.equal(media.alt_text, 'One pixel');
    assert.equal(media.media_details.width, 1);
    assert.equal(media._links.self![0]!.href, `${apiUrl}/wp/v2/media/${media.id}`);
  });

  it('runs a batch through /batch/v1 with /wp/v2 paths, as the block editor does', async () => {
    const first = await apiFetch<{ id: number }>({ path: '/wp/v2/posts', method: 'POST', data: { title: 'To delete' } });
    const batch = await apiFetch<{ responses: { status: number; body: { id?: number; deleted?: boolean } }[] }>({
      path: '/batch/v1', method: 'POST',
      data: {
        validation: 'require-all-validate',
        requests: [
          { path: '/wp/v2/posts', method: 'POST', body: { title: 'From a batch' } },
          { path: `/wp/v2/posts/${first.id}?force=true`, method: 'DELETE' },
        ],
      },
    });
    assert.deepEqual(batch.responses.map((response) => response.status), [201, 200]);
    assert.equal(batch.responses[1]!.body.deleted, true);
    const neutral = await apiFetch<{ responses: { status: number; body: ApiError }[] }>({
      path: '/batch/v1', method: 'POST', data: { requests: [{ path: '/cms/v2/posts', method: 'POST', body: { title: 'x' } }] },
    });
    assert.equal(neutral.responses[0]!.body.code, 'rest_no_route');
  });

  it('rejects with the error body: codes are the same, the neutral names are not served', async () => {
    await assert.rejects(apiFetch({ path: '/wp/v2/posts/999999' }), (error: ApiError) => {
      assert.equal(error.code, 'rest_post_invalid_id');
      assert.equal(error.data.status, 404);
      return true;
    });
    await assert.rejects(apiFetch({ path: '/cms/v2/posts' }), (error: ApiError) => error.code === 'rest_no_route');
  });

  it('serves the plugin namespaces under their reference names', async () => {
    const forms = await apiFetch<unknown[]>({ path: '/contact-form-7/v1/contact-forms' });
    assert.ok(Array.isArray(forms));
    const root = await apiFetch<{ namespace: string; routes: Record<string, unknown> }>({ path: '/mc4wp/v1' });
    assert.equal(root.namespace, 'mc4wp/v1');
    assert.ok(Object.keys(root.routes).every((route) => route.startsWith('/mc4wp/v1')));
  });
});

describe('names: wordpress, through wpapi discovery', () => {
  it('discovers the API from the site root and uses its default wp/v2 resources', async () => {
    const site = await WPAPI.discover(siteUrl);
    site.auth({ username: 'admin', password: PASSWORD });
    const created = await site.posts().create({ title: 'Through wpapi', content: 'Body', status: 'publish' }) as { id: number };
    const read = await site.posts().id(created.id).get() as { title: { rendered: string } };
    assert.equal(read.title.rendered, 'Through wpapi');
    const category = await site.categories().create({ name: 'News' }) as { id: number; name: string };
    assert.equal(category.name, 'News');
    const page = await site.posts().perPage(1).page(1).get() as unknown[] & { _paging: { total: number; totalPages: number } };
    assert.equal(page.length, 1);
    assert.ok(page._paging.total >= 2);
    assert.equal(page._paging.totalPages, page._paging.total);
    // wpapi names a namespace's resources after their path segments, as they are.
    const forms = await site.namespace('contact-form-7/v1')['contact-forms']().get() as unknown[];
    assert.ok(Array.isArray(forms));
  });
});
