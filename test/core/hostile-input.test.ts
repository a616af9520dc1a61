import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { send } from '../helpers/request.js';
import { makeSite, type Site } from '../content/posts/helpers.js';

// The requests of the hardening report, each answered with a 4xx carrying the reference's code (or the
// reference's 200), and followed by requests that must behave as if it never happened.

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

function assertPrototypesUntouched(): void {
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_NAMES);
  const probe = {} as Record<string, unknown>;
  for (const key of ['_method', 'rest_route', '_jsonp', 'polluted', 'p', 'x', 'context']) assert.equal(probe[key], undefined, key);
  assert.equal(Object.getPrototypeOf(probe), Object.prototype);
}

function multipartBody(boundary: string, fields: [string, string][]): string {
  const lines = fields.flatMap(([name, value]) => [`--${boundary}`, `Content-Disposition: form-data; name="${name}"`, '', value]);
  return [...lines, `--${boundary}--`, ''].join('\r\n');
}

describe('hostile input', () => {
  let site: Site;
  let postId: number;

  before(async () => {
    site = await makeSite();
    postId = (await site.create({ title: 'Kept', content: 'Body', status: 'publish' })).id as number;
  });

  after(assertPrototypesUntouched);

  /** What a later administrator and a later anonymous caller see must be unchanged. */
  async function assertSiteBehaves(): Promise<void> {
    assertPrototypesUntouched();
    const read = await site.admin('GET', `/cms/v2/posts/${postId}?context=edit`);
    assert.equal(read.status, 200);
    assert.equal(read.headers['Content-Type'], 'application/json; charset=UTF-8');
    assert.equal(read.json.status, 'publish');
    assert.equal(read.json.title.raw, 'Kept');
    const list = await site.anonymous('GET', '/cms/v2/posts');
    assert.equal(list.status, 200);
    assert.deepEqual(list.json.map((post: { id: number }) => post.id), [postId]);
  }

  describe('prototype pollution', () => {
    for (const query of ['__proto__[_method]=DELETE', '__proto__[rest_route]=/cms/v2/users/me', '__proto__[_jsonp]=evil',
      'constructor[prototype][_method]=DELETE', '__proto__[context]=edit&__proto__[status]=draft']) {
      it(`GET /cms/v2/posts?${query} is an ordinary list`, async () => {
        const response = await site.anonymous('GET', `/cms/v2/posts?${query}`);
        assert.equal(response.status, 200);
        assert.equal(response.headers['Content-Type'], 'application/json; charset=UTF-8');
        await assertSiteBehaves();
      });
    }

    it('ignores the same keys in urlencoded and multipart bodies', async () => {
      const form = await site.anonymous('PUT', `/cms/v2/posts/${postId}`, { form: '__proto__[_method]=DELETE&constructor[prototype][x]=1&title=x' });
      assert.equal(form.status, 401);
      assert.equal(form.json.code, 'rest_cannot_edit');
      const boundary = 'hostile';
      const multipart = await site.cms.handle({
        method: 'POST',
        path: `/cms/v2/posts/${postId}`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: multipartBody(boundary, [['__proto__[_method]', 'DELETE'], ['constructor[prototype][p]', '1'], ['title', 'x']]),
      });
      assert.equal(multipart.status, 401);
      await assertSiteBehaves();
    });

    it('keeps JSON bodies merged into parameters from reaching a prototype', async () => {
      const json = '{"__proto__":{"status":"draft","context":"edit"},"constructor":{"prototype":{"polluted":1}},"meta":{"__proto__":{"x":1}}}';
      const update = await site.admin('POST', `/cms/v2/posts/${postId}`, { json });
      assert.equal(update.status, 200);
      assert.equal(update.json.status, 'publish');
      await assertSiteBehaves();
    });

    it('keeps batch item paths and bodies from reaching a prototype', async () => {
      const response = await site.admin('POST', '/batch/v1', {
        json: `{"requests":[{"method":"POST","path":"/cms/v2/posts/${postId}?__proto__[status]=draft&constructor[prototype][x]=1",`
          + '"body":{"__proto__":{"status":"draft"},"excerpt":"Short"}}]}',
      });
      assert.equal(response.status, 207);
      assert.equal(response.json.responses[0].status, 200);
      assert.equal(response.json.responses[0].body.status, 'publish');
      await assertSiteBehaves();
    });

    for (const query of ['_fields=__proto__.polluted', '_fields=constructor.prototype.polluted', '_fields[__proto__]=id&_fields[]=title',
      '_embed[__proto__]=author', '_embed=__proto__,constructor']) {
      it(`shapes ?${query} without touching a prototype`, async () => {
        const response = await site.anonymous('GET', `/cms/v2/posts?${query}`);
        assert.equal(response.status, 200);
        await assertSiteBehaves();
      });
    }
  });

  describe('parameter bombs', () => {
    for (const levels of [64000, 32000, 8000]) {
      it(`drops an urlencoded name nested ${levels} levels (PUT as anonymous is a 401)`, async () => {
        const response = await site.anonymous('PUT', `/cms/v2/posts/${postId}`, { form: `x${'[a]'.repeat(levels)}=1` });
        assert.equal(response.status, 401);
        assert.equal(response.json.code, 'rest_cannot_edit');
        await assertSiteBehaves();
      });
    }

    it('drops a multipart field name nested 64,000 levels', async () => {
      const response = await site.cms.handle({
        method: 'POST',
        path: `/cms/v2/posts/${postId}`,
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
        body: multipartBody('b', [[`x${'[a]'.repeat(64000)}`, '1']]),
      });
      assert.equal(response.status, 401);
      assert.equal((response.body as { code: string }).code, 'rest_cannot_edit');
      await assertSiteBehaves();
    });

    it('reads only the first 1,000 variables of a body with 600,000', async () => {
      const body = `${Array.from({ length: 600_000 }, (_, index) => `v${index}=1`).join('&')}&title=Changed`;
      const response = await site.admin('PUT', `/cms/v2/posts/${postId}`, { form: body });
      assert.equal(response.status, 200);
      assert.equal(response.json.title.raw, 'Kept');
      await assertSiteBehaves();
    });
  });

  describe('client input once answered with 500', () => {
    it('GET /?context[toString] answers the index', async () => {
      const response = await send(site.cms, 'GET', '/?context[toString]');
      assert.equal(response.status, 200);
      assert.equal(response.json.name, 'quire');
    });

    it('GET /cms/v2?namespace[toString]=x names no namespace', async () => {
      const response = await send(site.cms, 'GET', '/cms/v2?namespace[toString]=x');
      assert.equal(response.status, 404);
      assert.equal(response.json.code, 'rest_invalid_namespace');
    });

    it('POST /cms/v2/posts/1/autosaves?id[toString]=x is refused like any bad path parameter', async () => {
      for (const caller of [site.anonymous, site.admin]) {
        const response = await caller('POST', `/cms/v2/posts/${postId}/autosaves?id[toString]=x`, { json: { content: 'x' } });
        assert.equal(response.status, 400);
        assert.equal(response.json.code, 'rest_invalid_param');
      }
      const list = await site.admin('GET', `/cms/v2/posts/${postId}/autosaves?id[toString]=x`);
      assert.equal(list.status, 400);
      assert.equal(list.json.code, 'rest_invalid_param');
      await assertSiteBehaves();
    });
  });

  describe('costly bodies', () => {
    const deepJson = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

    it('refuses an anonymous 20 MB body before parsing it', async () => {
      const response = await site.anonymous('POST', '/cms/v2/posts', { json: deepJson(10_000_000) });
      assert.equal(response.status, 413);
      assert.equal(response.json.code, 'rest_request_too_large');
      const form = await site.anonymous('POST', '/cms/v2/posts', { form: `${'v=1&'.repeat(2_500_000)}` });
      assert.equal(form.status, 413);
      await assertSiteBehaves();
    });

    it('refuses a 10 MB urlencoded body and a 31 MB post from a logged-in caller before parsing them', async () => {
      const form = await site.admin('PUT', `/cms/v2/posts/${postId}`, { form: Array.from({ length: 1_000_000 }, (_, index) => `v${index}=1`).join('&') });
      assert.equal(form.status, 413);
      assert.equal(form.json.code, 'rest_request_too_large');
      const post = await site.admin('POST', '/cms/v2/posts', { json: { title: 'Large', content: 'word '.repeat(31 * 2 ** 20 / 5) } });
      assert.equal(post.status, 413);
      assert.equal(post.json.data.max_bytes, 8 * 2 ** 20);
      await assertSiteBehaves();
    });

    it('answers a deeply nested JSON body from a logged-in caller with the depth error', async () => {
      const response = await site.admin('POST', `/cms/v2/posts/${postId}`, { json: deepJson(1_000_000) });
      assert.equal(response.status, 400);
      assert.equal(response.json.code, 'rest_invalid_json');
      assert.equal(response.json.data.json_error_code, 1);
      await assertSiteBehaves();
    });

    it('lets a host choose the anonymous limit, and never above the general one', async () => {
      const small = await makeSite({ maxAnonymousBodyBytes: 100 });
      const body = { title: 'x'.repeat(200) };
      assert.equal((await small.anonymous('POST', '/cms/v2/posts', { json: body })).status, 413);
      assert.equal((await small.anonymous('POST', '/cms/v2/posts', { json: { title: 'x' } })).status, 401);
      assert.equal((await small.admin('POST', '/cms/v2/posts', { json: body })).status, 201);
      const capped = await makeSite({ maxBodyBytes: 50, maxAnonymousBodyBytes: 1000 });
      assert.equal((await capped.anonymous('POST', '/cms/v2/posts', { json: { title: 'x'.repeat(60) } })).json.data.max_bytes, 50);
    });
  });
});
