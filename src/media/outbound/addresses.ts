/**
 * Which IP addresses an outbound fetch may connect to. Refused: loopback, private (RFC 1918), CGNAT, link-local
 * (including cloud metadata at 169.254.169.254), multicast, unspecified, broadcast, documentation and benchmark
 * ranges, IPv6 unique-local, link-local, site-local and multicast, and IPv6 forms that embed an IPv4 address
 * (mapped, NAT64, 6to4) when the embedded address is refused.
 */
import { isIP } from 'node:net';

interface Range {
  family: 4 | 6;
  base: bigint;
  prefix: number;
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

/** A parsed address: family and numeric value, or null when the text is not an IP address. */
export function parseAddress(address: string): { family: 4 | 6; value: bigint } | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare.split('%')[0]!);
  if (family === 4) {
    const value = ipv4ToBigInt(bare);
    return value === null ? null : { family: 4, value };
  }
  if (family === 6) {
    const value = ipv6ToBigInt(bare);
    return value === null ? null : { family: 6, value };
  }
  return null;
}

/** Parses `a.b.c.d/n`, `x::/n` or a single address (a full-length prefix). */
export function parseRange(text: string): Range {
  const [address, prefixText] = text.split('/');
  const parsed = parseAddress(address!.trim());
  if (!parsed) throw new Error(`Not an IP address or range: ${text}`);
  const width = parsed.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? width : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > width) throw new Error(`Bad prefix length in ${text}`);
  const shift = BigInt(width - prefix);
  return { family: parsed.family, base: (parsed.value >> shift) << shift, prefix };
}

export function rangeContains(range: Range, address: { family: 4 | 6; value: bigint }): boolean {
  if (range.family !== address.family) return false;
  const shift = BigInt((range.family === 4 ? 32 : 128) - range.prefix);
  return (address.value >> shift) === (range.base >> shift);
}

interface BlockedRanges {
  v4: Range[];
  v6: Range[];
  /** IPv6 ranges that carry an IPv4 address, and where it sits (bit offset from the right). */
  embedding: { range: Range; shift: bigint }[];
}

let blocked: BlockedRanges | undefined;

/** Parsed on the first check: parsing needs node's IP validation, whose first use costs ~20 ms. */
function blockedRanges(): BlockedRanges {
  blocked ??= {
    v4: [
      '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
      '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24',
      '224.0.0.0/4', '240.0.0.0/4',
    ].map(parseRange),
    v6: [
      '::/96', // unspecified, loopback and the old IPv4-compatible form
      '64:ff9b:1::/48', '100::/64', '2001::/23', '2001:db8::/32', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8',
    ].map(parseRange),
    embedding: [
      { range: parseRange('::ffff:0:0/96'), shift: 0n },
      { range: parseRange('64:ff9b::/96'), shift: 0n },
      { range: parseRange('2002::/16'), shift: 80n },
    ],
  };
  return blocked;
}

export function isBlockedAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return true;
  const ranges = blockedRanges();
  if (parsed.family === 4) return ranges.v4.some((range) => rangeContains(range, parsed));
  for (const { range, shift } of ranges.embedding) {
    if (rangeContains(range, parsed)) {
      return isBlockedAddress(ipv4Text((parsed.value >> shift) & 0xffffffffn));
    }
  }
  return ranges.v6.some((range) => rangeContains(range, parsed));
}

function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** A set of allowed addresses and ranges (`127.0.0.1`, `10.1.0.0/16`, `::1`). */
export function addressMatcher(entries: readonly string[]): (address: string) => boolean {
  const ranges = entries.map(parseRange);
  return (address) => {
    const parsed = parseAddress(address);
    return parsed !== null && ranges.some((range) => rangeContains(range, parsed));
  };
}
