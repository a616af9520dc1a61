import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCodec, type CodecName } from '../../../src/media/images/codecs/index.js';
import { render, type RenderJob, type RenderResult } from '../../../src/media/images/render.js';
import { creationOrder, DEFAULT_IMAGE_SIZES } from '../../../src/media/images/sizes.js';
import { exifSegment, withSegments } from '../exif-builder.js';
import { BLUE, colourAt, GREEN, jpeg, near, png, quarters, RED, sizeOf, YELLOW, type Colour } from '../helpers.js';

const sizes = creationOrder(DEFAULT_IMAGE_SIZES);

function job(bytes: Uint8Array, type: string, orientation = 1, extra: Partial<RenderJob> = {}): RenderJob {
  return { bytes, type, orientation, main: true, sizes, bigImageThreshold: 2560, output: { type, quality: 90 }, ...extra };
}

async function both(input: RenderJob): Promise<Record<CodecName, RenderResult>> {
  const [imageJs, sharp] = await Promise.all([loadCodec('image-js'), loadCodec('sharp')]);
  return { 'image-js': await render(input, imageJs), sharp: await render(input, sharp) };
}

/** Names, sizes and types of every file: what must not depend on the codec. */
function files(result: RenderResult) {
  return {
    size: [result.width, result.height],
    edited: result.edited && [result.edited.width, result.edited.height, result.edited.type],
    main: result.main && [result.main.suffix, result.main.width, result.main.height, result.main.type],
    sizes: result.sizes.map((size) => [size.name, size.width, size.height, size.type]),
  };
}

/** Colours a few pixels in from each corner, clockwise from the top-left. */
function corners(bytes: Uint8Array): Colour[] {
  const { width, height } = sizeOf(bytes);
  const inset = Math.max(2, Math.round(Math.min(width, height) / 10));
  return [
    colourAt(bytes, inset, inset),
    colourAt(bytes, width - 1 - inset, inset),
    colourAt(bytes, width - 1 - inset, height - 1 - inset),
    colourAt(bytes, inset, height - 1 - inset),
  ];
}

