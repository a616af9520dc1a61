import { asciiLower, phpTrim } from './php.js';

/** URL schemes the reference lets through (`wp_allowed_protocols`). */
export const ALLOWED_PROTOCOLS: readonly string[] = [
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet',
  'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
];

/**
 * The reference's `sanitize_url` (`esc_url_raw`): spaces become `%20`, characters outside the URL set are
 * dropped, CR/LF octets removed (except for `mailto:`), a scheme-less value gets `http://` (unless it starts
 * with `/`, `#`, `?` or looks like `name.php`), brackets after the authority are percent-encoded, and a value
 * whose scheme is not allowed becomes "". An allowed scheme comes back lower-cased.
 */
export function sanitizeUrl(input: string, protocols: readonly string[] = ALLOWED_PROTOCOLS): string {
  if (input === '') return '';
  let url = input.replace(/^[ \t\n\r\0\x0B]+/, '').replaceAll(' ', '%20');
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
  if (url === '') return '';
  if (!/^mailto:/i.test(url)) url = removeRepeatedly(url, ['%0d', '%0a', '%0D', '%0A']);
  url = url.replaceAll(';//', '://');
  if (!url.includes(':') && !['/', '#', '?'].includes(url[0]!) && !/^[a-z0-9-]+?\.php/i.test(url)) {
    url = `http://${url}`;
  }
  if (url.includes('[') || url.includes(']')) url = encodeBracketsAfterAuthority(url);
  if (url[0] === '/') return url;
  const checked = removeBadProtocols(url, protocols);
  return asciiLower(checked) === asciiLower(url) ? checked : '';
}

function removeRepeatedly(text: string, needles: readonly string[]): string {
  let current = text;
  for (;;) {
    let next = current;
    for (const needle of needles) next = next.replaceAll(needle, '');
    if (next === current) return current;
    current = next;
  }
}

/**
 * Percent-encodes `[` and `]` outside the scheme and authority (IPv6 hosts keep theirs). The authority is
 * found the way PHP's `parse_url` finds it; the text before the path is then removed wherever it occurs,
 * which is what the reference does.
 */
function encodeBracketsAfterAuthority(url: string): string {
  const front = urlFront(url) ?? (url[0] === '/' ? '//' : '');
  const endDirty = front === '' ? url : url.replaceAll(front, '');
  if (endDirty === '') return url;
  const endClean = endDirty.replaceAll('[', '%5B').replaceAll(']', '%5D');
  return url.replaceAll(endDirty, () => endClean);
}

/** `scheme://user:pass@host:port` as far as present, or null where `parse_url` gives up. */
function urlFront(url: string): string | null {
  if (url.startsWith('//')) return authorityFront(url.slice(2), '//');
  if (url[0] === '/') return '//';
  const colon = url.indexOf(':');
  if (colon <= 0 || !/^[A-Za-z0-9+.-]+$/.test(url.slice(0, colon))) return '';
  const scheme = url.slice(0, colon);
  const afterColon = url.slice(colon + 1);
  if (afterColon === '') return `${scheme}://`;
  if (afterColon[0] !== '/') {
    // `host:port` without a scheme, as in "localhost:8080/path".
    const port = /^(\d*)(?:\/|$)/.exec(afterColon);
    if (port && port[1]!.length < 6) return authorityFront(url, '');
    return `${scheme}://`;
  }
  if (afterColon[1] !== '/') return `${scheme}://`;
  return authorityFront(afterColon.slice(2), `${scheme}://`);
}

function authorityFront(rest: string, prefix: string): string | null {
  const authority = rest.slice(0, rest.search(/[/?#]|$/));
  let front = prefix;
  let hostAndPort = authority;
  const at = authority.lastIndexOf('@');
  if (at !== -1) {
    front += `${authority.slice(0, at)}@`;
    hostAndPort = authority.slice(at + 1);
  }
  let host = hostAndPort;
  let port: number | null = null;
  const isBracketedHost = hostAndPort.startsWith('[') && hostAndPort.endsWith(']');
  const portColon = isBracketedHost ? -1 : hostAndPort.lastIndexOf(':');
  if (portColon !== -1) {
    const portText = hostAndPort.slice(portColon + 1);
    if (portText.length > 5) return null;
    if (portText.length > 0) {
      const digits = /^\s*[+-]?\d+/.exec(portText);
      const value = digits ? Number(digits[0]) : NaN;
      if (!(value >= 0 && value <= 65535)) return null;
      port = value;
    }
    host = hostAndPort.slice(0, portColon);
  }
  if (host === '') return null;
  return `${front}${host}${port === null ? '' : `:${port}`}`;
}

/**
 * `wp_kses_bad_protocol`: strips disallowed schemes from the front, repeatedly, giving "" if it never settles
 * (`javascript:alert(1)` becomes `alert(1)`, a harmless relative URL). Obfuscated schemes (entities, white space,
 * case) are caught too.
 */
export function removeBadProtocols(text: string, protocols: readonly string[] = ALLOWED_PROTOCOLS): string {
  let current = text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '').replace(/\\+0+/g, '');
  for (let iteration = 0; iteration < 6; iteration++) {
    const next = removeBadProtocolOnce(current, protocols, 1);
    if (next === current) return current;
    current = next;
  }
  return '';
}

function removeBadProtocolOnce(text: string, protocols: readonly string[], depth: number): string {
  const normalised = text.replace(/(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi, '$1;');
  const separator = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(normalised);
  if (!separator) return normalised;
  const head = normalised.slice(0, separator.index);
  if (head.includes('/?')) return normalised;
  let rest = phpTrim(normalised.slice(separator.index + separator[0].length));
  const protocol = allowedProtocolPrefix(head, protocols);
  if (protocol === 'feed:') {
    if (depth > 2) return '';
    rest = removeBadProtocolOnce(rest, protocols, depth + 1);
    if (rest === '' || rest === '0') return rest;
  }
  return protocol + rest;
}

function allowedProtocolPrefix(scheme: string, protocols: readonly string[]): string {
  const decoded = asciiLower(
    scheme
      .replace(/&#([0-9]+);/g, (_, digits: string) => byteText(Number(digits)))
      .replace(/&#[Xx]([0-9A-Fa-f]+);/g, (_, digits: string) => byteText(parseInt(digits, 16)))
      .replace(/[ \t\n\v\f\r]/g, '')
      .replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '')
      .replace(/\\+0+/g, ''),
  );
  return protocols.some((protocol) => asciiLower(protocol) === decoded) ? `${decoded}:` : '';
}

/** Entities in a scheme decode to single bytes (PHP `chr`), so only ASCII ones can form an allowed scheme. */
function byteText(code: number): string {
  return Number.isFinite(code) ? String.fromCharCode(code % 256) : '';
}

/** Whether `text` is an absolute http or https URL, as `new URL` reads it. */
export function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
