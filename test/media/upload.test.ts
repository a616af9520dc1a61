import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { exifSegment, iptcSegment, withSegments } from './exif-builder.js';
import { as, colourAt, jpeg, makeMediaSite, assertNear, noise, png, quarters, RED, storedBytes, uploadMultipart, uploadRaw, type MediaSite } from './helpers.js';

async function storedKeys(site: MediaSite): Promise<string[]> {
  return (await site.blobs.list('')).map((blob) => blob.key);
}

async function attachmentCount(site: MediaSite): Promise<number> {
  const { items } = await site.cms.deps.storage.list('posts', { where: [{ field: 'type', op: 'eq', value: 'attachment' }] });
  return items.length;
}

describe('raw uploads', () => {
  it('stores the file under year/month with a sanitised name and answers 201 with the item', async () => {
    const site = await makeMediaSite();
    const response = await uploadRaw(site, { name: 'Holiday Snap.png', type: 'image/png', bytes: png(quarters(400, 300)) });
    assert.equal(response.status, 201);
    assert.equal(response.headers.Location, `http://example.test/cms-json/cms/v2/media/${response.json.id}`);
    assert.equal(response.headers['X-WP-Upload-Attachment-ID'], String(response.json.id));
    assert.equal(response.json.source_url, 'http://example.test/uploads/2026/11/Holiday-Snap.png');
    assert.equal(response.json.title.raw, 'Holiday-Snap');
    assert.equal(response.json.slug, 'holiday-snap');
    assert.equal(response.json.status, 'inherit');
    assert.equal(response.json.media_type, 'image');
    assert.equal(response.json.mime_type, 'image/png');
    assert.equal(response.json.media_details.width, 400);
    assert.equal(response.json.media_details.file, '2026/11/Holiday-Snap.png');
    assert.deepEqual(Object.keys(response.json.media_details.sizes), ['medium', 'thumbnail', 'full']);
    assert.deepEqual(response.json.missing_image_sizes, []);
    assertNear(colourAt(await storedBytes(site, response.json.source_url), 5, 5), RED);
    assert.deepEqual(await storedKeys(site), ['2026/11/Holiday-Snap-150x150.png', '2026/11/Holiday-Snap-300x225.png', '2026/11/Holiday-Snap.png']);
  });

  it('takes fields from the query string and the embedded metadata', async () => {
    const site = await makeMediaSite();
    const photo = withSegments(jpeg(quarters(64, 64)), iptcSegment([[105, 'Harbour at dawn'], [120, 'Boats leaving at first light']]));
    const response = await uploadRaw(site, { name: 'boats.jpg', type: 'image/jpeg', bytes: photo }, { query: 'alt_text=Two%20boats&description=Long%20text' });
    assert.equal(response.status, 201);
    assert.equal(response.json.title.raw, 'Harbour at dawn');
    assert.equal(response.json.caption.raw, 'Boats leaving at first light');
    assert.equal(response.json.alt_text, 'Two boats');
    assert.equal(response.json.description.raw, 'Long text');
    const titled = await uploadRaw(site, { name: 'boats.jpg', type: 'image/jpeg', bytes: photo }, { query: 'title=Given' });
    assert.equal(titled.json.title.raw, 'Given');
    assert.equal(titled.json.source_url, 'http://example.test/uploads/2026/11/boats-1.jpg');
  });

  it('reports missing data, type, disposition and file name with the reference codes', async () => {
    const site = await makeMediaSite();
    const bytes = png(quarters(8, 8));
    const cases: [Parameters<typeof uploadRaw>[1], string][] = [
      [{ name: 'a.png', type: 'image/png', bytes: new Uint8Array(0) }, 'rest_upload_no_data'],
      [{ name: 'a.png', type: null, bytes }, 'rest_upload_no_content_type'],
      [{ name: null, type: 'image/png', bytes }, 'rest_upload_no_content_disposition'],
    ];
    for (const [file, code] of cases) {
      const response = await uploadRaw(site, file);
      assert.equal(response.status, 400, code);
      assert.equal(response.json.code, code);
    }
    const invalid = await uploadRaw(site, { name: null, type: 'image/png', bytes }, { headers: { 'content-disposition': 'attachment' } });
    assert.equal(invalid.json.code, 'rest_upload_invalid_disposition');
    const badHash = await uploadRaw(site, { name: 'a.png', type: 'image/png', bytes }, { headers: { 'content-md5': 'd41d8cd98f00b204e9800998ecf8427e' } });
    assert.equal(badHash.status, 412);
    assert.equal(badHash.json.code, 'rest_upload_hash_mismatch');
    const goodHash = await uploadRaw(site, { name: 'a.png', type: 'image/png', bytes }, {
      headers: { 'content-md5': createHash('md5').update(bytes).digest('hex') },
    });
    assert.equal(goodHash.status, 201);
  });

  it('renames an image whose bytes are another image type', async () => {
    const site = await makeMediaSite();
    const response = await uploadRaw(site, { name: 'actually-jpeg.png', type: 'image/png', bytes: jpeg(quarters(32, 32)) });
    assert.equal(response.status, 201);
    assert.equal(response.json.mime_type, 'image/jpeg');
    assert.equal(response.json.source_url, 'http://example.test/uploads/2026/11/actually-jpeg.jpg');
  });
});

