/** Checks for the string formats the schema engine validates, with the reference's rules. */

import { phpTrim } from './php.js';

const UTF8 = new TextEncoder();

/**
 * The reference's `is_email`: at least 6 bytes, an `@` after the first character, a local part of
 * `[A-Za-z0-9!#$%&'*+/=?^_\`{|}~.-]`, and a domain of at least two dot-separated labels of letters, digits
 * and inner hyphens, without empty labels. Quoted local parts and IDN domains are not accepted.
 */
export function isEmail(email: string): boolean {
  // A UTF-16 unit takes at least one byte: only a short text needs encoding to count its bytes.
  if (email.length < 6 && UTF8.encode(email).length < 6) return false;
  const at = email.indexOf('@', 1);
  if (at === -1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  // PCRE's `$` also matches before a final newline.
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+\n?$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (phpTrim(domain, ' \t\n\r\0\x0B.') !== domain) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => phpTrim(label, ' \t\n\r\0\x0B-') === label && /^[a-z0-9-]+\n?$/i.test(label));
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\n?$/;

/** IPv4 dotted quad or IPv6 (with `::` compression and an optional trailing dotted quad). */
export function isIpAddress(ip: string): boolean {
  return IPV4.test(ip) || isIpv6(ip);
}

function isIpv6(ip: string): boolean {
  const expanded = expandIpv6(ip);
  let hexPart = expanded;
  let quadPart = '';
  if (expanded.includes('.')) {
    const lastColon = expanded.lastIndexOf(':');
    hexPart = lastColon === -1 ? '' : expanded.slice(0, lastColon);
    quadPart = expanded.slice(lastColon + 1);
  }
  const groups = hexPart.split(':');
  const quads = quadPart.split('.');
  const shapeOk = (groups.length === 8 && quads.length === 1) || (groups.length === 6 && quads.length === 4);
  if (!shapeOk) return false;
  for (const group of groups) {
    if (group === '' || group.length > 4) return false;
    const digits = group.replace(/^0+/, '') || '0';
    // The group must be plain hex that round-trips (lower- or upper-case).
    if (!/^[0-9a-fA-F]+$/.test(digits) || parseInt(digits, 16).toString(16) !== digits.toLowerCase()) return false;
  }
  if (quads.length === 4) {
    for (const quad of quads) {
      if (!/^(?:0|[1-9]\d*)$/.test(quad) || Number(quad) > 255) return false;
    }
  }
  return true;
}

/** Replaces a single `::` with the zero groups it stands for. */
function expandIpv6(ip: string): string {
  if (ip.split('::').length !== 2) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const headColons = head === '' ? -1 : head.split(':').length - 1;
  let tailColons = tail === '' ? -1 : tail.split(':').length - 1;
  if (tail.includes('.')) tailColons++;
  if (headColons === -1 && tailColons === -1) return '0:0:0:0:0:0:0:0';
  if (headColons === -1) return ip.replace('::', '0:'.repeat(Math.max(0, 7 - tailColons)));
  if (tailColons === -1) return ip.replace('::', ':0'.repeat(Math.max(0, 7 - headColons)));
  return ip.replace('::', `:${'0:'.repeat(Math.max(0, 6 - tailColons - headColons))}`);
}

/** A UUID of any version, lower-case hex only. */
export function isUuid(uuid: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n?$/.test(uuid);
}

/** `#` followed by 3 or 6 hex digits. */
export function isHexColor(color: string): boolean {
  return /^#(?:[A-Fa-f0-9]{3}){1,2}\n?$/.test(color);
}

/** The colour when it is valid (or empty), otherwise "". */
export function sanitizeHexColor(color: string): string {
  return color === '' || isHexColor(color) ? color : '';
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:(Z)|([+-])(\d{2})(?::(\d{2}))?)?\n?$/;

/**
 * Parses an RFC 3339 date-time the way the reference's `rest_parse_date` does: the shape is
 * `YYYY-MM-DD[T ]hh:mm:ss[.frac][Z|±hh[:mm]]`; fields out of range (month > 12, day > 31, hour > 24,
 * minute > 59, second > 60, offset minutes > 59 or offset hours > 24 with minutes) give null, while in-range
 * overflows roll over (February 30th is March 1st, 24:00 is the next day, month 00 is the previous December).
 * Without an offset the time is UTC.
 */
export function parseDateTime(text: string): Date | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, zulu, sign, offsetHours, offsetMinutes] = match;
  const fields = [month, day, hour, minute, second].map(Number) as [number, number, number, number, number];
  const [monthNumber, dayNumber, hourNumber, minuteNumber, secondNumber] = fields;
  if (monthNumber > 12 || dayNumber > 31 || hourNumber > 24 || minuteNumber > 59 || secondNumber > 60) return null;
  let offset = 0;
  if (!zulu && sign) {
    const hours = Number(offsetHours);
    const minutes = offsetMinutes === undefined ? 0 : Number(offsetMinutes);
    if (offsetMinutes !== undefined && (hours > 24 || minutes > 59)) return null;
    offset = (sign === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const date = new Date(0);
  date.setUTCFullYear(Number(year), monthNumber - 1, dayNumber);
  date.setUTCHours(hourNumber, minuteNumber - offset, secondNumber, fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0);
  return date;
}
