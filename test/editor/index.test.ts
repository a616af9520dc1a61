import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type apiFetch from '@wordpress/api-fetch';
import { neutralApiPath, neutralNamesMiddleware, type ApiFetchRequest } from '../../src/editor/index.js';

describe('neutralApiPath', () => {
  it('renames the reference namespaces, with or without the leading slash, keeping the query', () => {
    assert.equal(neutralApiPath('/wp/v2/posts/4'), '/cms/v2/posts/4');
    assert.equal(neutralApiPath('wp/v2/posts/?context=edit'), 'cms/v2/posts/?context=edit');
    assert.equal(neutralApiPath('/wp/v2?context=view'), '/cms/v2?context=view');
    assert.equal(neutralApiPath('/wp-block-editor/v1/url-details?url=x'), '/cms-block-editor/v1/url-details?url=x');
    assert.equal(neutralApiPath('/contact-form-7/v1/contact-forms'), '/forms/v1/contact-forms');
  });

  it('leaves other paths as they are', () => {
    for (const path of ['/', '/oembed/1.0/proxy?url=/wp/v2/x', '/batch/v1', '/cms/v2/posts', '/wp/v22/posts', '/wpx/v2', 'wp', '']) {
      assert.equal(neutralApiPath(path), path);
    }
  });
});

describe('neutralNamesMiddleware', () => {
  type Options = ApiFetchRequest & Record<string, unknown>;
  const seen = async (options: Options): Promise<Options> => {
    let passed: Options | undefined;
    await neutralNamesMiddleware<Options>()(options, async (next) => { passed = next; return null; });
    return passed!;
  };

  it('is what api-fetch takes as a middleware, with its own option types', () => {
    const middleware: Parameters<typeof apiFetch.use>[0] = neutralNamesMiddleware();
    assert.equal(typeof middleware, 'function');
  });

  it('rewrites the path and keeps every other option', async () => {
    const passed = await seen({ path: '/wp/v2/posts', method: 'POST', data: { title: 'x' }, parse: false });
    assert.deepEqual(passed, { path: '/cms/v2/posts', method: 'POST', data: { title: 'x' }, parse: false });
  });

  it('rewrites each request path of a batch', async () => {
    const passed = await seen({
      path: '/batch/v1', method: 'POST',
      data: { validation: 'require-all-validate', requests: [{ path: '/wp/v2/posts/1', method: 'PUT', body: {} }, { path: '/wp/v2/widgets' }, 'odd'] },
    });
    assert.deepEqual(passed.data, {
      validation: 'require-all-validate',
      requests: [{ path: '/cms/v2/posts/1', method: 'PUT', body: {} }, { path: '/cms/v2/widgets' }, 'odd'],
    });
  });

  it('passes requests by URL, and bodies of other routes, untouched', async () => {
    const byUrl = { url: 'http://site.test/cms-json/wp/v2/posts', method: 'GET' };
    assert.deepEqual(await seen(byUrl), byUrl);
    const data = { requests: [{ path: '/wp/v2/posts' }] };
    assert.equal((await seen({ path: '/wp/v2/posts', method: 'POST', data })).data, data);
  });
});
