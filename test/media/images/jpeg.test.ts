import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import jpegJs from 'jpeg-js';
import sharp from 'sharp';
import { jpegScale } from '../../../src/media/images/codecs/image-js.js';
import { decodeBaselineJpeg, JpegError } from '../../../src/media/images/jpeg/decode.js';
import { encodeJpegPlanes } from '../../../src/media/images/jpeg/encode.js';
import { planesToRaster, rasterToPlanes, resamplePlane } from '../../../src/media/images/planes.js';

/** A smooth picture with some grain, `width` × `height` RGB. */
function photo(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const grain = (seed >> 16) & 7;
      const at = (y * width + x) * 3;
      pixels[at] = (x * 240) / width + grain;
      pixels[at + 1] = (y * 240) / height + grain;
      pixels[at + 2] = 128 + 100 * Math.sin((x + y) / 20);
    }
  }
  return pixels;
}

/** Mean absolute difference per channel between RGB (or RGBA, every fourth byte skipped) pixel arrays. */
function meanError(rgb: Uint8Array, other: Uint8Array, otherChannels: 3 | 4): number {
  let total = 0;
  const count = rgb.length / 3;
  for (let pixel = 0; pixel < count; pixel++) {
    for (let channel = 0; channel < 3; channel++) total += Math.abs(rgb[pixel * 3 + channel]! - other[pixel * otherChannels + channel]!);
  }
  return total / rgb.length;
}

function toRgba(rgb: Uint8Array): Uint8Array {
  const rgba = new Uint8Array((rgb.length / 3) * 4).fill(255);
  for (let pixel = 0; pixel < rgb.length / 3; pixel++) rgba.set(rgb.subarray(pixel * 3, pixel * 3 + 3), pixel * 4);
  return rgba;
}

const raw = (pixels: Uint8Array, width: number, height: number, channels: 1 | 3 = 3) => sharp(pixels, { raw: { width, height, channels } });

describe('baseline JPEG encoder', () => {
  it('writes files other decoders read, close to the source, odd sizes included', async () => {
    for (const [width, height] of [[203, 157], [64, 48], [1, 1], [17, 9]] as const) {
      const source = photo(width, height);
      const bytes = encodeJpegPlanes(width, height, rasterToPlanes({ width, height, data: toRgba(source) }), 82);
      const bySharp = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([bySharp.info.width, bySharp.info.height, bySharp.info.channels], [width, height, 3]);
      const byJpegJs = jpegJs.decode(bytes, { useTArray: true });
      assert.deepEqual([byJpegJs.width, byJpegJs.height], [width, height]);
      if (width >= 64) {
        assert.ok(meanError(source, bySharp.data, 3) < 6, `${width}x${height}: error ${meanError(source, bySharp.data, 3)}`);
        assert.ok(meanError(source, byJpegJs.data, 4) < 6, `${width}x${height}: jpeg-js error ${meanError(source, byJpegJs.data, 4)}`);
      }
    }
  });

  it('uses the IJG quality scale: the tables libjpeg writes for a quality, smaller files for lower ones', async () => {
    const [width, height] = [128, 96];
    const source = photo(width, height);
    const planes = rasterToPlanes({ width, height, data: toRgba(source) });
    const dqt = (bytes: Uint8Array) => {
      const at = bytes.findIndex((byte, index) => byte === 0xff && bytes[index + 1] === 0xdb);
      return Array.from(bytes.subarray(at + 5, at + 5 + 64));
    };
    const ours = encodeJpegPlanes(width, height, planes, 82);
    const theirs = await raw(source, width, height).jpeg({ quality: 82 }).toBuffer();
    assert.deepEqual(dqt(ours), dqt(theirs));
    const low = encodeJpegPlanes(width, height, planes, 30);
    assert.ok(low.length < ours.length);
    const lowError = meanError(source, (await sharp(low).raw().toBuffer()), 3);
    const highError = meanError(source, (await sharp(ours).raw().toBuffer()), 3);
    assert.ok(lowError > highError);
  });

  it('writes greyscale from one plane', async () => {
    const grey = new Uint8Array(40 * 30).map((_, index) => (index % 40) * 6);
    const bytes = encodeJpegPlanes(40, 30, [{ width: 40, height: 30, stride: 40, data: grey }], 90);
    assert.equal((await sharp(bytes).metadata()).channels, 1);
    const decoded = await sharp(bytes).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    let error = 0;
    for (let index = 0; index < grey.length; index++) error += Math.abs(grey[index]! - decoded.data[index]!);
    assert.ok(error / grey.length < 3);
  });
});

