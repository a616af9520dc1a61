/**
 * Dates in the site's time: PHP `date()` formats for the `[_date]`, `[_time]` and `[_format_field "..."]` mail
 * tags, and the relative expressions (`today`, `+1_week`) that `min:`/`max:` options of date fields accept.
 */
import { offsetHoursOf, type Site } from '../core/site.js';

export type SiteTime = Pick<Site, 'timezone' | 'gmtOffset'>;

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

function offsetMinutes(site: SiteTime, instant: Date): number {
  return site.timezone ? Math.round(offsetHoursOf(site.timezone, instant) * 60) : Math.round(site.gmtOffset * 60);
}

/** The instant's wall clock in the site's time, as a Date whose UTC fields hold it. */
function wallClock(instant: Date, site: SiteTime): { wall: Date; offset: number } {
  const offset = offsetMinutes(site, instant);
  return { wall: new Date(instant.getTime() + offset * 60_000), offset };
}

function isoWeek(wall: Date): { week: number; year: number } {
  const day = (wall.getUTCDay() + 6) % 7;
  const thursday = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() - day + 3));
  const firstThursday = new Date(Date.UTC(thursday.getUTCFullYear(), 0, 4));
  const week = 1 + Math.round(((thursday.getTime() - firstThursday.getTime()) / 86_400_000 - 3 + ((firstThursday.getUTCDay() + 6) % 7)) / 7);
  return { week, year: thursday.getUTCFullYear() };
}

function ordinalSuffix(day: number): string {
  if (day % 100 >= 11 && day % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][day % 10] ?? 'th';
}

/** PHP's `date()` for an instant shown in the site's time (`wp_date`). */
export function formatDate(format: string, instant: Date, site: SiteTime): string {
  const { wall, offset } = wallClock(instant, site);
  const year = wall.getUTCFullYear();
  const month = wall.getUTCMonth();
  const day = wall.getUTCDate();
  const weekday = wall.getUTCDay();
  const hours = wall.getUTCHours();
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const sign = offset < 0 ? '-' : '+';
  const offsetHm = `${sign}${pad(Math.floor(Math.abs(offset) / 60))}${pad(Math.abs(offset) % 60)}`;
  const offsetColon = `${offsetHm.slice(0, 3)}:${offsetHm.slice(3)}`;
  const zone = site.timezone || (offset === 0 ? 'UTC' : offsetColon);
  const dayOfYear = Math.round((Date.UTC(year, month, day) - Date.UTC(year, 0, 1)) / 86_400_000);
  const pieces: Record<string, () => string> = {
    d: () => pad(day), D: () => DAY_NAMES[weekday]!.slice(0, 3), j: () => String(day), l: () => DAY_NAMES[weekday]!,
    N: () => String(weekday === 0 ? 7 : weekday), S: () => ordinalSuffix(day), w: () => String(weekday), z: () => String(dayOfYear),
    W: () => pad(isoWeek(wall).week), F: () => MONTH_NAMES[month]!, m: () => pad(month + 1), M: () => MONTH_NAMES[month]!.slice(0, 3),
    n: () => String(month + 1), t: () => String(new Date(Date.UTC(year, month + 1, 0)).getUTCDate()), L: () => (leap ? '1' : '0'),
    o: () => String(isoWeek(wall).year), Y: () => String(year), y: () => pad(year % 100),
    a: () => (hours < 12 ? 'am' : 'pm'), A: () => (hours < 12 ? 'AM' : 'PM'), g: () => String(hours % 12 || 12), G: () => String(hours),
    h: () => pad(hours % 12 || 12), H: () => pad(hours), i: () => pad(wall.getUTCMinutes()), s: () => pad(wall.getUTCSeconds()),
    u: () => '000000', v: () => '000', e: () => zone, I: () => '0', O: () => offsetHm, P: () => offsetColon,
    p: () => (offset === 0 ? 'Z' : offsetColon), T: () => (site.timezone ? zone : offsetColon), Z: () => String(offset * 60),
    U: () => String(Math.floor(instant.getTime() / 1000)),
  };
  pieces.c = () => `${pieces.Y!()}-${pieces.m!()}-${pieces.d!()}T${pieces.H!()}:${pieces.i!()}:${pieces.s!()}${offsetColon}`;
  pieces.r = () => `${pieces.D!()}, ${pieces.d!()} ${pieces.M!()} ${pieces.Y!()} ${pieces.H!()}:${pieces.i!()}:${pieces.s!()} ${offsetHm}`;
  let output = '';
  for (let index = 0; index < format.length; index++) {
    const character = format[index]!;
    if (character === '\\') {
      output += format[index + 1] ?? '';
      index++;
    } else {
      output += pieces[character]?.() ?? character;
    }
  }
  return output;
}

