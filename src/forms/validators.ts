/** The plugin's value checks: email, URL, telephone, number, date, time, mailbox lists and site domains. */
import { isEmail, isIpAddress } from '../format/formats.js';
import { ALLOWED_PROTOCOLS } from '../format/url.js';

export { isEmail };

/** A scheme as PHP's `parse_url` reads one (a `name:digits` is a host and port, not a scheme). */
function schemeOf(text: string): string | null {
  const found = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/s.exec(text);
  if (!found) return null;
  if (/^[0-9]{1,5}(?:[/?#]|$)/.test(found[2]!)) return null;
  return found[1]!;
}

export function isUrl(text: string): boolean {
  const scheme = schemeOf(text);
  return scheme !== null && ALLOWED_PROTOCOLS.includes(scheme);
}

/** Extension cut at `#`/`*`, separators removed, `+` or `00` for international; 6 to 15 characters. */
export function isTel(input: string): boolean {
  let text = input.replace(/[#*].*$/s, '').replace(/[()/.*#\s-]+/g, '');
  if (text.startsWith('+') || text.startsWith('00')) text = `+${text.replace(/^[+0]+/, '')}`;
  return /^[+]?[0-9]+$/.test(text) && text.length > 5 && text.length < 16;
}

export function isNumber(text: string): boolean {
  return /^[-]?[0-9]+(?:[eE][+-]?[0-9]+)?$/.test(text) || /^[-]?(?:[0-9]+)?[.][0-9]+(?:[eE][+-]?[0-9]+)?$/.test(text);
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= lengths[month - 1]!;
}

/** `YYYY-MM-DD` (four or more year digits) naming a real calendar day. */
export function isDate(text: string): boolean {
  const found = /^([0-9]{4,})-([0-9]{2})-([0-9]{2})$/.exec(text);
  if (!found || found[1]!.length > 9) return false;
  return isCalendarDate(Number(found[1]), Number(found[2]), Number(found[3]));
}

export function isTime(text: string): boolean {
  const found = /^([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?$/.exec(text);
  if (!found) return false;
  return Number(found[1]) <= 23 && Number(found[2]) <= 59 && Number(found[3] ?? 0) <= 59;
}

const LINE_TERMINATORS = ['\n', '\r', '\u2028', '\u2029'];

/**
 * What `/<(.+)>$/` captures, found without the expression: tried from every `<`, it reads to the end of the text
 * each time, and a name of many `<` (a visitor's, in `Reply-To: [your-name] <[your-email]>`) took minutes. The
 * match starts at the first `<` after the last line break, with at least one character before the final `>`.
 */
function bracketedAddress(mailbox: string): string | null {
  const end = mailbox.length - 1;
  if (mailbox[end] !== '>') return null;
  const lineStart = Math.max(...LINE_TERMINATORS.map((terminator) => mailbox.lastIndexOf(terminator, end))) + 1;
  const open = mailbox.indexOf('<', lineStart);
  return open === -1 || open > end - 2 ? null : mailbox.slice(open + 1, end);
}

/**
 * The addresses of a comma-separated mailbox list (`Name <a@b.c>, d@e.f`), or null when any is malformed.
 * Quoted display names may hold commas.
 */
export function mailboxList(text: string): string[] | null {
  const masked = text.replace(/\\(?:"|')/g, 'esc-quote').replace(/(?:".*?"|'.*?')/g, 'quoted-string');
  const addresses: string[] = [];
  for (const part of masked.split(',')) {
    const mailbox = part.trim();
    if (mailbox === '') continue;
    const address = bracketedAddress(mailbox) ?? mailbox;
    if (!isEmail(address)) return null;
    addresses.push(address);
  }
  return addresses;
}

/** Whether every address of the list belongs to the domain or one of its parent domains. */
export function isEmailInDomain(list: string, domain: string): boolean {
  const addresses = mailboxList(list);
  if (addresses === null) return false;
  const parts = domain.toLowerCase().split('.');
  return addresses.every((address) => {
    const emailDomain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
    for (let start = 0; start < parts.length; start++) {
      if (parts.slice(start).join('.') === emailDomain) return true;
    }
    return false;
  });
}

/** Whether the sender belongs to the site's domain (always so on a local site or one addressed by IP). */
export function isEmailInSiteDomain(list: string, home: string): boolean {
  let host: string;
  try {
    host = new URL(home).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host === '127.0.0.1' || isIpAddress(host)) return true;
  return isEmailInDomain(list, host);
}