describe('baseline JPEG decoder', () => {
  it('decodes 4:2:0, 4:4:4 and greyscale files as other decoders do', async () => {
    const [width, height] = [203, 157];
    const source = photo(width, height);
    const files = {
      '4:2:0': await raw(source, width, height).jpeg({ quality: 90, chromaSubsampling: '4:2:0' }).toBuffer(),
      '4:4:4': await raw(source, width, height).jpeg({ quality: 90, chromaSubsampling: '4:4:4' }).toBuffer(),
      'jpeg-js': jpegJs.encode({ width, height, data: toRgba(source) }, 90).data,
    };
    for (const [label, bytes] of Object.entries(files)) {
      const decoded = decodeBaselineJpeg(bytes)!;
      assert.deepEqual([decoded.width, decoded.height, decoded.planes.length], [width, height, 3], label);
      const ours = planesToRaster(width, height, decoded.planes);
      const reference = await sharp(bytes).raw().toBuffer();
      const error = meanError(reference, ours.data, 4);
      assert.ok(error < (label === '4:2:0' ? 3 : 1.5), `${label}: error ${error}`);
    }
    const grey = await raw(source, width, height).toColourspace('b-w').jpeg({ quality: 90 }).toBuffer();
    const decoded = decodeBaselineJpeg(grey)!;
    assert.equal(decoded.planes.length, 1);
    const reference = await sharp(grey).extractChannel(0).raw().toBuffer();
    let error = 0;
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) error += Math.abs(reference[y * width + x]! - decoded.planes[0]!.data[y * decoded.planes[0]!.stride + x]!);
    assert.ok(error / (width * height) < 1);
  });

  it('decodes at 3/4, 1/2, 1/4 and 1/8 scale close to a good resize of the whole picture', async () => {
    const [width, height] = [403, 301];
    const bytes = await raw(photo(width, height), width, height).jpeg({ quality: 90 }).toBuffer();
    for (const scale of [6, 4, 2, 1]) {
      const decoded = decodeBaselineJpeg(bytes, { scale })!;
      const [scaledWidth, scaledHeight] = [Math.ceil((width * scale) / 8), Math.ceil((height * scale) / 8)];
      assert.deepEqual([decoded.width, decoded.height], [scaledWidth, scaledHeight]);
      const chroma = [Math.ceil((Math.ceil(width / 2) * scale) / 8), Math.ceil((Math.ceil(height / 2) * scale) / 8)];
      assert.deepEqual(decoded.planes.map((plane) => [plane.width, plane.height]), [[scaledWidth, scaledHeight], chroma, chroma]);
      // Luma against sharp's resize (chroma at these sizes is too coarse for a per-pixel comparison).
      const reference = await sharp(bytes).resize(scaledWidth, scaledHeight, { fit: 'fill' }).raw().toBuffer();
      const luma = decoded.planes[0]!;
      let error = 0;
      for (let y = 0; y < scaledHeight; y++) {
        for (let x = 0; x < scaledWidth; x++) {
          const at = (y * scaledWidth + x) * 3;
          const expected = 0.299 * reference[at]! + 0.587 * reference[at + 1]! + 0.114 * reference[at + 2]!;
          error += Math.abs(expected - luma.data[y * luma.stride + x]!);
        }
      }
      error /= scaledWidth * scaledHeight;
      assert.ok(error < 3, `${scale}/8: error ${error}`);
    }
    assert.equal(decodeBaselineJpeg(bytes, { scale: 5 })!.width, width, 'other scales decode at full size');
    assert.deepEqual([jpegScale(0.8), jpegScale(0.64), jpegScale(0.5), jpegScale(0.3), jpegScale(0.2), jpegScale(0.1)], [8, 6, 4, 4, 2, 1]);
  });

  it('decodes progressive files (spectral selection and successive approximation) as other decoders do', async () => {
    const [width, height] = [203, 157];
    const source = photo(width, height);
    const files = {
      libjpeg: await raw(source, width, height).jpeg({ quality: 85, progressive: true }).toBuffer(),
      mozjpeg: await raw(source, width, height).jpeg({ quality: 85, progressive: true, mozjpeg: true }).toBuffer(),
      '4:4:4': await raw(source, width, height).jpeg({ quality: 95, progressive: true, chromaSubsampling: '4:4:4' }).toBuffer(),
    };
    for (const [label, bytes] of Object.entries(files)) {
      const decoded = decodeBaselineJpeg(bytes)!;
      assert.deepEqual([decoded.width, decoded.height], [width, height], label);
      const error = meanError(await sharp(bytes).raw().toBuffer(), planesToRaster(width, height, decoded.planes).data, 4);
      assert.ok(error < (label === '4:4:4' ? 1 : 3), `${label}: error ${error}`);
    }
    const half = decodeBaselineJpeg(files.libjpeg, { scale: 4 })!;
    assert.deepEqual([half.width, half.height], [102, 79]);
  });

  it('leaves other files to the general decoder and refuses cut or foreign data', async () => {
    const source = photo(64, 48);
    const lossless = Uint8Array.from(await raw(source, 64, 48).jpeg().toBuffer());
    lossless[lossless.findIndex((byte, index) => byte === 0xff && lossless[index + 1] === 0xc0) + 1] = 0xc3;
    assert.equal(decodeBaselineJpeg(lossless), null);
    const baseline = await raw(source, 64, 48).jpeg().toBuffer();
    assert.throws(() => decodeBaselineJpeg(baseline.subarray(0, baseline.length - 400)), JpegError);
    assert.throws(() => decodeBaselineJpeg(new Uint8Array([0x89, 0x50, 0x4e, 0x47])), JpegError);
    assert.throws(() => decodeBaselineJpeg(baseline.subarray(0, 300)), JpegError);
  });

  it('reads a file that announces restart markers and has none in one pass, and refuses endless scans', async () => {
    const [width, height] = [2048, 1536];
    const bytes = Uint8Array.from(await raw(photo(width, height), width, height).jpeg({ quality: 90 }).toBuffer());
    // A restart after every MCU, with no RST marker in the data: each restart finds the end-of-image marker once.
    const withRestarts = new Uint8Array([0xff, 0xd8, 0xff, 0xdd, 0, 4, 0, 1, ...bytes.subarray(2)]);
    const decoded = decodeBaselineJpeg(withRestarts)!;
    assert.deepEqual([decoded.width, decoded.height], [width, height]);
    // The first scan's header repeated many times, each with a byte of data.
    const sos = bytes.findIndex((byte, index) => byte === 0xff && bytes[index + 1] === 0xda);
    const header = bytes.subarray(sos, sos + 2 + ((bytes[sos + 2]! << 8) | bytes[sos + 3]!));
    const scans = Array.from({ length: 200 }, () => [...header, 0]).flat();
    const endless = new Uint8Array([...bytes.subarray(0, sos), ...scans, 0xff, 0xd9]);
    assert.throws(() => decodeBaselineJpeg(endless), /Too many scans/);
  });

  it('survives hostile scan data without hanging or throwing anything but JpegError', async () => {
    const baseline = await raw(photo(64, 48), 64, 48).jpeg().toBuffer();
    const progressive = await raw(photo(64, 48), 64, 48).jpeg({ progressive: true }).toBuffer();
    let seed = 1;
    for (let round = 0; round < 400; round++) {
      const bytes = Uint8Array.from(round % 2 ? progressive : baseline);
      for (let change = 0; change < 8; change++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        bytes[300 + (seed % (bytes.length - 300))] = seed >> 8;
      }
      try {
        decodeBaselineJpeg(bytes);
      } catch (error) {
        assert.ok(error instanceof JpegError, String(error));
      }
    }
  });
});

describe('planes', () => {
  it('average by area: a 2× shrink of a plane is the mean of each 2×2 square', () => {
    const data = Uint8Array.from({ length: 16 }, (_, index) => index * 10);
    const half = resamplePlane({ width: 4, height: 4, stride: 4, data }, 0, 0, 4, 4, 2, 2);
    assert.deepEqual(Array.from(half.data), [25, 45, 105, 125]);
  });
});
