/**
 * The `image_meta` the reference records for an image (`wp_read_image_metadata`): title, caption, credit,
 * copyright, camera settings, orientation and keywords from a JPEG's IPTC (APP13) and EXIF (APP1) blocks. Every
 * image gets the record; values the file does not carry keep the defaults. Numbers are kept as strings, as the
 * reference's stored metadata shows them.
 */
import { sanitizePostHtml } from '../../content/render/index.js';

export interface ImageMeta {
  aperture: string;
  credit: string;
  camera: string;
  caption: string;
  created_timestamp: string;
  copyright: string;
  focal_length: string;
  iso: string;
  shutter_speed: string;
  title: string;
  orientation: string;
  keywords: string[];
}

export function emptyImageMeta(): ImageMeta {
  return {
    aperture: '0', credit: '', camera: '', caption: '', created_timestamp: '0', copyright: '', focal_length: '0',
    iso: '0', shutter_speed: '0', title: '', orientation: '0', keywords: [],
  };
}

type ExifValue = string | number | string[] | number[];

const u16 = (bytes: Uint8Array, at: number, little: boolean) => (little ? bytes[at]! | (bytes[at + 1]! << 8) : (bytes[at]! << 8) | bytes[at + 1]!);
const u32 = (bytes: Uint8Array, at: number, little: boolean) => (little
  ? (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
  : ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0);

/** Text as UTF-8 when it is valid UTF-8, else as Latin-1 (the reference's `utf8_encode` fallback). */
function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}

/** JPEG segments by marker, up to the start of the image data. */
function jpegSegments(bytes: Uint8Array): { marker: number; data: Uint8Array }[] {
  const segments: { marker: number; data: Uint8Array }[] = [];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    if (marker === 0xda || marker === 0xd9) break;
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (length < 2 || at + 2 + length > bytes.length) break;
    segments.push({ marker, data: bytes.subarray(at + 4, at + 2 + length) });
    at += 2 + length;
  }
  return segments;
}

const EXIF_TAGS: Readonly<Record<number, string>> = {
  0x010e: 'ImageDescription', 0x010f: 'Make', 0x0110: 'Model', 0x0112: 'Orientation', 0x013b: 'Artist',
  0x8298: 'Copyright', 0x829a: 'ExposureTime', 0x829d: 'FNumber', 0x8827: 'ISOSpeedRatings',
  0x9004: 'DateTimeDigitized', 0x920a: 'FocalLength', 0x9286: 'UserComment',
};
const EXIF_POINTER = 0x8769;
const TYPE_SIZES: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };

function readIfd(tiff: Uint8Array, offset: number, little: boolean, into: Record<string, ExifValue>, depth: number): void {
  if (offset + 2 > tiff.length || depth > 2) return;
  const count = u16(tiff, offset, little);
  for (let index = 0; index < count; index++) {
    const entry = offset + 2 + index * 12;
    if (entry + 12 > tiff.length) return;
    const tag = u16(tiff, entry, little);
    const type = u16(tiff, entry + 2, little);
    const items = u32(tiff, entry + 4, little);
    if (tag === EXIF_POINTER) {
      readIfd(tiff, u32(tiff, entry + 8, little), little, into, depth + 1);
      continue;
    }
    const name = EXIF_TAGS[tag];
    const size = TYPE_SIZES[type];
    if (!name || !size) continue;
    const total = size * items;
    const start = total <= 4 ? entry + 8 : u32(tiff, entry + 8, little);
    if (start + total > tiff.length || total > 64 * 1024) continue;
    const raw = tiff.subarray(start, start + total);
    if (type === 2) into[name] = decodeText(raw).replace(/\0+$/, '').trim();
    else if (type === 7) into[name] = tag === 0x9286 ? userComment(raw) : decodeText(raw);
    else if (type === 3) into[name] = Array.from({ length: items }, (_, i) => u16(raw, i * 2, little));
    else if (type === 4 || type === 9) into[name] = Array.from({ length: items }, (_, i) => u32(raw, i * 4, little));
    else if (type === 5 || type === 10) into[name] = Array.from({ length: items }, (_, i) => `${u32(raw, i * 8, little)}/${u32(raw, i * 8 + 4, little)}`);
    else if (type === 1) into[name] = Array.from(raw);
    const value = into[name];
    if (Array.isArray(value) && value.length === 1) into[name] = value[0]!;
  }
}