describe('uploads and other requests', () => {
  it('lets the event loop take turns between the steps of an upload, not only while the image is made', async () => {
    const site = await makeMediaSite();
    const photo = png(quarters(400, 300));
    await uploadRaw(site, { name: 'first.png', type: 'image/png', bytes: photo });
    // Image work on the main thread here (workers: 0), every store in memory: only the upload's own turns let a
    // callback queued beside it run before it answers.
    let turns = 0;
    const count = () => {
      turns++;
      if (turns < 100) setImmediate(count);
    };
    setImmediate(count);
    const response = await uploadRaw(site, { name: 'second.png', type: 'image/png', bytes: photo });
    const turnsBeforeAnswer = turns;
    turns = 100;
    assert.equal(response.status, 201);
    assert.ok(turnsBeforeAnswer >= 3, `the event loop turned ${turnsBeforeAnswer} times during the upload`);
  });
});

describe('upload abuse', () => {
  const bad: [string, { name: string; type: string; bytes: Uint8Array }, number, RegExp][] = [
    ['wrong magic bytes', { name: 'evil.png', type: 'image/png', bytes: new TextEncoder().encode('<?php system($_GET[1]); ?>') }, 400, /content does not match/],
    ['an HTML page called .txt', { name: 'page.txt', type: 'text/plain', bytes: new TextEncoder().encode('<html><script>alert(1)</script>') }, 400, /content does not match/],
    ['an unknown type', { name: 'shell.php', type: 'application/x-php', bytes: new TextEncoder().encode('<?php') }, 400, /not allowed to upload this file type/],
    ['an executable', { name: 'setup.exe', type: 'application/octet-stream', bytes: new TextEncoder().encode('MZ\x90\x00') }, 400, /not allowed to upload this file type/],
    ['SVG', { name: 'logo.svg', type: 'image/svg+xml', bytes: new TextEncoder().encode('<svg onload="alert(1)"/>') }, 400, /not allowed to upload this file type/],
    ['a truncated PNG', { name: 'cut.png', type: 'image/png', bytes: png(quarters(64, 64)).slice(0, 40) }, 400, /could not be read/],
  ];
  for (const [label, file, status, message] of bad) {
    it(`refuses ${label} with a clear 4xx and stores nothing`, async () => {
      const site = await makeMediaSite();
      const raw = await uploadRaw(site, file);
      assert.equal(raw.status, status);
      assert.equal(raw.json.code, 'rest_upload_sideload_error');
      assert.match(raw.json.message, message);
      const multipart = await uploadMultipart(site, file);
      assert.equal(multipart.status, status);
      assert.equal(multipart.json.code, 'rest_upload_unknown_error');
      assert.deepEqual(await storedKeys(site), []);
      assert.equal(await attachmentCount(site), 0);
    });
  }

  it('keeps traversal names inside the month folder', async () => {
    const site = await makeMediaSite();
    for (const name of ['../../../etc/cron.d/x.png', '..%2F..%2Fx.png', '..\\..\\x.png', '/abs/x.png']) {
      const response = await uploadRaw(site, { name, type: 'image/png', bytes: png(quarters(8, 8)) });
      assert.equal(response.status, 201, name);
      assert.match(response.json.media_details.file, /^2026\/11\/[^/]+\.png$/, name);
    }
    for (const key of await storedKeys(site)) assert.match(key, /^2026\/11\/[^/.][^/]*$/);
  });

  it('refuses empty multipart files and oversized files (413)', async () => {
    const site = await makeMediaSite({ uploads: { maxUploadBytes: 2048 } });
    const empty = await uploadMultipart(site, { name: 'empty.png', type: 'image/png', bytes: new Uint8Array(0) });
    assert.equal(empty.status, 400);
    assert.match(empty.json.message, /File is empty/);
    const big = png(noise(40, 40));
    assert.ok(big.length > 2048, `the test file has ${big.length} bytes`);
    const tooBig = await uploadRaw(site, { name: 'big.png', type: 'image/png', bytes: big });
    assert.equal(tooBig.status, 413);
    assert.equal(tooBig.json.code, 'rest_upload_file_too_big');
    const tooBigMultipart = await uploadMultipart(site, { name: 'big.png', type: 'image/png', bytes: big });
    assert.equal(tooBigMultipart.status, 413);
    assert.deepEqual(await storedKeys(site), []);
  });

  it('refuses images with too many pixels before decoding them', async () => {
    const site = await makeMediaSite({ uploads: { maxImagePixels: 1000 } });
    const response = await uploadRaw(site, { name: 'wide.png', type: 'image/png', bytes: png(quarters(100, 100)) });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'rest_upload_image_too_large');
    assert.deepEqual(await storedKeys(site), []);
  });

  it('lets only users who may upload, and only onto posts they may edit', async () => {
    const site = await makeMediaSite();
    const file = { name: 'a.png', type: 'image/png', bytes: png(quarters(8, 8)) };
    const anonymous = await uploadRaw(site, file, { role: null });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.code, 'rest_cannot_create');
    const contributor = await uploadRaw(site, file, { role: 'contributor' });
    assert.equal(contributor.status, 403);
    assert.equal(contributor.json.code, 'rest_cannot_create');
    const adminPost = await as(site, 'administrator')('POST', '/cms/v2/posts', { json: { title: 'Admin post', status: 'publish' } });
    const onOthers = await uploadRaw(site, file, { role: 'author', query: `post=${adminPost.json.id}` });
    assert.equal(onOthers.status, 403);
    assert.equal(onOthers.json.code, 'rest_cannot_edit');
    assert.deepEqual(await storedKeys(site), []);
    const author = await uploadRaw(site, file, { role: 'author' });
    assert.equal(author.status, 201);
  });

  it('refuses a revision or an attachment as the parent', async () => {
    const site = await makeMediaSite();
    const first = await uploadRaw(site, { name: 'a.png', type: 'image/png', bytes: png(quarters(8, 8)) });
    const response = await uploadRaw(site, { name: 'b.png', type: 'image/png', bytes: png(quarters(8, 8)) }, { query: `post=${first.json.id}` });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'rest_invalid_param');
    assert.equal(response.json.message, 'Invalid parent type.');
  });
});

