/**
 * Where subscriptions may send. A URL given through the API follows the outbound rules of every fetch the site
 * makes (no loopback, private or link-local address; ports 80, 443 and 8080), unless the host named its
 * `host:port` in `webhooks.allowPrivateTargets`. Targets the host configures itself (`webhooks.targets`,
 * `quire serve --webhook`) are trusted. The rules are checked when a subscription is written (addresses written
 * as such, and names that can only be local) and again on every delivery, after name resolution, by the HTTP
 * client.
 */
import { isBlockedAddress, parseAddress } from '../media/index.js';

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };
const PUBLIC_PORTS = new Set(['80', '443', '8080']);
export const MAX_URL_LENGTH = 2000;

/** `host:port` (the port always written, lower case), as `allowPrivateTargets` names targets. */
export function hostAndPort(url: URL): string {
  return `${url.hostname.toLowerCase()}:${url.port === '' ? DEFAULT_PORTS[url.protocol] ?? '' : url.port}`;
}

/** Normalises `allowPrivateTargets` entries; throws on one that is not `host:port`. */
export function privateTargetSet(entries: readonly string[] | undefined): ReadonlySet<string> {
  const set = new Set<string>();
  for (const entry of entries ?? []) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(`http://${entry}`);
    } catch {
      parsed = null;
    }
    if (!parsed || parsed.port === '' || `${parsed.host}`.toLowerCase() !== entry.toLowerCase()) {
      throw new TypeError(`webhooks.allowPrivateTargets: '${entry}' is not a host:port pair (build.internal:8080).`);
    }
    set.add(hostAndPort(parsed));
  }
  return set;
}

/** Why a URL may not be a subscription's target, or null when it may. */
export function targetProblem(text: string, allowedPrivate: ReadonlySet<string>): string | null {
  if (text.length > MAX_URL_LENGTH) return `The URL is longer than ${MAX_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'The URL is not a valid absolute URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The URL must use http or https.';
  if (url.username !== '' || url.password !== '') return 'The URL may not carry credentials.';
  if (url.hash !== '') return 'The URL may not carry a fragment.';
  if (allowedPrivate.has(hostAndPort(url))) return null;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const lowered = host.toLowerCase();
  if (lowered === 'localhost' || lowered.endsWith('.localhost') || (parseAddress(host) !== null && isBlockedAddress(host))) {
    return 'The URL points to a loopback, private or link-local address.';
  }
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol]! : url.port;
  if (!PUBLIC_PORTS.has(port)) return `The URL may only use the ports 80, 443 and 8080, not ${port}.`;
  return null;
}

/** Whether deliveries to this URL go out through the trusted client (fixed or allowed private targets). */
export function isTrustedTarget(text: string, allowedPrivate: ReadonlySet<string>, fixed: readonly string[]): boolean {
  if (fixed.includes(text)) return true;
  try {
    return allowedPrivate.has(hostAndPort(new URL(text)));
  } catch {
    return false;
  }
}