/** EXIF user comments start with an eight-byte character-set tag. */
function userComment(raw: Uint8Array): string {
  const body = raw.length > 8 ? raw.subarray(8) : new Uint8Array(0);
  const charset = String.fromCharCode(...raw.subarray(0, 8)).replace(/\0/g, '').trim();
  const text = charset === 'UNICODE' ? new TextDecoder('utf-16be').decode(body) : decodeText(body);
  return text.replace(/\0+$/, '').trim();
}

function readExif(segment: Uint8Array): Record<string, ExifValue> {
  const values: Record<string, ExifValue> = {};
  if (segment.length < 14 || String.fromCharCode(...segment.subarray(0, 6)) !== 'Exif\0\0') return values;
  const tiff = segment.subarray(6);
  const little = tiff[0] === 0x49;
  if (u16(tiff, 2, little) !== 42) return values;
  readIfd(tiff, u32(tiff, 4, little), little, values, 0);
  return values;
}

/** IPTC datasets of record 2 by number, from a Photoshop APP13 block. */
function readIptc(segment: Uint8Array): Map<number, string[]> {
  const datasets = new Map<number, string[]>();
  const signature = 'Photoshop 3.0\0';
  if (String.fromCharCode(...segment.subarray(0, signature.length)) !== signature) return datasets;
  let at = signature.length;
  while (at + 12 <= segment.length && String.fromCharCode(...segment.subarray(at, at + 4)) === '8BIM') {
    const id = (segment[at + 4]! << 8) | segment[at + 5]!;
    const nameLength = segment[at + 6]!;
    let cursor = at + 6 + 1 + nameLength;
    if ((1 + nameLength) % 2 === 1) cursor++;
    const size = u32(segment, cursor, false);
    const data = segment.subarray(cursor + 4, cursor + 4 + size);
    if (id === 0x0404) {
      let position = 0;
      while (position + 5 <= data.length && data[position] === 0x1c) {
        const record = data[position + 1]!;
        const dataset = data[position + 2]!;
        const length = (data[position + 3]! << 8) | data[position + 4]!;
        if (length & 0x8000) break; // extended datasets are not text fields
        const value = decodeText(data.subarray(position + 5, position + 5 + length));
        if (record === 2) datasets.set(dataset, [...(datasets.get(dataset) ?? []), value]);
        position += 5 + length;
      }
    }
    at = cursor + 4 + size + (size % 2);
  }
  return datasets;
}

/** The reference's `wp_exif_frac2dec`. */
function fractionToNumber(value: ExifValue | undefined): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return 0;
  const parts = value.split('/');
  if (parts.length !== 2) return Number.isFinite(Number(value)) && value.trim() !== '' ? Number(value) : 0;
  const [numerator, denominator] = parts.map(Number) as [number, number];
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator === 0) return 0;
  return numerator / denominator;
}

const text = (value: ExifValue | undefined) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');
const byteLength = (value: string) => new TextEncoder().encode(value).length;

function utcSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number, offsetMinutes = 0): number | null {
  const milliseconds = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  return Number.isFinite(milliseconds) ? Math.floor(milliseconds / 1000) : null;
}

function exifDate(value: string): number | null {
  const match = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return utcSeconds(y!, mo!, d!, h!, mi!, s!);
}

