/**
 * IP addresses as numbers, and ranges of them (`10.1.0.0/16`, `::1`): parsing, membership and the canonical text
 * of an address. Runtime-neutral (no Node built-ins).
 */

export interface AddressRange {
  family: 4 | 6;
  base: bigint;
  prefix: number;
}

export interface ParsedAddress {
  family: 4 | 6;
  value: bigint;
}

function ipv4ToBigInt(address: string): bigint | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function ipv6ToBigInt(input: string): bigint | null {
  let address = input.toLowerCase();
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  // A trailing dotted IPv4 part becomes two hextets.
  const lastColon = address.lastIndexOf(':');
  if (lastColon === -1) return null;
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToBigInt(tail);
    if (v4 === null) return null;
    address = `${address.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] === '' ? [] : halves[0]!.split(':');
  const rest = halves.length === 2 ? (halves[1] === '' ? [] : halves[1]!.split(':')) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

/** A parsed address (brackets and an IPv6 zone allowed): family and numeric value, or null when it is not one. */
export function parseAddress(address: string): ParsedAddress | null {
  if (address.length > 64) return null;
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (bare.includes(':')) {
    const value = ipv6ToBigInt(bare);
    return value === null ? null : { family: 6, value };
  }
  const value = ipv4ToBigInt(bare);
  return value === null ? null : { family: 4, value };
}

/** Parses `a.b.c.d/n`, `x::/n` or a single address (a full-length prefix); throws on anything else. */
export function parseRange(text: string): AddressRange {
  const [address, prefixText, extra] = text.split('/');
  const parsed = parseAddress(address!.trim());
  if (!parsed || extra !== undefined) throw new Error(`Not an IP address or range: ${text}`);
  const width = parsed.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? width : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > width) throw new Error(`Bad prefix length in ${text}`);
  const shift = BigInt(width - prefix);
  return { family: parsed.family, base: (parsed.value >> shift) << shift, prefix };
}

export function rangeContains(range: AddressRange, address: ParsedAddress): boolean {
  if (range.family !== address.family) return false;
  const shift = BigInt((range.family === 4 ? 32 : 128) - range.prefix);
  return (address.value >> shift) === (range.base >> shift);
}

const MAPPED_V4 = 0xffff00000000n;

/**
 * One text per address: IPv4 dotted, an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as a dual-stack socket
 * reports IPv4 clients) as its IPv4 form, other IPv6 addresses compressed and lower-case. Null when it is not one.
 */
export function canonicalAddress(address: string): string | null {
  const parsed = parseAddress(address);
  if (parsed === null) return null;
  if (parsed.family === 4) return ipv4Text(parsed.value);
  if (parsed.value >> 32n === MAPPED_V4 >> 32n) return ipv4Text(parsed.value & 0xffffffffn);
  const groups = Array.from({ length: 8 }, (_, index) => Number((parsed.value >> BigInt(112 - index * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start += 1) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length += 1;
    if (length > bestLength) [bestStart, bestLength] = [start, length];
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

export function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** A set of addresses and ranges (`127.0.0.1`, `10.1.0.0/16`, `::1`); throws on an entry that is neither. */
export function addressMatcher(entries: readonly string[]): (address: string) => boolean {
  const ranges = entries.map(parseRange);
  return (address) => {
    const parsed = parseAddress(address);
    return parsed !== null && ranges.some((range) => rangeContains(range, parsed));
  };
}
