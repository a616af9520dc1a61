import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { as, makeMediaSite, png, quarters, uploadRaw, type MediaSite } from './helpers.js';

const ids = (body: unknown) => (body as { id: number }[]).map((item) => item.id).sort((a, b) => a - b);

async function attach(site: MediaSite, parent: number, caption: string): Promise<number> {
  const query = new URLSearchParams({ post: String(parent), caption, generate_sub_sizes: 'false' }).toString();
  const response = await uploadRaw(site, { name: 'picture.png', type: 'image/png', bytes: png(quarters(8, 8)) }, { query });
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.json)}`);
  return response.json.id;
}

/** Posts by the author in several states, each with an attachment uploaded by the administrator. */
async function seed() {
  const site = await makeMediaSite();
  const author = as(site, 'author');
  const admin = as(site, 'administrator');
  const post = async (fields: Record<string, unknown>) => (await author('POST', '/cms/v2/posts', { json: { title: 'x', ...fields } })).json.id as number;
  const parents = {
    publish: await post({ status: 'publish' }),
    draft: await post({ status: 'draft' }),
    private: await post({ status: 'private' }),
    trashed: await post({ status: 'publish' }),
  };
  const media = {
    publish: await attach(site, parents.publish, 'caption of a published post'),
    draft: await attach(site, parents.draft, 'caption of a draft'),
    private: await attach(site, parents.private, 'caption of a private post'),
    trashed: await attach(site, parents.trashed, 'caption of a trashed post'),
    unattached: await attach(site, 0, 'caption of nothing'),
  };
  await admin('DELETE', `/cms/v2/posts/${parents.trashed}`);
  return { site, parents, media };
}

describe('media: an attachment is readable exactly when its parent is', () => {
  it('answers single reads with 401 or 403 rest_forbidden when the parent is hidden', async () => {
    const { site, media } = await seed();
    const expectations: [string | null, Record<keyof typeof media, number>][] = [
      [null, { publish: 200, unattached: 200, draft: 401, private: 401, trashed: 401 }],
      ['subscriber', { publish: 200, unattached: 200, draft: 403, private: 403, trashed: 403 }],
      ['contributor', { publish: 200, unattached: 200, draft: 403, private: 403, trashed: 403 }],
      ['author', { publish: 200, unattached: 200, draft: 200, private: 200, trashed: 200 }],
      ['editor', { publish: 200, unattached: 200, draft: 200, private: 200, trashed: 200 }],
    ];
    for (const [role, statuses] of expectations) {
      for (const [state, id] of Object.entries(media) as [keyof typeof media, number][]) {
        const response = await as(site, role as never)('GET', `/cms/v2/media/${id}`);
        assert.equal(response.status, statuses[state], `${role ?? 'anonymous'} reading the media of a ${state} post`);
        if (response.status !== 200) {
          assert.equal(response.json.code, 'rest_forbidden');
          assert.equal(JSON.stringify(response.json).includes('caption'), false);
        }
      }
    }
  });

  it('lists, counts and finds only attachments of readable parents', async () => {
    const { site, media } = await seed();
    for (const role of [null, 'subscriber', 'contributor'] as const) {
      const list = await as(site, role)('GET', '/cms/v2/media');
      assert.deepEqual(ids(list.json), [media.publish, media.unattached].sort((a, b) => a - b), String(role));
      assert.equal(list.headers['X-WP-Total'], '2');
      for (const word of ['draft', 'private', 'trashed']) {
        const search = await as(site, role)('GET', `/cms/v2/media?search=caption of a ${word}`);
        assert.deepEqual([search.json, search.headers['X-WP-Total']], [[], '0'], `${role} searching ${word}`);
      }
    }
    const owner = await as(site, 'author')('GET', '/cms/v2/media');
    assert.equal(owner.headers['X-WP-Total'], '5');
    assert.deepEqual(ids(owner.json), Object.values(media).sort((a, b) => a - b));
  });

  it('embeds a hidden featured image as an error', async () => {
    const { site, media } = await seed();
    const admin = as(site, 'administrator');
    const showcase = (await admin('POST', '/cms/v2/posts', { json: { title: 'Showcase', status: 'publish', featured_media: media.private } })).json;
    const anonymous = await as(site, null)('GET', `/cms/v2/posts/${showcase.id}?_embed=wp:featuredmedia`);
    const [embedded] = anonymous.json._embedded['wp:featuredmedia'];
    assert.deepEqual([embedded.code, embedded.data.status], ['rest_forbidden', 401]);
    const subscriber = await as(site, 'subscriber')('GET', `/cms/v2/posts/${showcase.id}?_embed=wp:featuredmedia`);
    assert.deepEqual([subscriber.json._embedded['wp:featuredmedia'][0].code, subscriber.json._embedded['wp:featuredmedia'][0].data.status], ['rest_forbidden', 403]);
    const editor = await as(site, 'editor')('GET', `/cms/v2/posts/${showcase.id}?_embed=wp:featuredmedia`);
    assert.equal(editor.json._embedded['wp:featuredmedia'][0].id, media.private);
  });

  it('follows the parent when it changes', async () => {
    const { site, parents, media } = await seed();
    const author = as(site, 'author');
    assert.equal((await as(site, null)('GET', `/cms/v2/media/${media.draft}`)).status, 401);
    await author('POST', `/cms/v2/posts/${parents.draft}`, { json: { status: 'publish' } });
    assert.equal((await as(site, null)('GET', `/cms/v2/media/${media.draft}`)).status, 200);
    await author('POST', `/cms/v2/posts/${parents.publish}`, { json: { status: 'private' } });
    const list = await as(site, null)('GET', '/cms/v2/media');
    assert.deepEqual(ids(list.json), [media.draft, media.unattached].sort((a, b) => a - b));
  });
});
