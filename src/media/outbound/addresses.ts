/**
 * Which IP addresses an outbound fetch may connect to. Refused: loopback, private (RFC 1918), CGNAT, link-local
 * (including cloud metadata at 169.254.169.254), multicast, unspecified, broadcast, documentation and benchmark
 * ranges, IPv6 unique-local, link-local, site-local and multicast, and IPv6 forms that embed an IPv4 address
 * (mapped, NAT64, 6to4) when the embedded address is refused.
 */
import { addressMatcher, ipv4Text, parseAddress, parseRange, rangeContains, type AddressRange as Range } from '../../format/ip-ranges.js';

export { addressMatcher, parseAddress, parseRange, rangeContains };

interface BlockedRanges {
  v4: Range[];
  v6: Range[];
  /** IPv6 ranges that carry an IPv4 address, and where it sits (bit offset from the right). */
  embedding: { range: Range; shift: bigint }[];
}

let blocked: BlockedRanges | undefined;

/** Parsed on the first check, so a site that never fetches never parses them. */
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