function assertCorners(bytes: Uint8Array, expected: Colour[], label: string): void {
  const actual = corners(bytes);
  assert.ok(actual.every((colour, index) => near(colour, expected[index]!)), `${label}: corners ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

describe('image codecs', () => {
  it('make the same files from a big JPEG, cropped alike', async () => {
    const results = await both(job(jpeg(quarters(3000, 2000)), 'image/jpeg'));
    assert.deepEqual(files(results.sharp), files(results['image-js']));
    assert.deepEqual(files(results['image-js']).main, ['scaled', 2560, 1707, 'image/jpeg']);
    assert.deepEqual(files(results['image-js']).sizes.map(([name, width, height]) => `${name}:${width}x${height}`), [
      'medium:300x200', 'large:1024x683', 'thumbnail:150x150', 'medium_large:768x512', '1536x1536:1536x1024', '2048x2048:2048x1365',
    ]);
    for (const [codec, result] of Object.entries(results)) {
      // The centre crop keeps all four quarters; every size and the main file show them in place.
      for (const file of [result.main!, ...result.sizes]) assertCorners(file.bytes, [RED, GREEN, YELLOW, BLUE], `${codec} ${file.width}x${file.height}`);
    }
  });

  it('turn pictures upright by every EXIF orientation alike', async () => {
    // Where the top-left, top-right, bottom-right and bottom-left quarters of the file go once upright.
    const upright: Record<number, Colour[]> = {
      1: [RED, GREEN, YELLOW, BLUE], 2: [GREEN, RED, BLUE, YELLOW], 3: [YELLOW, BLUE, RED, GREEN], 4: [BLUE, YELLOW, GREEN, RED],
      5: [RED, BLUE, YELLOW, GREEN], 6: [BLUE, RED, GREEN, YELLOW], 7: [YELLOW, GREEN, RED, BLUE], 8: [GREEN, YELLOW, BLUE, RED],
    };
    const source = jpeg(quarters(120, 80));
    for (let orientation = 1; orientation <= 8; orientation++) {
      const bytes = withSegments(source, exifSegment({ orientation }));
      const results = await both(job(bytes, 'image/jpeg', orientation, { sizes: [['small', { width: 60, height: 60, crop: false }]] }));
      assert.deepEqual(files(results.sharp), files(results['image-js']), `orientation ${orientation}`);
      const swapped = orientation >= 5;
      assert.deepEqual([results.sharp.width, results.sharp.height], swapped ? [80, 120] : [120, 80]);
      for (const [codec, result] of Object.entries(results)) {
        if (orientation !== 1) assertCorners(result.main!.bytes, upright[orientation]!, `${codec} orientation ${orientation} main`);
        assertCorners(result.sizes[0]!.bytes, upright[orientation]!, `${codec} orientation ${orientation} size`);
      }
    }
  });

  it('shrink a big turned JPEG before turning it, alike', async () => {
    const bytes = withSegments(jpeg(quarters(3000, 2000)), exifSegment({ orientation: 6 }));
    const results = await both(job(bytes, 'image/jpeg', 6));
    assert.deepEqual(files(results.sharp), files(results['image-js']));
    assert.deepEqual(files(results.sharp).main, ['scaled', 1707, 2560, 'image/jpeg']);
    for (const result of Object.values(results)) assertCorners(result.sizes.find((size) => size.name === 'thumbnail')!.bytes, [BLUE, RED, GREEN, YELLOW], 'thumbnail');
  });

  it('make the same files from 4:2:0 and progressive JPEGs, turned, and from a photo over twice the threshold', async () => {
    const sharp = (await import('sharp')).default;
    const rgb = Buffer.from(quarters(1200, 800).convertColor('RGB').getRawImage().data);
    const input = sharp(rgb, { raw: { width: 1200, height: 800, channels: 3 } });
    for (const options of [{ chromaSubsampling: '4:2:0' }, { progressive: true }]) {
      const bytes = withSegments(new Uint8Array(await input.clone().jpeg(options).toBuffer()), exifSegment({ orientation: 8 }));
      const results = await both(job(bytes, 'image/jpeg', 8));
      assert.deepEqual(files(results.sharp), files(results['image-js']), JSON.stringify(options));
      assert.deepEqual(files(results['image-js']).main, ['rotated', 800, 1200, 'image/jpeg']);
      // Turned counter-clockwise: green top-left, yellow top-right, blue bottom-right, red bottom-left.
      for (const result of Object.values(results)) assertCorners(result.main!.bytes, [GREEN, YELLOW, BLUE, RED], `${JSON.stringify(options)} main`);
    }
    // 6000×4000 with a 2560 threshold needs under half the pixels: decoded at 1/2 scale, the same files.
    const big = withSegments(new Uint8Array(await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#c04020' } }).jpeg().toBuffer()), exifSegment({ orientation: 1 }));
    const results = await both(job(big, 'image/jpeg'));
    assert.deepEqual(files(results.sharp), files(results['image-js']));
    assert.deepEqual(files(results['image-js']).main, ['scaled', 2560, 1707, 'image/jpeg']);
    for (const result of Object.values(results)) assert.ok(near(colourAt(result.main!.bytes, 100, 100), [0xc0, 0x40, 0x20], 8));
  });

  it('keep PNG transparency and never scale PNGs', async () => {
    const results = await both(job(png(quarters(800, 600, true)), 'image/png'));
    assert.deepEqual(files(results.sharp), files(results['image-js']));
    assert.equal(results.sharp.main, null);
    assert.deepEqual(results.sharp.sizes.map((size) => size.name), ['medium', 'thumbnail', 'medium_large']);
  });

  it('apply editor modifiers alike and make the new files from the edited picture', async () => {
    const edit = { modifiers: [{ type: 'rotate' as const, args: { angle: 90 } }, { type: 'crop' as const, args: { left: 0, top: 0, width: 50, height: 100 } }], type: 'image/png', quality: 90 };
    const results = await both(job(png(quarters(400, 200)), 'image/png', 1, { edit, output: { type: 'image/png', quality: 90 } }));
    assert.deepEqual(files(results.sharp), files(results['image-js']));
    assert.deepEqual(files(results.sharp).edited, [100, 400, 'image/png']);
    // Turned clockwise, the left half holds the bottom-left (blue) and bottom-right (yellow) quarters.
    for (const result of Object.values(results)) assertCorners(result.edited!.bytes, [BLUE, BLUE, YELLOW, YELLOW], 'edited');
  });

  it('decode JPEGs at a reduced scale with either, and refuse unreadable bytes with either', async () => {
    const sharp = await loadCodec('sharp');
    const imageJs = await loadCodec('image-js');
    const bytes = jpeg(quarters(800, 600));
    for (const codec of [sharp, imageJs]) {
      const widths = [(await codec.decode(bytes, 'image/jpeg', 0.25)).width, (await codec.decode(bytes, 'image/jpeg', 0.3)).width];
      assert.deepEqual(widths, [200, 400], codec.name);
    }
    assert.deepEqual([(await imageJs.decode(bytes, 'image/jpeg', 0.7)).width, (await imageJs.decode(bytes, 'image/jpeg', 0.8)).width], [600, 800]);
    for (const codec of [sharp, imageJs]) {
      await assert.rejects(codec.decode(bytes.slice(0, 300), 'image/jpeg'), { name: 'ImageDecodeError' });
    }
  });
});
