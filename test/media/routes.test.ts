import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createFilesystemBlobStore } from '../../src/storage/blobs/filesystem.js';
import { as, jpeg, makeMediaSite, png, quarters, uploadRaw, type MediaSite } from './helpers.js';

const ids = (body: unknown) => (body as { id: number }[]).map((item) => item.id);

async function upload(site: MediaSite, name: string, bytes: Uint8Array, type: string, query = '') {
  const response = await uploadRaw(site, { name, type, bytes }, { query });
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.json)}`);
  return response.json;
}

describe('media list', () => {
  it('filters by media type, MIME type, parent and status, and finds file names', async () => {
    const site = await makeMediaSite();
    const admin = as(site, 'administrator');
    const post = (await admin('POST', '/cms/v2/posts', { json: { title: 'Holder', status: 'publish' } })).json;
    const image = await upload(site, 'cat.png', png(quarters(16, 16)), 'image/png', `post=${post.id}`);
    const photo = await upload(site, 'dog.jpg', jpeg(quarters(16, 16)), 'image/jpeg');
    const paper = await upload(site, 'report.pdf', new TextEncoder().encode('%PDF-1.4\n'), 'application/pdf');
    const secret = await upload(site, 'secret.txt', new TextEncoder().encode('hush\n'), 'text/plain', 'status=private');

    const all = await admin('GET', '/cms/v2/media');
    assert.deepEqual(ids(all.json).sort(), [image.id, photo.id, paper.id].sort());
    assert.equal(all.headers['X-WP-Total'], '3');
    assert.deepEqual(ids((await admin('GET', '/cms/v2/media?media_type=image')).json).sort(), [image.id, photo.id].sort());
    assert.deepEqual(ids((await admin('GET', '/cms/v2/media?media_type=application')).json), [paper.id]);
    assert.deepEqual(ids((await admin('GET', '/cms/v2/media?mime_type=image/jpeg')).json), [photo.id]);
    assert.deepEqual(ids((await admin('GET', '/cms/v2/media?mime_type[]=image/jpeg&mime_type[]=application/pdf')).json).sort(), [photo.id, paper.id].sort());
    assert.deepEqual(ids((await admin('GET', `/cms/v2/media?parent=${post.id}`)).json), [image.id]);
    assert.deepEqual(ids((await admin('GET', '/cms/v2/media?parent=0')).json).sort(), [photo.id, paper.id].sort());
    assert.deepEqual(ids((await admin('GET', `/cms/v2/media?parent_exclude=${post.id}`)).json).sort(), [photo.id, paper.id].sort());
    assert.deepEqual(ids((await admin('GET', '/cms/v2/media?status=private')).json), [secret.id]);
    assert.deepEqual(ids((await admin('GET', '/cms/v2/media?search=report')).json), [paper.id]);
    assert.deepEqual(ids((await admin('GET', '/cms/v2/media?search=dog.jpg')).json), [photo.id]);
  });

  it('keeps private items and other statuses to those allowed', async () => {
    const site = await makeMediaSite();
    await upload(site, 'secret.txt', new TextEncoder().encode('hush\n'), 'text/plain', 'status=private');
    const visible = await upload(site, 'open.txt', new TextEncoder().encode('hello\n'), 'text/plain');
    const anonymous = await as(site, null)('GET', '/cms/v2/media');
    assert.deepEqual(ids(anonymous.json), [visible.id]);
    const forbidden = await as(site, null)('GET', '/cms/v2/media?status=private');
    assert.equal(forbidden.status, 400);
    assert.equal(forbidden.json.data.details.status.code, 'rest_forbidden_status');
    const badStatus = await as(site, 'administrator')('GET', '/cms/v2/media?status=publish');
    assert.equal(badStatus.status, 400);
    assert.equal(badStatus.json.code, 'rest_invalid_param');
    const badType = await as(site, 'administrator')('GET', '/cms/v2/media?media_type=spreadsheet');
    assert.equal(badType.status, 400);
  });

  it('publishes the media arguments in the index', async () => {
    const site = await makeMediaSite();
    const index = await as(site, null)('GET', '/cms/v2');
    const route = index.json.routes['/cms/v2/media'];
    const listArgs = route.endpoints[0].args;
    assert.equal(listArgs.status.default, 'inherit');
    assert.deepEqual(listArgs.status.items.enum, ['inherit', 'private', 'trash']);
    assert.deepEqual(listArgs.media_type.items.enum, ['image', 'video', 'text', 'application', 'audio', 'font']);
    assert.ok('parent' in listArgs && 'parent_exclude' in listArgs && 'mime_type' in listArgs, 'parent filters and mime_type are listed');
    assert.equal('categories' in listArgs, false);
    const createArgs = route.endpoints[1].args;
    for (const name of ['alt_text', 'caption', 'description', 'post', 'generate_sub_sizes', 'convert_format', 'url']) {
      assert.ok(name in createArgs, `create takes ${name}`);
    }
    assert.equal('password' in createArgs, false);
    const updateArgs = index.json.routes['/cms/v2/media/(?P<id>[\\d]+)'].endpoints[1].args;
    assert.equal('url' in updateArgs, false);
    assert.ok(index.json.routes['/cms/v2/media/(?P<id>[\\d]+)/post-process'], 'post-process route');
    const editArgs = index.json.routes['/cms/v2/media/(?P<id>[\\d]+)/edit'].endpoints[0].args;
    assert.equal(editArgs.src.required, true);
    assert.equal(editArgs.modifiers.minItems, 1);
  });
});

describe('single media items', () => {
  it('shows fields per context', async () => {
    const site = await makeMediaSite();
    const item = await upload(site, 'pic.png', png(quarters(400, 300)), 'image/png', 'caption=Hello&alt_text=Alt');
    const view = (await as(site, null)('GET', `/cms/v2/media/${item.id}`)).json;
    assert.equal(view.caption.rendered, '<p>Hello</p>\n');
    assert.equal(view.caption.raw, undefined);
    assert.equal(view.missing_image_sizes, undefined);
    assert.equal(view.alt_text, 'Alt');
    assert.equal(view.post, null);
    assert.equal('content' in view || 'excerpt' in view || 'password' in view, false);
    assert.deepEqual(Object.keys(view._links).sort(), ['about', 'author', 'collection', 'replies', 'self']);
    const embed = (await as(site, null)('GET', `/cms/v2/media/${item.id}?context=embed`)).json;
    assert.deepEqual(Object.keys(embed).filter((key) => key !== '_links'),
      ['id', 'date', 'slug', 'type', 'link', 'title', 'author', 'featured_media', 'caption', 'alt_text', 'media_type', 'mime_type', 'media_details', 'source_url']);
    const edit = await as(site, null)('GET', `/cms/v2/media/${item.id}?context=edit`);
    assert.equal(edit.status, 401);
    const unknown = await as(site, null)('GET', '/cms/v2/media/9999');
    assert.equal(unknown.json.code, 'rest_post_invalid_id');
  });

  it('points single reads at the attachment page with Link rel="alternate", as single posts do', async () => {
    const site = await makeMediaSite();
    const admin = as(site, 'administrator');
    const holder = (await admin('POST', '/cms/v2/posts', { json: { title: 'Holder', status: 'publish' } })).json;
    const attached = await upload(site, 'cat.png', png(quarters(16, 16)), 'image/png', `post=${holder.id}`);
    const loose = await upload(site, 'dog.png', png(quarters(16, 16)), 'image/png');
    for (const [item, page] of [[attached, 'http://example.test/2026/11/21/holder/cat/'], [loose, 'http://example.test/dog/']] as const) {
      const read = await as(site, null)('GET', `/cms/v2/media/${item.id}`);
      assert.equal(read.json.link, page);
      assert.equal(read.headers.Link, `<${page}>; rel="alternate"; type=text/html`);
      const narrowed = await as(site, null)('GET', `/cms/v2/media/${item.id}?_fields=id`);
      assert.equal(narrowed.headers.Link, `<${page}>; rel="alternate"; type=text/html`, 'whatever the fields asked');
    }
    const list = await as(site, null)('GET', '/cms/v2/media');
    assert.equal(list.headers.Link, '<http://example.test/cms-json/>; rel="https://api.w.org/"', 'lists keep the discovery link');
  });

  it('updates alt text, caption, description, title and the attached post', async () => {
    const site = await makeMediaSite();
    const admin = as(site, 'administrator');
    const item = await upload(site, 'pic.png', png(quarters(16, 16)), 'image/png');
    const post = (await admin('POST', '/cms/v2/posts', { json: { title: 'Holder', status: 'publish' } })).json;
    const updated = await admin('POST', `/cms/v2/media/${item.id}`, {
      json: { alt_text: 'New <i>alt</i>', caption: { raw: 'New caption' }, description: 'New description', title: 'New title', post: post.id, status: 'publish' },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.json.alt_text, 'New alt');
    assert.equal(updated.json.caption.raw, 'New caption');
    assert.equal(updated.json.description.raw, 'New description');
    assert.equal(updated.json.title.raw, 'New title');
    assert.equal(updated.json.post, post.id);
    assert.equal(updated.json.status, 'inherit');
    const detached = await admin('PATCH', `/cms/v2/media/${item.id}`, { json: { post: 0 } });
    assert.equal(detached.json.post, null);
    const forbidden = await as(site, 'author')('POST', `/cms/v2/media/${item.id}`, { json: { title: 'Mine now' } });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.json.code, 'rest_cannot_edit');
    const other = await upload(site, 'other.png', png(quarters(16, 16)), 'image/png');
    const wrongParent = await admin('POST', `/cms/v2/media/${item.id}`, { json: { post: other.id } });
    assert.equal(wrongParent.status, 400);
    assert.equal(wrongParent.json.message, 'Invalid parent type.');
  });

  it('deletes only with force, removing every stored file and the featured-image uses', async () => {
    const site = await makeMediaSite();
    const admin = as(site, 'administrator');
    const keep = await upload(site, 'keep.jpg', jpeg(quarters(400, 400)), 'image/jpeg');
    const item = await upload(site, 'big.jpg', jpeg(quarters(3000, 1000), 70), 'image/jpeg');
    const before = (await site.blobs.list('')).map((blob) => blob.key);
    assert.ok(before.includes('2026/11/big-scaled.jpg') && before.includes('2026/11/big.jpg'), 'scaled and original stored');
    const post = (await admin('POST', '/cms/v2/posts', { json: { title: 'Featured', status: 'publish', featured_media: item.id } })).json;
    assert.equal(post.featured_media, item.id);

    const withoutForce = await admin('DELETE', `/cms/v2/media/${item.id}`);
    assert.equal(withoutForce.status, 501);
    assert.equal(withoutForce.json.code, 'rest_trash_not_supported');
    const byAuthor = await as(site, 'author')('DELETE', `/cms/v2/media/${item.id}?force=true`);
    assert.equal(byAuthor.status, 403);

    const deleted = await admin('DELETE', `/cms/v2/media/${item.id}?force=true`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.headers.Allow, undefined, 'the permission checks find nothing left to allow');
    assert.equal(deleted.json.deleted, true);
    assert.equal(deleted.json.previous.id, item.id);
    assert.equal(deleted.json.previous.media_details.original_image, 'big.jpg');
    const after = (await site.blobs.list('')).map((blob) => blob.key);
    assert.deepEqual(after.filter((key) => key.includes('/big')), []);
    assert.ok(after.includes('2026/11/keep.jpg'), 'other items keep their files');
    assert.equal((await admin('GET', `/cms/v2/media/${item.id}`)).status, 404);
    assert.equal((await admin('GET', `/cms/v2/posts/${post.id}`)).json.featured_media, 0);
    assert.equal(keep.id > 0, true);
  });
});

describe('media on the filesystem store', () => {
  it('writes the upload and its sizes below the root, and removes them on delete', async () => {
    const root = await mkdtemp(join(tmpdir(), 'quire-uploads-'));
    try {
      const site = await makeMediaSite({ blobs: createFilesystemBlobStore({ root }) });
      const bytes = png(quarters(400, 300));
      const item = await upload(site, 'On Disk.png', bytes, 'image/png');
      assert.deepEqual(new Uint8Array(await readFile(join(root, '2026', '11', 'On-Disk.png'))), bytes);
      assert.equal(existsSync(join(root, '2026', '11', 'On-Disk-150x150.png')), true);
      const deleted = await as(site, 'administrator')('DELETE', `/cms/v2/media/${item.id}?force=true`);
      assert.equal(deleted.status, 200);
      assert.equal(existsSync(join(root, '2026', '11', 'On-Disk.png')), false);
      assert.equal(existsSync(join(root, '2026', '11', 'On-Disk-150x150.png')), false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
