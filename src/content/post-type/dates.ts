/**
 * Post dates: stored as `YYYY-MM-DDTHH:MM:SS` strings, `date`/`modified` in the site's time and `*_gmt` in UTC.
 * A draft saved without an explicit date has a "floating" date: its `date_gmt` is `null` and follows the time
 * of each save until the post leaves the floating statuses.
 */
import { offsetHoursOf, type Site } from '../../core/site.js';

/** The statuses whose date floats when none was given. */
export const FLOATING_STATUSES: ReadonlySet<string> = new Set(['draft', 'pending', 'auto-draft']);

type SiteTime = Pick<Site, 'timezone' | 'gmtOffset'>;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The UTC wall time of an instant, as stored. */
export function formatUtc(instant: Date): string {
  return `${pad(instant.getUTCFullYear(), 4)}-${pad(instant.getUTCMonth() + 1)}-${pad(instant.getUTCDate())}`
    + `T${pad(instant.getUTCHours())}:${pad(instant.getUTCMinutes())}:${pad(instant.getUTCSeconds())}`;
}

/** Reads a stored date string as if it were UTC wall time. */
export function parseStored(stored: string): Date {
  return new Date(`${stored.slice(0, 19)}Z`);
}

function offsetMinutesAt(site: SiteTime, instant: Date): number {
  if (site.timezone) return Math.round(offsetHoursOf(site.timezone, instant) * 60);
  return Math.round(site.gmtOffset * 60);
}

/** Site-local wall time of a UTC date string (the reference's `get_date_from_gmt`). */
export function gmtToLocal(gmt: string, site: SiteTime): string {
  const instant = parseStored(gmt);
  return formatUtc(new Date(instant.getTime() + offsetMinutesAt(site, instant) * 60_000));
}

/** UTC wall time of a site-local date string (the reference's `get_gmt_from_date`). */
export function localToGmt(local: string, site: SiteTime): string {
  const wall = parseStored(local).getTime();
  // The offset depends on the instant, which depends on the offset: two rounds settle it, also around DST changes.
  let guess = wall - offsetMinutesAt(site, new Date(wall)) * 60_000;
  guess = wall - offsetMinutesAt(site, new Date(guess)) * 60_000;
  return formatUtc(new Date(guess));
}

/** "Now" in UTC and in the site's time. */
export function nowDates(now: Date, site: SiteTime): { local: string; gmt: string } {
  const gmt = formatUtc(now);
  return { gmt, local: gmtToLocal(gmt, site) };
}

/** The site's current offset applied the reference's simple way (used to shim a missing `modified_gmt`). */
export function localToGmtByCurrentOffset(local: string, site: SiteTime): string {
  return formatUtc(new Date(parseStored(local).getTime() - Math.round(site.gmtOffset * 60) * 60_000));
}

const HAS_OFFSET = /(?:Z|[+-]\d{2}(?::\d{2})?)$/i;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses a request date into `[local, gmt]` the way the reference's `rest_get_date_with_gmt` does: a value with
 * an offset (or `Z`) is an instant; one without is site-local time, or UTC when `isUtc` (a `date_gmt`).
 * Out-of-range fields roll over as PHP's `strtotime` does. Returns null for unparseable text.
 */
export function dateWithGmt(text: string, site: SiteTime, isUtc = false): [local: string, gmt: string] | null {
  const instant = parseInstant(text);
  if (!instant) return null;
  const asStored = formatUtc(instant);
  if (!isUtc && !HAS_OFFSET.test(text)) return [asStored, localToGmt(asStored, site)];
  return [gmtToLocal(asStored, site), asStored];
}

/** The instant a date-time string names, reading it as UTC when it has no offset. */
export function parseInstant(text: string): Date | null {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second, zone] = match;
  const fields = [month, day, hour, minute, second].map(Number) as [number, number, number, number, number];
  if (fields[0] > 12 || fields[1] > 31 || fields[2] > 24 || fields[3] > 59 || fields[4] > 60) return null;
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  const instant = new Date(0);
  instant.setUTCFullYear(Number(year), fields[0] - 1, fields[1]);
  instant.setUTCHours(fields[2], fields[3] - offsetMinutes, fields[4], 0);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

/**
 * A list filter date (`after`, `before`, ...) as site-local wall time: without an offset it already is; with
 * one, the instant is converted to the site's time.
 */
export function filterDateToLocal(text: string, site: SiteTime): string | null {
  const instant = parseInstant(text);
  if (!instant) return null;
  const asStored = formatUtc(instant);
  return HAS_OFFSET.test(text.trim()) ? gmtToLocal(asStored, site) : asStored;
}