function iptcDate(date: string, time: string): number | null {
  const day = /^(\d{4})(\d{2})(\d{2})$/.exec(date.trim());
  const clock = /^(\d{2})(\d{2})(\d{2})(?:([+-])(\d{2})(\d{2}))?$/.exec(time.trim());
  if (!day || !clock) return null;
  const offset = clock[4] ? (clock[4] === '-' ? -1 : 1) * (Number(clock[5]) * 60 + Number(clock[6])) : 0;
  return utcSeconds(Number(day[1]), Number(day[2]), Number(day[3]), Number(clock[1]), Number(clock[2]), Number(clock[3]), offset);
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The image meta record of an image file; EXIF and IPTC are read from JPEG files only. */
export function readImageMeta(bytes: Uint8Array, type: string): ImageMeta {
  const meta = emptyImageMeta();
  if (type !== 'image/jpeg') return meta;
  const segments = jpegSegments(bytes);
  const app13 = segments.find((segment) => segment.marker === 0xed);
  const app1 = segments.find((segment) => segment.marker === 0xe1 && segment.data[0] === 0x45);
  const iptc = app13 ? readIptc(app13.data) : new Map<number, string[]>();
  const exif = app1 ? readExif(app1.data) : {};
  const first = (dataset: number) => iptc.get(dataset)?.[0]?.trim() ?? '';

  if (first(105)) meta.title = first(105);
  else if (first(5)) meta.title = first(5);
  if (first(120)) {
    const caption = first(120);
    if (!meta.title && byteLength(caption) < 80) meta.title = caption;
    meta.caption = caption;
  }
  if (first(110)) meta.credit = first(110);
  else if (first(80)) meta.credit = first(80);
  if (first(55) && first(60)) {
    const created = iptcDate(first(55), first(60));
    if (created !== null) meta.created_timestamp = String(created);
  }
  if (first(116)) meta.copyright = first(116);
  if (iptc.get(25)?.length) meta.keywords = iptc.get(25)!.map((keyword) => keyword);

  const description = text(exif.ImageDescription);
  if (description) {
    if (!meta.title && byteLength(description) < 80) meta.title = description;
    if (!meta.caption && text(exif.UserComment)) meta.caption = text(exif.UserComment);
    if (!meta.caption) meta.caption = description;
  }
  if (!meta.credit && text(exif.Artist)) meta.credit = text(exif.Artist);
  if (!meta.copyright && text(exif.Copyright)) meta.copyright = text(exif.Copyright);
  if (exif.FNumber !== undefined) {
    const aperture = round2(fractionToNumber(exif.FNumber));
    if (aperture) meta.aperture = String(aperture);
  }
  if (text(exif.Model)) meta.camera = text(exif.Model);
  if (meta.created_timestamp === '0' && typeof exif.DateTimeDigitized === 'string') {
    const created = exifDate(exif.DateTimeDigitized);
    if (created !== null) meta.created_timestamp = String(created);
  }
  if (exif.FocalLength !== undefined) meta.focal_length = String(fractionToNumber(exif.FocalLength));
  if (exif.ISOSpeedRatings !== undefined) {
    const iso = Array.isArray(exif.ISOSpeedRatings) ? exif.ISOSpeedRatings[0] : exif.ISOSpeedRatings;
    if (iso) meta.iso = String(iso).trim();
  }
  if (exif.ExposureTime !== undefined) meta.shutter_speed = String(fractionToNumber(exif.ExposureTime));
  if (typeof exif.Orientation === 'number' && exif.Orientation > 0) meta.orientation = String(exif.Orientation);

  for (const key of ['title', 'caption', 'credit', 'copyright', 'camera', 'iso'] as const) meta[key] = sanitizePostHtml(meta[key]);
  meta.keywords = meta.keywords.map((keyword) => sanitizePostHtml(keyword));
  return meta;
}

/** The EXIF orientation (1-8) of a JPEG, 1 when it has none. */
export function orientationOf(meta: ImageMeta): number {
  const value = Number(meta.orientation);
  return Number.isInteger(value) && value >= 1 && value <= 8 ? value : 1;
}
