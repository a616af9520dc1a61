/**
 * The client's address, decided in one place for every adapter: the socket's remote address, unless `trustProxy`
 * says which proxies in front may tell it through `X-Forwarded-For` (or `Forwarded: for=`). The setting follows
 * Express's `trust proxy`: `true` (every hop), a hop count, or a list of proxy addresses and ranges (with the names
 * `loopback`, `linklocal` and `uniquelocal`). Runtime-neutral (no Node built-ins).
 */
import { addressMatcher, canonicalAddress } from '../format/ip-ranges.js';

export type TrustProxy = boolean | number | string | readonly string[];

/** Whether the hop at `address`, `hop` steps from this server (0: the socket's peer), is a proxy to believe. */
export type ProxyTrust = (address: string, hop: number) => boolean;

const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const trustNobody: ProxyTrust = () => false;
const trustEveryone: ProxyTrust = () => true;

/** Most forwarded hops read from one request; beyond them the farthest hop read counts as the client. */
const MAX_HOPS = 32;

/**
 * The trust function of a `trustProxy` setting. Throws a `RangeError` naming the bad entry for anything else (a
 * negative or fractional count, an entry that is neither an address, a range nor one of the names).
 */
export function compileTrustProxy(setting: TrustProxy | ProxyTrust | undefined): ProxyTrust {
  if (typeof setting === 'function') return setting;
  if (setting === undefined || setting === false) return trustNobody;
  if (setting === true) return trustEveryone;
  if (typeof setting === 'number') return hopCount(setting);
  if (typeof setting === 'string' && /^\s*\d+\s*$/.test(setting)) return hopCount(Number(setting));
  const entries = (typeof setting === 'string' ? setting.split(',') : [...setting]).map((entry) => String(entry).trim()).filter((entry) => entry !== '');
  if (entries.length === 0) return trustNobody;
  const ranges = entries.flatMap((entry) => NAMED_RANGES[entry] ?? [entry]);
  let matches: (address: string) => boolean;
  try {
    matches = addressMatcher(ranges);
  } catch (error) {
    throw new RangeError(`trustProxy: ${(error as Error).message} (expected true, a hop count, or proxy addresses and ranges)`);
  }
  return (address) => matches(address);
}

function hopCount(count: number): ProxyTrust {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`trustProxy: a hop count must be a whole number of 0 or more, not ${count}`);
  return count === 0 ? trustNobody : (_address, hop) => hop < count;
}

/** The forwarded chain's addresses as sent, nearest last: `X-Forwarded-For`, or else the `for=` of `Forwarded`. */
function forwardedChain(forwardedFor: string | undefined, forwarded: string | undefined): string[] {
  if (forwardedFor !== undefined && forwardedFor.trim() !== '') return forwardedFor.split(',').slice(-MAX_HOPS).map((entry) => entry.trim());
  if (forwarded === undefined) return [];
  const chain: string[] = [];
  for (const element of forwarded.split(',').slice(-MAX_HOPS)) {
    const pair = element.split(';').map((part) => part.trim()).find((part) => part.toLowerCase().startsWith('for='));
    chain.push(pair === undefined ? '' : forwardedNode(pair.slice(4)));
  }
  return chain;
}

/** A `Forwarded` node without quotes and port: `"[2001:db8::1]:4711"` → `2001:db8::1`, `1.2.3.4:80` → `1.2.3.4`. */
function forwardedNode(value: string): string {
  const unquoted = value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(unquoted);
  if (bracketed) return bracketed[1]!;
  return /^[\d.]+:\d+$/.test(unquoted) ? unquoted.slice(0, unquoted.lastIndexOf(':')) : unquoted;
}

const joined = (value: string | readonly string[] | null | undefined): string | undefined =>
  value === null || value === undefined ? undefined : typeof value === 'string' ? value : value.join(',');

/**
 * The client's address in canonical form (`::ffff:1.2.3.4` → `1.2.3.4`), or undefined when nothing tells it.
 * Walking from the socket's peer towards the client, each hop the trust function believes hands over to the
 * address it forwarded for; the first hop not believed is the client. A forwarded entry that is not an address
 * ends the walk at the hop that sent it.
 */
export function resolveClientAddress(
  socketAddress: string | null | undefined,
  forwardedFor: string | readonly string[] | null | undefined,
  forwarded: string | readonly string[] | null | undefined,
  trust: ProxyTrust,
): string | undefined {
  // Without a socket address (a fetch runtime that does not tell), only a hop count or `true` can name the client.
  let client = socketAddress ? peerAddress(socketAddress) : '';
  if (trust === trustNobody || !trust(client, 0)) return client || undefined;
  const chain = forwardedChain(joined(forwardedFor), joined(forwarded));
  for (let hop = 1; chain.length > 0; hop += 1) {
    const next = canonicalAddress(chain.pop()!);
    if (next === null) return client;
    client = next;
    if (!trust(client, hop)) return client;
  }
  return client || undefined;
}

/** Whether forwarded scheme and host may be believed: the socket's peer is a trusted proxy. */
export function trustsPeer(socketAddress: string | null | undefined, trust: ProxyTrust): boolean {
  if (trust === trustNobody) return false;
  if (trust === trustEveryone) return true;
  return trust(socketAddress ? peerAddress(socketAddress) : '', 0);
}

/** The last socket address seen and its canonical form: a server's peers are few, and parsing one is not free. */
let lastPeer = { address: '', canonical: '' };

/** A socket's address in canonical form (itself when it does not parse). */
function peerAddress(address: string): string {
  if (lastPeer.address !== address) lastPeer = { address, canonical: canonicalAddress(address) ?? address };
  return lastPeer.canonical;
}
