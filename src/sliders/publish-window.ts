/**
 * Whether a slide is shown now: not `unpublished`, and inside its publish window. As in the reference, dates
 * without an offset are the site's wall time; a `from` that cannot be read is ignored, while a `to` that
 * cannot be read hides the slide (PHP compares the time with `strtotime`'s `false`).
 */
import type { Site } from '../core/site.js';
import { nowDates, parseStored } from '../content/post-type/index.js';
import type { SlideRecord } from './record.js';

/** `2024-05-01`, `2024/05/01 10:00`, `2024-05-01T10:00:30.5+02:00`, ... */
const DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

export interface PublishClock {
  /** Now, as a timestamp. */
  instant: number;
  /** The site's wall time now, as if it were UTC (what dates without an offset are compared with). */
  wall: number;
}

export function publishClock(now: Date, site: Pick<Site, 'timezone' | 'gmtOffset'>): PublishClock {
  return { instant: now.getTime(), wall: parseStored(nowDates(now, site).local).getTime() };
}

/** Compares a date with now: negative before, positive after; null when the text is not a date. */
function compareWithNow(text: string, clock: PublishClock): number | null {
  const match = DATE.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', zone] = match;
  const fields = [month, day, hour, minute, second].map(Number) as [number, number, number, number, number];
  if (fields[0] < 1 || fields[0] > 12 || fields[1] < 1 || fields[1] > 31 || fields[2] > 24 || fields[3] > 59 || fields[4] > 60) return null;
  let time = Date.UTC(Number(year), fields[0] - 1, fields[1], fields[2], fields[3], fields[4]);
  if (zone === undefined) return time - clock.wall;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    time -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0')) * 60_000;
  }
  return time - clock.instant;
}

export function isShown(slide: Pick<SlideRecord, 'state' | 'publish_from' | 'publish_to'>, clock: PublishClock): boolean {
  if (slide.state === 'unpublished') return false;
  if (slide.publish_from !== '') {
    const from = compareWithNow(slide.publish_from, clock);
    if (from !== null && from > 0) return false;
  }
  if (slide.publish_to !== '') {
    const to = compareWithNow(slide.publish_to, clock);
    if (to === null || to < 0) return false;
  }
  return true;
}
