import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeImage, encodeImage, rotateClockwise } from '../../src/media/images/codec.js';
import { constrainDimensions, resizeDimensions } from '../../src/media/images/dimensions.js';
import { applyModifiers } from '../../src/media/images/edit.js';
import { readImageHeader } from '../../src/media/images/header.js';
import { readImageMeta } from '../../src/media/images/image-meta.js';
import { crop, flip, resample, rotateQuarterTurns, type Raster } from '../../src/media/images/raster.js';
import { createImageSubsizes, missingSizes, resolveImageOptions } from '../../src/media/images/subsizes.js';
import { DEFAULT_IMAGE_SIZES } from '../../src/media/images/sizes.js';
import { createMemoryBlobStore } from '../../src/storage/blobs/memory.js';
import { exifSegment, iptcSegment, withSegments } from './exif-builder.js';
import { BLUE, colourAt, GREEN, jpeg, assertNear, png, quarters, RED, sizeOf, YELLOW, type Colour } from './helpers.js';

function pixel(raster: Raster, x: number, y: number): Colour {
  const index = (y * raster.width + x) * 4;
  return [raster.data[index]!, raster.data[index + 1]!, raster.data[index + 2]!];
}

async function quarterRaster(width: number, height: number): Promise<Raster> {
  return decodeImage(png(quarters(width, height)), 'image/png');
}

/** The colours of the four corners, clockwise from the top-left. */
function corners(raster: Raster): Colour[] {
  const inset = 2;
  return [
    pixel(raster, inset, inset),
    pixel(raster, raster.width - 1 - inset, inset),
    pixel(raster, raster.width - 1 - inset, raster.height - 1 - inset),
    pixel(raster, inset, raster.height - 1 - inset),
  ];
}

describe('size arithmetic', () => {
  it('matches the sizes the reference made for a 3000×2000 image', () => {
    const made = Object.fromEntries(Object.entries(DEFAULT_IMAGE_SIZES).map(([name, size]) => {
      const plan = resizeDimensions(3000, 2000, size.width, size.height, size.crop);
      return [name, plan && `${plan.width}x${plan.height}`];
    }));
    assert.deepEqual(made, {
      thumbnail: '150x150', medium: '300x200', medium_large: '768x512', large: '1024x683', '1536x1536': '1536x1024', '2048x2048': '2048x1365',
    });
    const scaled = resizeDimensions(3000, 2000, 2560, 2560, false);
    assert.deepEqual([scaled?.width, scaled?.height], [2560, 1707]);
  });

  it('skips sizes larger than the image and crops within the image', () => {
    assert.equal(resizeDimensions(1200, 800, 1536, 1536, false), null);
    assert.equal(resizeDimensions(200, 100, 300, 300, false), null);
    const thumbnail = resizeDimensions(200, 100, 150, 150, true);
    assert.deepEqual(thumbnail, { sourceX: 25, sourceY: 0, sourceWidth: 150, sourceHeight: 100, width: 150, height: 100 });
    // Within a pixel of the original: no new size.
    assert.equal(resizeDimensions(301, 200, 300, 300, false), null);
  });

  it('snaps a dimension that comes out one pixel short', () => {
    assert.deepEqual(constrainDimensions(465, 700, 177, 177), [118, 177]);
    assert.deepEqual(constrainDimensions(1000, 10, 300, 300), [300, 3]);
  });
});