describe('multipart uploads', () => {
  it('takes the file part and the form fields', async () => {
    const site = await makeMediaSite();
    const post = await as(site, 'administrator')('POST', '/cms/v2/posts', { json: { title: 'Trip', status: 'publish', date: '2025-03-04T10:00:00' } });
    const response = await uploadMultipart(site, { name: 'Sea View.jpg', type: 'image/jpeg', bytes: jpeg(quarters(64, 48)) }, {
      title: 'The sea', caption: 'Blue', alt_text: '<b>Sea</b> view', post: String(post.json.id),
    });
    assert.equal(response.status, 201);
    assert.equal(response.json.title.raw, 'The sea');
    assert.equal(response.json.caption.raw, 'Blue');
    assert.equal(response.json.alt_text, 'Sea view');
    assert.equal(response.json.post, post.json.id);
    // Attached to a post: stored in the post's month, linked below the post.
    assert.equal(response.json.media_details.file, '2025/03/Sea-View.jpg');
    assert.equal(response.json.link, 'http://example.test/2025/03/04/trip/the-sea/');
  });

  it('uses the sent file name for the title and answers a missing file part with no data', async () => {
    const site = await makeMediaSite();
    const named = await uploadMultipart(site, { name: 'My Report.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.4\n%…') });
    assert.equal(named.status, 201);
    assert.equal(named.json.title.raw, 'My Report');
    assert.equal(named.json.media_type, 'file');
    assert.deepEqual(named.json.media_details, { filesize: 13, sizes: {} });
    assert.equal(named.json.source_url, 'http://example.test/uploads/2026/11/My-Report.pdf');
    assert.match(named.json.description.rendered, /<p class="attachment"><a href='http:\/\/example.test\/uploads\/2026\/11\/My-Report.pdf'>My Report<\/a><\/p>/);
    const missing = await uploadMultipart(site, { name: 'x.png', type: 'image/png', bytes: png(quarters(8, 8)), field: 'upload' });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.code, 'rest_upload_no_data');
  });
});

