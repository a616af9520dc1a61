/** Credentials from an `Authorization: Basic …` header. */
export interface BasicCredentials {
  username: string;
  password: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeBase64(token: string): string | null {
  if (!BASE64.test(token)) return null;
  const unpadded = token.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return null;
  if (token.length !== unpadded.length && token.length % 4 !== 0) return null;
  try {
    return utf8.decode(Buffer.from(unpadded, 'base64'));
  } catch {
    return null;
  }
}

/**
 * Reads an `Authorization` header value. `null` means it is not a Basic attempt (no header, or another scheme
 * such as `Bearer`); `'malformed'` means it is one but cannot be read (bad base64, not UTF-8, no colon).
 * The scheme is case-insensitive; the decoded text splits at its first colon, so passwords may contain colons.
 * Padding may be left off. Never throws.
 */
export function parseBasicAuthorization(
  headerValue: string | readonly string[] | undefined,
): BasicCredentials | null | 'malformed' {
  if (headerValue === undefined) return null;
  if (typeof headerValue !== 'string') {
    if (headerValue.length === 0) return null;
    if (headerValue.length > 1) return 'malformed';
    return parseBasicAuthorization(headerValue[0]);
  }
  const match = /^[ \t]*([^ \t]+)(?:[ \t]+(.*?))?[ \t]*$/s.exec(headerValue);
  if (match === null) return null;
  if ((match[1] ?? '').toLowerCase() !== 'basic') return null;
  const decoded = decodeBase64(match[2] ?? '');
  if (decoded === null) return 'malformed';
  const colon = decoded.indexOf(':');
  if (colon === -1) return 'malformed';
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