describe('raster operations', () => {
  it('flips left-right and top-bottom', async () => {
    const raster = await quarterRaster(40, 20);
    assert.deepEqual(corners(flip(raster, true, false)), [GREEN, RED, BLUE, YELLOW]);
    assert.deepEqual(corners(flip(raster, false, true)), [BLUE, YELLOW, GREEN, RED]);
    assert.deepEqual(corners(flip(raster, true, true)), [YELLOW, BLUE, RED, GREEN]);
  });

  it('turns clockwise by quarter turns', async () => {
    const raster = await quarterRaster(40, 20);
    const once = rotateQuarterTurns(raster, 1);
    assert.deepEqual([once.width, once.height], [20, 40]);
    // Clockwise: the bottom-left quarter comes to the top-left.
    assert.deepEqual(corners(once), [BLUE, RED, GREEN, YELLOW]);
    const thrice = rotateQuarterTurns(raster, 3);
    assert.deepEqual(corners(thrice), [GREEN, YELLOW, BLUE, RED]);
  });

  it('rotates by any angle on a grown canvas with transparent corners', async () => {
    const raster = await quarterRaster(40, 20);
    const turned = await rotateClockwise(raster, 45);
    const diagonal = (40 + 20) * Math.SQRT1_2;
    assert.ok(Math.abs(turned.width - diagonal) <= 2, `width ${turned.width}`);
    assert.ok(Math.abs(turned.height - diagonal) <= 2, `height ${turned.height}`);
    assert.equal(turned.data[3], 0, 'top-left corner is transparent');
    const ninety = await rotateClockwise(raster, 90);
    assert.deepEqual(corners(ninety), [BLUE, RED, GREEN, YELLOW]);
    const minusNinety = await rotateClockwise(raster, -90);
    assert.deepEqual(corners(minusNinety), corners(rotateQuarterTurns(raster, 3)));
  });

  it('crops exactly and resamples by area', async () => {
    const raster = await quarterRaster(40, 20);
    const bottomRight = crop(raster, 20, 10, 20, 10);
    assert.deepEqual(corners(bottomRight), [YELLOW, YELLOW, YELLOW, YELLOW]);
    const small = resample(raster, 0, 0, 40, 20, 4, 2);
    assert.deepEqual([pixel(small, 0, 0), pixel(small, 3, 0), pixel(small, 0, 1), pixel(small, 3, 1)], [RED, GREEN, BLUE, YELLOW]);
    // A box straddling the red and green halves averages them.
    const averaged = resample(raster, 10, 0, 20, 10, 1, 1);
    assert.deepEqual(pixel(averaged, 0, 0), [128, 128, 0]);
  });

  it('applies modifiers in order, crops measured on the picture as it is then', async () => {
    const raster = await quarterRaster(40, 20);
    const rotatedThenCropped = await applyModifiers(raster, [
      { type: 'rotate', args: { angle: 90 } },
      { type: 'crop', args: { left: 0, top: 0, width: 50, height: 50 } },
    ]);
    // After the turn the picture is 20×40 with blue at the top-left; its top-left quarter is 10×20 of blue.
    assert.deepEqual([rotatedThenCropped.width, rotatedThenCropped.height], [10, 20]);
    assert.deepEqual(corners(rotatedThenCropped), [BLUE, BLUE, BLUE, BLUE]);
    const flippedThenCropped = await applyModifiers(raster, [
      { type: 'flip', args: { flip: { horizontal: true, vertical: false } } },
      { type: 'crop', args: { left: 50, top: 50, width: 50, height: 50 } },
    ]);
    assert.deepEqual(corners(flippedThenCropped), [BLUE, BLUE, BLUE, BLUE]);
    await assert.rejects(applyModifiers(raster, [{ type: 'crop', args: { left: 0, top: 0, width: 0, height: 50 } }]), /no pixels/);
  });
});

