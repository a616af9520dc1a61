import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  as, assertNear, BLUE, colourAt, GREEN, jpeg, makeMediaSite, png, quarters, RED, sizeOf, storedBytes, uploadRaw, YELLOW, type Colour, type MediaSite,
} from './helpers.js';

async function uploadQuarters(site: MediaSite, name: string, width: number, height: number, format: 'png' | 'jpeg' = 'png', query = '') {
  const bytes = format === 'png' ? png(quarters(width, height)) : jpeg(quarters(width, height), 92);
  const response = await uploadRaw(site, { name, type: `image/${format}`, bytes }, { query });
  if (response.status !== 201) throw new Error(`upload failed: ${JSON.stringify(response.json)}`);
  return response.json;
}

function edit(site: MediaSite, id: number, body: Record<string, unknown>, role: Parameters<typeof as>[1] = 'administrator') {
  return as(site, role)('POST', `/cms/v2/media/${id}/edit`, { json: body });
}

/** Colours near the four corners of stored image bytes, clockwise from the top-left. */
function corners(bytes: Uint8Array): Colour[] {
  const { width, height } = sizeOf(bytes);
  const inset = 3;
  return [[inset, inset], [width - 1 - inset, inset], [width - 1 - inset, height - 1 - inset], [inset, height - 1 - inset]]
    .map(([x, y]) => colourAt(bytes, x!, y!));
}

