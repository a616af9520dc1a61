/** Builds EXIF (APP1) and IPTC (APP13) blocks and puts them into a JPEG, for metadata tests. */

type Entry = { tag: number; type: 2 | 3 | 5; value: string | number | [number, number] };

function tiffBlock(ifd0: Entry[], exif: Entry[]): Uint8Array {
  // Layout: header (8) | IFD0 | Exif IFD | data area. Little-endian throughout.
  const ifd0Entries = [...ifd0, ...(exif.length > 0 ? [{ tag: 0x8769, type: 4 as const, value: 0 }] : [])];
  const ifdSize = (count: number) => 2 + count * 12 + 4;
  const ifd0Offset = 8;
  const exifOffset = ifd0Offset + ifdSize(ifd0Entries.length);
  let dataOffset = exifOffset + (exif.length > 0 ? ifdSize(exif.length) : 0);
  const buffer = new Uint8Array(4096);
  const view = new DataView(buffer.buffer);
  buffer.set([0x49, 0x49, 0x2a, 0x00]);
  view.setUint32(4, ifd0Offset, true);

  const writeIfd = (offset: number, entries: (Entry | { tag: number; type: 4; value: number })[]) => {
    view.setUint16(offset, entries.length, true);
    entries.forEach((entry, index) => {
      const at = offset + 2 + index * 12;
      view.setUint16(at, entry.tag, true);
      view.setUint16(at + 2, entry.type, true);
      if (entry.type === 2) {
        const text = new TextEncoder().encode(`${entry.value as string}\0`);
        view.setUint32(at + 4, text.length, true);
        if (text.length <= 4) buffer.set(text, at + 8);
        else {
          view.setUint32(at + 8, dataOffset, true);
          buffer.set(text, dataOffset);
          dataOffset += text.length + (text.length % 2);
        }
      } else if (entry.type === 3) {
        view.setUint32(at + 4, 1, true);
        view.setUint16(at + 8, entry.value as number, true);
      } else if (entry.type === 4) {
        view.setUint32(at + 4, 1, true);
        view.setUint32(at + 8, entry.tag === 0x8769 ? exifOffset : (entry.value as number), true);
      } else {
        const [numerator, denominator] = entry.value as [number, number];
        view.setUint32(at + 4, 1, true);
        view.setUint32(at + 8, dataOffset, true);
        view.setUint32(dataOffset, numerator, true);
        view.setUint32(dataOffset + 4, denominator, true);
        dataOffset += 8;
      }
    });
    view.setUint32(offset + 2 + entries.length * 12, 0, true);
  };
  writeIfd(ifd0Offset, ifd0Entries);
  if (exif.length > 0) writeIfd(exifOffset, exif);
  return buffer.slice(0, dataOffset);
}

function segment(marker: number, payload: Uint8Array): Uint8Array {
  const output = new Uint8Array(payload.length + 4);
  output.set([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  output.set(payload, 4);
  return output;
}

export interface ExifFields {
  orientation?: number;
  model?: string;
  description?: string;
  artist?: string;
  copyright?: string;
  exposure?: [number, number];
  fNumber?: [number, number];
  iso?: number;
  focalLength?: [number, number];
  digitized?: string;
}

export function exifSegment(fields: ExifFields): Uint8Array {
  const ifd0: Entry[] = [];
  if (fields.description !== undefined) ifd0.push({ tag: 0x010e, type: 2, value: fields.description });
  if (fields.model !== undefined) ifd0.push({ tag: 0x0110, type: 2, value: fields.model });
  if (fields.orientation !== undefined) ifd0.push({ tag: 0x0112, type: 3, value: fields.orientation });
  if (fields.artist !== undefined) ifd0.push({ tag: 0x013b, type: 2, value: fields.artist });
  if (fields.copyright !== undefined) ifd0.push({ tag: 0x8298, type: 2, value: fields.copyright });
  const exif: Entry[] = [];
  if (fields.exposure) exif.push({ tag: 0x829a, type: 5, value: fields.exposure });
  if (fields.fNumber) exif.push({ tag: 0x829d, type: 5, value: fields.fNumber });
  if (fields.iso !== undefined) exif.push({ tag: 0x8827, type: 3, value: fields.iso });
  if (fields.digitized !== undefined) exif.push({ tag: 0x9004, type: 2, value: fields.digitized });
  if (fields.focalLength) exif.push({ tag: 0x920a, type: 5, value: fields.focalLength });
  const tiff = tiffBlock(ifd0, exif);
  const payload = new Uint8Array(6 + tiff.length);
  payload.set(new TextEncoder().encode('Exif\0\0'));
  payload.set(tiff, 6);
  return segment(0xe1, payload);
}

/** An APP13 block with IPTC record-2 datasets (number → values). */
export function iptcSegment(datasets: [number, string][]): Uint8Array {
  const records: number[] = [];
  for (const [dataset, value] of datasets) {
    const text = new TextEncoder().encode(value);
    records.push(0x1c, 2, dataset, text.length >> 8, text.length & 0xff, ...text);
  }
  if (records.length % 2 === 1) records.push(0);
  const header = new TextEncoder().encode('Photoshop 3.0\0');
  const resource = [...new TextEncoder().encode('8BIM'), 0x04, 0x04, 0, 0, ...[24, 16, 8, 0].map((shift) => (records.length >>> shift) & 0xff), ...records];
  return segment(0xed, new Uint8Array([...header, ...resource]));
}

/** The JPEG with the given segments placed right after its start marker. */
export function withSegments(jpeg: Uint8Array, ...segments: Uint8Array[]): Uint8Array {
  const total = segments.reduce((sum, part) => sum + part.length, 0);
  const output = new Uint8Array(jpeg.length + total);
  output.set(jpeg.subarray(0, 2));
  let at = 2;
  for (const part of segments) {
    output.set(part, at);
    at += part.length;
  }
  output.set(jpeg.subarray(2), at);
  return output;
}