describe('codec', () => {
  it('reads what it writes, as PNG and JPEG', async () => {
    const raster = await quarterRaster(32, 16);
    const asPng = await encodeImage(raster, 'image/png');
    assert.deepEqual(colourAt(asPng, 2, 2), RED);
    assert.deepEqual(sizeOf(asPng), { width: 32, height: 16 });
    const asJpeg = await encodeImage(raster, 'image/jpeg', { quality: 90 });
    assertNear(colourAt(asJpeg, 28, 14), YELLOW);
    assert.deepEqual(readImageHeader(asJpeg, 'image/jpeg'), { type: 'image/jpeg', width: 32, height: 16 });
  });

  it('reads sizes from headers of types it does not decode', () => {
    const gif = new Uint8Array([...new TextEncoder().encode('GIF89a'), 0x40, 0x01, 0xf0, 0x00, 0, 0, 0]);
    assert.deepEqual(readImageHeader(gif, 'image/gif'), { type: 'image/gif', width: 320, height: 240 });
    const webp = new Uint8Array(30);
    webp.set(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8X'));
    webp.set([0x3f, 0x01, 0x00, 0xef, 0x00, 0x00], 24);
    assert.deepEqual(readImageHeader(webp, 'image/webp'), { type: 'image/webp', width: 320, height: 240 });
  });
});

describe('image meta', () => {
  it('reads EXIF and IPTC fields the reference records', () => {
    const photo = withSegments(
      jpeg(quarters(16, 16)),
      exifSegment({
        orientation: 6, model: 'Test Camera', description: 'Harbour at dawn', artist: 'Ada', copyright: '© Ada',
        exposure: [1, 250], fNumber: [28, 10], iso: 200, focalLength: [50, 1], digitized: '2024:01:02 03:04:05',
      }),
      iptcSegment([[25, 'boats'], [25, 'sea'], [116, 'IPTC copyright']]),
    );
    const meta = readImageMeta(photo, 'image/jpeg');
    assert.deepEqual(meta, {
      aperture: '2.8', credit: 'Ada', camera: 'Test Camera', caption: 'Harbour at dawn', created_timestamp: '1704164645',
      copyright: 'IPTC copyright', focal_length: '50', iso: '200', shutter_speed: '0.004', title: 'Harbour at dawn',
      orientation: '6', keywords: ['boats', 'sea'],
    });
  });

  it('gives every image the default record', () => {
    const meta = readImageMeta(png(quarters(4, 4)), 'image/png');
    assert.equal(meta.title, '');
    assert.equal(meta.orientation, '0');
    assert.deepEqual(meta.keywords, []);
  });
});

describe('sub-sizes', () => {
  const options = resolveImageOptions();

  it('scales big JPEGs into a -scaled main file and makes every size from the original', async () => {
    const blobs = createMemoryBlobStore();
    const bytes = jpeg(quarters(3000, 2000), 80);
    await blobs.put('2026/11/big.jpg', bytes, { contentType: 'image/jpeg' });
    const progress: number[] = [];
    const metadata = await createImageSubsizes({
      blobs, key: '2026/11/big.jpg', bytes, type: 'image/jpeg', options, progress: (partial) => {
        progress.push(Object.keys(partial.sizes).length);
      },
    });
    assert.equal(metadata?.file, '2026/11/big-scaled.jpg');
    assert.equal(metadata?.original_image, 'big.jpg');
    assert.deepEqual([metadata?.width, metadata?.height], [2560, 1707]);
    assert.deepEqual(Object.keys(metadata!.sizes), ['medium', 'large', 'thumbnail', 'medium_large', '1536x1536', '2048x2048']);
    assert.deepEqual(progress, [0, 1, 2, 3, 4, 5, 6]);
    const thumbnail = await blobs.get('2026/11/big-150x150.jpg');
    assert.deepEqual(sizeOf(thumbnail!.bytes), { width: 150, height: 150 });
    // The thumbnail is cut from the middle: red top-left, yellow bottom-right.
    assertNear(colourAt(thumbnail!.bytes, 5, 5), RED);
    assertNear(colourAt(thumbnail!.bytes, 144, 144), YELLOW);
  });

  it('does not scale PNGs, and turns JPEGs upright by their orientation', async () => {
    const blobs = createMemoryBlobStore();
    const bigPng = png(quarters(2700, 300));
    const pngMetadata = await createImageSubsizes({ blobs, key: '2026/11/wide.png', bytes: bigPng, type: 'image/png', options });
    assert.equal(pngMetadata?.file, '2026/11/wide.png');
    assert.equal(pngMetadata?.original_image, undefined);

    const sideways = withSegments(jpeg(quarters(400, 200)), exifSegment({ orientation: 6 }));
    const metadata = await createImageSubsizes({ blobs, key: '2026/11/phone.jpg', bytes: sideways, type: 'image/jpeg', options });
    assert.equal(metadata?.file, '2026/11/phone-rotated.jpg');
    assert.equal(metadata?.image_meta.orientation, '1');
    assert.deepEqual([metadata?.width, metadata?.height], [200, 400]);
    const upright = await blobs.get('2026/11/phone-rotated.jpg');
    assertNear(colourAt(upright!.bytes, 10, 10), BLUE);
    assert.equal(metadata?.sizes.medium?.file, 'phone-150x300.jpg');
  });

  it('makes only the thumbnail of a small image, cropped to the image', async () => {
    const blobs = createMemoryBlobStore();
    const metadata = await createImageSubsizes({ blobs, key: 'a/small.png', bytes: png(quarters(200, 100)), type: 'image/png', options });
    assert.deepEqual(Object.fromEntries(Object.entries(metadata!.sizes).map(([name, size]) => [name, [size.width, size.height]])), { thumbnail: [150, 100] });
    assert.deepEqual(missingSizes(metadata!, 'image/png', { width: 200, height: 100 }, DEFAULT_IMAGE_SIZES), []);
  });

  it('records only the image when sub-sizes are turned off, and lists what is missing', async () => {
    const blobs = createMemoryBlobStore();
    const metadata = await createImageSubsizes({
      blobs, key: 'a/mid.jpg', bytes: jpeg(quarters(1200, 800)), type: 'image/jpeg', options, generateSubSizes: false,
    });
    assert.deepEqual(metadata?.sizes, {});
    assert.deepEqual(missingSizes(metadata!, 'image/jpeg', { width: 1200, height: 800 }, DEFAULT_IMAGE_SIZES), ['thumbnail', 'medium', 'medium_large', 'large']);
    assert.deepEqual((await blobs.list('a/')).map((blob) => blob.key), []);
  });

  it('writes sizes in the mapped output format unless conversion is turned off', async () => {
    const blobs = createMemoryBlobStore();
    const converting = resolveImageOptions({ outputFormats: { 'image/png': 'image/jpeg' } });
    const converted = await createImageSubsizes({ blobs, key: 'a/c.png', bytes: png(quarters(400, 400)), type: 'image/png', options: converting });
    assert.equal(converted?.sizes.medium?.file, 'c-300x300.jpg');
    assert.equal(converted?.sizes.medium?.['mime-type'], 'image/jpeg');
    const kept = await createImageSubsizes({
      blobs, key: 'a/k.png', bytes: png(quarters(400, 400)), type: 'image/png', options: converting, convertFormat: false,
    });
    assert.equal(kept?.sizes.medium?.file, 'k-300x300.png');
  });
});