describe('image edits', () => {
  it('flips left-right and top-bottom', async () => {
    const site = await makeMediaSite();
    const source = await uploadQuarters(site, 'flip.png', 120, 80);
    const horizontal = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'flip', args: { flip: { horizontal: true, vertical: false } } }] });
    assert.equal(horizontal.status, 201);
    assert.deepEqual(corners(await storedBytes(site, horizontal.json.source_url)), [GREEN, RED, BLUE, YELLOW]);
    const vertical = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'flip', args: { flip: { horizontal: false, vertical: true } } }] });
    assert.deepEqual(corners(await storedBytes(site, vertical.json.source_url)), [BLUE, YELLOW, GREEN, RED]);
  });

  it('rotates clockwise, by quarter turns and by any angle', async () => {
    const site = await makeMediaSite();
    const source = await uploadQuarters(site, 'turn.png', 120, 80);
    const quarter = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'rotate', args: { angle: 90 } }] });
    const turned = await storedBytes(site, quarter.json.source_url);
    assert.deepEqual(sizeOf(turned), { width: 80, height: 120 });
    assert.deepEqual(corners(turned), [BLUE, RED, GREEN, YELLOW]);
    const back = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'rotate', args: { angle: 270 } }] });
    assert.deepEqual(corners(await storedBytes(site, back.json.source_url)), [GREEN, YELLOW, BLUE, RED]);
    const tilted = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'rotate', args: { angle: 30 } }] });
    const tiltedBytes = await storedBytes(site, tilted.json.source_url);
    const { width, height } = sizeOf(tiltedBytes);
    const radians = Math.PI / 6;
    assert.ok(Math.abs(width - (120 * Math.cos(radians) + 80 * Math.sin(radians))) <= 2, `width ${width}`);
    assert.ok(Math.abs(height - (120 * Math.sin(radians) + 80 * Math.cos(radians))) <= 2, `height ${height}`);
    // Turning clockwise lifts the left side: just above the centre line on the left is now blue (a
    // counter-clockwise turn would show red there), and further up it is red.
    assertNear(colourAt(tiltedBytes, Math.round(width / 2 - 25), Math.round(height / 2 - 5)), BLUE);
    assertNear(colourAt(tiltedBytes, Math.round(width / 2 - 25), Math.round(height / 2 - 25)), RED);
  });

  it('crops the intended region, by percentages of the picture as earlier modifiers left it', async () => {
    const site = await makeMediaSite();
    const source = await uploadQuarters(site, 'crop.jpg', 1200, 800, 'jpeg');
    const cropped = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'crop', args: { left: 50, top: 50, width: 50, height: 50 } }] });
    const croppedBytes = await storedBytes(site, cropped.json.source_url);
    assert.deepEqual(sizeOf(croppedBytes), { width: 600, height: 400 });
    for (const colour of corners(croppedBytes)) assertNear(colour, YELLOW);

    // The reference's example: 1200×800 turned 90° is 800×1200; a 10/10/50/50 crop of that is 400×600.
    const chained = await edit(site, source.id, {
      src: source.source_url,
      modifiers: [{ type: 'rotate', args: { angle: 90 } }, { type: 'crop', args: { left: 10, top: 10, width: 50, height: 50 } }],
    });
    const chainedBytes = await storedBytes(site, chained.json.source_url);
    assert.deepEqual(sizeOf(chainedBytes), { width: 400, height: 600 });
    // After the turn blue is top-left and red top-right; the crop spans x 80..480 of 800, y 120..720 of 1200.
    assertNear(colourAt(chainedBytes, 10, 10), BLUE);
    assertNear(colourAt(chainedBytes, 390, 10), RED);
    assertNear(colourAt(chainedBytes, 10, 590), YELLOW);
  });

  it('accepts the older rotation and crop fields', async () => {
    const site = await makeMediaSite();
    const source = await uploadQuarters(site, 'legacy.jpg', 1200, 800, 'jpeg');
    const response = await edit(site, source.id, { src: source.source_url, rotation: 180, x: 0, y: 0, width: 100, height: 50 });
    assert.equal(response.status, 201);
    const bytes = await storedBytes(site, response.json.source_url);
    assert.deepEqual(sizeOf(bytes), { width: 1200, height: 400 });
    assertNear(colourAt(bytes, 5, 5), YELLOW);
  });

  it('creates a new unattached attachment named -edited, copying the source fields', async () => {
    const site = await makeMediaSite();
    const source = await uploadQuarters(site, 'mid.png', 400, 300, 'png', 'title=Mid%20title&caption=Cap&alt_text=Alt');
    const first = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'rotate', args: { angle: 90 } }] });
    assert.equal(first.status, 201);
    assert.notEqual(first.json.id, source.id);
    assert.equal(first.headers.Location, `http://example.test/cms-json/cms/v2/media/${first.json.id}`);
    assert.equal(first.headers['X-WP-Upload-Attachment-ID'], String(first.json.id));
    assert.equal(first.json.source_url, 'http://example.test/uploads/2026/11/mid-edited.png');
    assert.equal(first.json.title.rendered, 'Mid title');
    assert.equal(first.json.slug, 'mid-title-2');
    assert.equal(first.json.alt_text, 'Alt');
    assert.equal(first.json.post, null);
    assert.deepEqual(first.json.media_details.parent_image, { attachment_id: String(source.id), file: '2026/11/mid.png' });
    assert.equal(first.json.media_details.sizes.thumbnail.file, 'mid-edited-150x150.png');

    const second = await edit(site, first.json.id, { src: first.json.source_url, modifiers: [{ type: 'rotate', args: { angle: 90 } }] });
    assert.equal(second.json.source_url, 'http://example.test/uploads/2026/11/mid-edited-1.png');
    const third = await edit(site, second.json.id, { src: second.json.source_url, modifiers: [{ type: 'rotate', args: { angle: 90 } }], title: 'Third' });
    assert.equal(third.json.source_url, 'http://example.test/uploads/2026/11/mid-edited-2.png');
    assert.equal(third.json.title.rendered, 'Third');
    // The source is untouched.
    const again = await as(site, 'administrator')('GET', `/cms/v2/media/${source.id}`);
    assert.equal(again.json.source_url, source.source_url);
    assertNear(colourAt(await storedBytes(site, source.source_url), 3, 3), RED);
  });

  it('accepts any stored size as src and refuses others', async () => {
    const site = await makeMediaSite();
    const source = await uploadQuarters(site, 'src.png', 400, 300);
    const fromThumbnail = await edit(site, source.id, {
      src: `${source.media_details.sizes.thumbnail.source_url}?v=1`, modifiers: [{ type: 'rotate', args: { angle: 90 } }],
    });
    assert.equal(fromThumbnail.status, 201);
    const wrong = await edit(site, source.id, { src: 'http://example.test/uploads/2026/11/other.png', modifiers: [{ type: 'rotate', args: { angle: 90 } }] });
    assert.equal(wrong.status, 404);
    assert.equal(wrong.json.code, 'rest_unknown_attachment');
  });

  it('answers the reference errors', async () => {
    const site = await makeMediaSite();
    const source = await uploadQuarters(site, 'e.png', 100, 100);
    const rotate = [{ type: 'rotate', args: { angle: 90 } }];
    const notEdited = await edit(site, source.id, { src: source.source_url });
    assert.equal(notEdited.status, 400);
    assert.equal(notEdited.json.code, 'rest_image_not_edited');
    const noSource = await edit(site, source.id, { modifiers: rotate });
    assert.equal(noSource.json.code, 'rest_missing_callback_param');
    const empty = await edit(site, source.id, { src: source.source_url, modifiers: [] });
    assert.equal(empty.json.code, 'rest_invalid_param');
    const unknownType = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'blur', args: { radius: 2 } }] });
    assert.equal(unknownType.status, 400);
    assert.equal(unknownType.json.code, 'rest_invalid_param');
    const missingArgs = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'crop', args: { left: 1 } }] });
    assert.equal(missingArgs.json.code, 'rest_invalid_param');
    const noPixels = await edit(site, source.id, { src: source.source_url, modifiers: [{ type: 'crop', args: { left: 0, top: 0, width: 0, height: 10 } }] });
    assert.equal(noPixels.status, 400);
    assert.equal(noPixels.json.code, 'rest_image_crop_failed');

    const paper = await uploadRaw(site, { name: 'doc.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.4\n') });
    const notImage = await edit(site, paper.json.id, { src: paper.json.source_url, modifiers: rotate });
    assert.equal(notImage.status, 404);
    assert.equal(notImage.json.code, 'rest_unknown_attachment');
    const unknown = await edit(site, 9999, { src: source.source_url, modifiers: rotate });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'rest_post_invalid_id');
    const contributor = await edit(site, source.id, { src: source.source_url, modifiers: rotate }, 'contributor');
    assert.equal(contributor.status, 403);
    assert.equal(contributor.json.code, 'rest_cannot_edit_image');
    const author = await edit(site, source.id, { src: source.source_url, modifiers: rotate }, 'author');
    assert.equal(author.status, 403);
    assert.equal(author.json.code, 'rest_cannot_edit');
  });

  it('cannot edit types the editor does not write', async () => {
    const site = await makeMediaSite();
    const gif = new Uint8Array([...new TextEncoder().encode('GIF89a'), 0x10, 0x00, 0x10, 0x00, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x3b]);
    const uploaded = await uploadRaw(site, { name: 'anim.gif', type: 'image/gif', bytes: gif });
    assert.equal(uploaded.status, 201);
    assert.equal(uploaded.json.media_details.width, 16);
    assert.deepEqual(uploaded.json.missing_image_sizes, []);
    const response = await edit(site, uploaded.json.id, { src: uploaded.json.source_url, modifiers: [{ type: 'rotate', args: { angle: 90 } }] });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'rest_cannot_edit_file_type');
  });
});
