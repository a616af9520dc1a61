/**
 * Reading the entropy-coded data of a JPEG scan: bits with byte stuffing removed, Huffman symbols through a
 * 9-bit lookup table (the longer codes by canonical code ranges), restart markers. Past the data's end or a
 * marker it reads zero bits, so corrupt files end in garbage pixels, never in a loop or an exception.
 */

export class JpegError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JpegError';
  }
}

const LOOKUP_BITS = 9;

export interface DecodingTable {
  /** For each 9-bit prefix: code length << 8 | symbol, or 0 when the code is longer. */
  lookup: Uint16Array;
  /** Largest code of each length 1-16 (-1 when none), and where its symbols start. */
  maxCode: Int32Array;
  offset: Int32Array;
  symbols: Uint8Array;
  /**
   * For AC tables, each 9-bit prefix that holds a whole code and its extra bits: value · 65536 + run · 256 + bits
   * used; 0 otherwise (the fast path of stb_image and libjpeg-turbo).
   */
  fastAc: Int32Array;
}

export function buildDecodingTable(counts: readonly number[], symbols: readonly number[]): DecodingTable {
  const lookup = new Uint16Array(1 << LOOKUP_BITS);
  const maxCode = new Int32Array(18).fill(-1);
  const offset = new Int32Array(18);
  let code = 0;
  let index = 0;
  for (let length = 1; length <= 16; length++) {
    const count = counts[length - 1]!;
    offset[length] = index - code;
    for (let n = 0; n < count; n++, code++, index++) {
      if (length <= LOOKUP_BITS) {
        const shift = LOOKUP_BITS - length;
        const entry = (length << 8) | symbols[index]!;
        for (let fill = 0; fill < 1 << shift; fill++) lookup[(code << shift) | fill] = entry;
      }
    }
    if (count > 0) maxCode[length] = code - 1;
    if (code > 1 << length) throw new JpegError('Bad Huffman table.');
    code <<= 1;
  }
  maxCode[17] = 0x7fffffff;
  const fastAc = new Int32Array(1 << LOOKUP_BITS);
  for (let prefix = 0; prefix < 1 << LOOKUP_BITS; prefix++) {
    const entry = lookup[prefix]!;
    if (entry === 0) continue;
    const length = entry >> 8;
    const symbol = entry & 255;
    const size = symbol & 15;
    if (size === 0 || length + size > LOOKUP_BITS) continue;
    const raw = (prefix >> (LOOKUP_BITS - length - size)) & ((1 << size) - 1);
    const value = raw < 1 << (size - 1) ? raw - (1 << size) + 1 : raw;
    fastAc[prefix] = value * 65536 + (symbol >> 4) * 256 + length + size;
  }
  return { lookup, maxCode, offset, symbols: Uint8Array.from(symbols), fastAc };
}

export class ScanReader {
  private bits = 0;
  private count = 0;
  private ended = false;
  /** Zero bits fed past the end of the file, and whether any of them were read before a restart. */
  private padded = 0;
  private overrun = false;

  constructor(private readonly bytes: Uint8Array, private position: number) {}

  /** Tops the bit buffer up to at least 25 bits. */
  private fill(): void {
    const bytes = this.bytes;
    while (this.count <= 24) {
      let byte = 0;
      if (!this.ended) {
        byte = bytes[this.position] ?? 0;
        if (this.position >= bytes.length) {
          this.ended = true;
          this.padded += 8;
        }
        else if (byte === 0xff) {
          const next = bytes[this.position + 1];
          if (next === 0) this.position += 2;
          else { this.ended = true; byte = 0; }
        } else this.position++;
      } else if (this.position >= bytes.length) this.padded += 8;
      this.bits = (this.bits << 8) | byte;
      this.count += 8;
    }
  }

  /** A fast AC entry for the next bits (see `fastAc`), consumed when there is one; 0 when not. */
  fastAc(table: DecodingTable): number {
    if (this.count < 16) this.fill();
    const entry = table.fastAc[(this.bits >>> (this.count - LOOKUP_BITS)) & 511]!;
    if (entry !== 0) this.count -= entry & 255;
    return entry;
  }

  decode(table: DecodingTable): number {
    if (this.count < 16) this.fill();
    const entry = table.lookup[(this.bits >>> (this.count - LOOKUP_BITS)) & 511]!;
    if (entry !== 0) {
      this.count -= entry >> 8;
      return entry & 255;
    }
    const word = (this.bits >>> (this.count - 16)) & 0xffff;
    for (let length = LOOKUP_BITS + 1; length <= 16; length++) {
      const code = word >>> (16 - length);
      if (code <= table.maxCode[length]!) {
        this.count -= length;
        return table.symbols[(table.offset[length]! + code) & 255] ?? 0;
      }
    }
    // No code matches: corrupt data. Drop a bit and read on.
    this.count -= 1;
    return 0;
  }

  /** Whether bits past the end of the file were read: the file was cut short. */
  get truncated(): boolean {
    return this.overrun || this.padded > this.count;
  }

  /** `size` (0-16) bits as an unsigned number. */
  take(size: number): number {
    if (size === 0) return 0;
    if (this.count < size) this.fill();
    const value = (this.bits >>> (this.count - size)) & ((1 << size) - 1);
    this.count -= size;
    return value;
  }

  /** `size` bits as a signed coefficient (T.81 F.2.2.1 EXTEND). */
  receiveExtend(size: number): number {
    if (this.count < size) this.fill();
    const value = (this.bits >>> (this.count - size)) & ((1 << size) - 1);
    this.count -= size;
    return value < 1 << (size - 1) ? value - (1 << size) + 1 : value;
  }

  /**
   * Skips to just past the next restart marker and empties the bit buffer. Another marker first means the data
   * is missing: the reader stays there and reads zeros, so a file without its restart markers costs one pass.
   */
  restart(): void {
    this.overrun ||= this.truncated;
    this.padded = 0;
    this.bits = 0;
    this.count = 0;
    const bytes = this.bytes;
    let position = this.position;
    while (position + 1 < bytes.length) {
      if (bytes[position] === 0xff) {
        const next = bytes[position + 1]!;
        if (next >= 0xd0 && next <= 0xd7) {
          this.position = position + 2;
          this.ended = false;
          return;
        }
        if (next !== 0 && next !== 0xff) {
          this.position = position;
          this.ended = true;
          return;
        }
      }
      position++;
    }
    this.position = bytes.length;
    this.ended = false;
  }

  /** The position of the first marker after the scan data (not a stuffed byte, not a restart marker). */
  nextMarker(): number {
    const bytes = this.bytes;
    let position = this.position;
    while (position + 1 < bytes.length) {
      if (bytes[position] === 0xff) {
        const next = bytes[position + 1]!;
        if (next !== 0 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return position;
      }
      position++;
    }
    return bytes.length;
  }
}