describe('sub-size switches', () => {
  it('skips sizes with generate_sub_sizes=false and lists them as missing', async () => {
    const site = await makeMediaSite();
    const response = await uploadRaw(site, { name: 'mid.jpg', type: 'image/jpeg', bytes: jpeg(quarters(1200, 800)) }, { query: 'generate_sub_sizes=false' });
    assert.equal(response.status, 201);
    assert.deepEqual(response.json.media_details.sizes, {});
    assert.deepEqual(response.json.missing_image_sizes, ['thumbnail', 'medium', 'medium_large', 'large']);
    assert.deepEqual(await storedKeys(site), ['2026/11/mid.jpg']);

    const processed = await as(site, 'administrator')('POST', `/cms/v2/media/${response.json.id}/post-process`, { json: { action: 'create-image-subsizes' } });
    assert.equal(processed.status, 200);
    assert.deepEqual(processed.json.missing_image_sizes, []);
    assert.deepEqual(Object.keys(processed.json.media_details.sizes), ['medium', 'large', 'thumbnail', 'medium_large', 'full']);
    assert.equal((await storedKeys(site)).length, 5);
  });

  it('converts sizes to the configured format unless convert_format=false', async () => {
    const site = await makeMediaSite({ uploads: { outputFormats: { 'image/png': 'image/jpeg' } } });
    const converted = await uploadRaw(site, { name: 'c.png', type: 'image/png', bytes: png(quarters(400, 400)) });
    assert.equal(converted.json.media_details.sizes.medium.mime_type, 'image/jpeg');
    assert.equal(converted.json.media_details.sizes.medium.file, 'c-300x300.jpg');
    const kept = await uploadRaw(site, { name: 'k.png', type: 'image/png', bytes: png(quarters(400, 400)) }, { query: 'convert_format=false' });
    assert.equal(kept.json.media_details.sizes.medium.file, 'k-300x300.png');
  });

  it('validates post-process actions', async () => {
    const site = await makeMediaSite();
    const item = await uploadRaw(site, { name: 'a.png', type: 'image/png', bytes: png(quarters(8, 8)) });
    const missing = await as(site, 'administrator')('POST', `/cms/v2/media/${item.json.id}/post-process`, { json: {} });
    assert.equal(missing.json.code, 'rest_missing_callback_param');
    const wrong = await as(site, 'administrator')('POST', `/cms/v2/media/${item.json.id}/post-process`, { json: { action: 'other' } });
    assert.equal(wrong.json.code, 'rest_invalid_param');
    const forbidden = await as(site, 'subscriber')('POST', `/cms/v2/media/${item.json.id}/post-process`, { json: { action: 'create-image-subsizes' } });
    assert.equal(forbidden.status, 403);
    const unknown = await as(site, 'administrator')('POST', '/cms/v2/media/999/post-process', { json: { action: 'create-image-subsizes' } });
    assert.equal(unknown.status, 404);
  });
});

describe('EXIF orientation on upload', () => {
  it('stores an upright -rotated copy as the main file', async () => {
    const site = await makeMediaSite();
    const sideways = withSegments(jpeg(quarters(80, 40)), exifSegment({ orientation: 8 }));
    const response = await uploadRaw(site, { name: 'phone.jpg', type: 'image/jpeg', bytes: sideways });
    assert.equal(response.json.media_details.file, '2026/11/phone-rotated.jpg');
    assert.equal(response.json.media_details.original_image, 'phone.jpg');
    assert.deepEqual([response.json.media_details.width, response.json.media_details.height], [40, 80]);
    // Orientation 8 turns the picture counter-clockwise: the top-right (green) quarter comes to the top-left.
    assertNear(colourAt(await storedBytes(site, response.json.source_url), 3, 3), [0, 255, 0]);
  });
});
