/**
 * Email addresses as the reference plugin accepts them: a non-empty string of at most 320 characters that
 * passes PHP's `FILTER_VALIDATE_EMAIL` (without the Unicode flag). That filter's rules, restated: at most 254
 * characters, a local part of at most 64 (a dot-atom or a quoted string), and a domain that is either a
 * bracketed IP literal or at least two dot-separated labels whose last one starts with a letter.
 */
import { isIPv4, isIPv6 } from 'node:net';

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const DOT_ATOM = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`);
const QUOTED = /^"(?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\[\x20-\x7E])*"$/;
const LABEL = '(?:xn--)?[a-z0-9]+(?:-+[a-z0-9]+)*';
const HOST = new RegExp(`^(?:${LABEL}\\.)+(?:[a-z][a-z0-9]*|xn--[a-z0-9]+)(?:-+[a-z0-9]+)*$`, 'i');

export const MAX_EMAIL_LENGTH = 320;

export function isEmail(value: unknown): value is string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_EMAIL_LENGTH) return false;
  if (value.length > 254 || /[^\x20-\x7E]/.test(value)) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > 64 || !(DOT_ATOM.test(local) || QUOTED.test(local))) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1);
    return isIPv4(literal) || (/^IPv6:/i.test(literal) && isIPv6(literal.slice(5)));
  }
  return domain.split('.').every((label) => label.length > 0 && label.length < 64) && HOST.test(domain);
}