/** The instant at site-local midnight of a `YYYY-MM-DD` day (for reformatting posted dates). */
export function instantOfLocalDate(text: string, site: SiteTime): Date | null {
  const found = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text);
  if (!found) return null;
  const wall = Date.UTC(Number(found[1]), Number(found[2]) - 1, Number(found[3]));
  if (Number.isNaN(wall)) return null;
  let guess = wall - offsetMinutes(site, new Date(wall)) * 60_000;
  guess = wall - offsetMinutes(site, new Date(guess)) * 60_000;
  return new Date(guess);
}

const UNITS: Readonly<Record<string, 'day' | 'week' | 'month' | 'year'>> = {
  day: 'day', days: 'day', week: 'week', weeks: 'week', fortnight: 'week', month: 'month', months: 'month', year: 'year', years: 'year',
};

function ymd(wall: Date): string {
  return `${String(wall.getUTCFullYear()).padStart(4, '0')}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
}

/**
 * A `min:`/`max:` date option as `YYYY-MM-DD`: a literal date (days past the month's end roll over, as PHP's
 * parser does), or `today`/`now`/`tomorrow`/`yesterday` with `+N unit` steps (`_` standing for spaces). Null when
 * the expression is not understood.
 */
export function resolveDateOption(option: string, now: Date, site: SiteTime): string | null {
  const text = option.replace(/_+/g, ' ').trim().toLowerCase();
  const literal = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text);
  if (literal) {
    const month = Number(literal[2]);
    const day = Number(literal[3]);
    if (month < 1 || month > 12 || day < 1 || day > 31) return null;
    return ymd(new Date(Date.UTC(Number(literal[1]), month - 1, day)));
  }
  const { wall } = wallClock(now, site);
  const date = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()));
  const words = text.split(/\s+/).filter((word) => word !== '');
  if (words.length === 0 || words.length > 12) return null;
  let index = 0;
  while (index < words.length) {
    const word = words[index]!;
    if (word === 'today' || word === 'now' || word === 'midnight') {
      index++;
      continue;
    }
    if (word === 'tomorrow' || word === 'yesterday') {
      date.setUTCDate(date.getUTCDate() + (word === 'tomorrow' ? 1 : -1));
      index++;
      continue;
    }
    const step = /^([+-]?)([0-9]{1,4})([a-z]*)$/.exec(word);
    if (!step) return null;
    const unitWord = step[3] || words[index + 1];
    const unit = unitWord === undefined ? undefined : UNITS[unitWord];
    if (!unit) return null;
    index += step[3] ? 1 : 2;
    const amount = Number(step[2]) * (step[1] === '-' ? -1 : 1) * (unitWord === 'fortnight' ? 2 : 1);
    if (unit === 'day') date.setUTCDate(date.getUTCDate() + amount);
    else if (unit === 'week') date.setUTCDate(date.getUTCDate() + amount * 7);
    else if (unit === 'month') date.setUTCMonth(date.getUTCMonth() + amount);
    else date.setUTCFullYear(date.getUTCFullYear() + amount);
  }
  return ymd(date);
}
