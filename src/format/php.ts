/**
 * The reference's value model, expressed over JS values: a JS array or plain object is a PHP array (keys that
 * are canonical integers are integer keys), a JS number is an int when it is a whole number and a float
 * otherwise, `null`/`undefined` are null. These helpers reproduce the PHP conversions the schema engine relies on.
 */

export type PhpArray = unknown[] | Record<string, unknown>;

const INT64_MAX = 9223372036854775807;
const TWO_POW_63 = 2n ** 63n;
const TWO_POW_64 = 2n ** 64n;

/** Characters PHP treats as white space around numeric strings (C `isspace`). */
const NUMERIC_SPACE = ' \\t\\n\\r\\v\\f';
const NUMERIC_STRING = new RegExp(
  `^[${NUMERIC_SPACE}]*[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?[${NUMERIC_SPACE}]*$`,
);
const LEADING_NUMBER = new RegExp(`^[${NUMERIC_SPACE}]*([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)`);
const CANONICAL_INT_KEY = /^(?:0|-?[1-9]\d*)$/;

export function isPhpArray(value: unknown): value is PhpArray {
  return Array.isArray(value) || isPlainObject(value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** PHP `is_scalar`: strings, numbers and booleans (not null). */
export function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Whether an array key is an integer key once PHP has normalised it ("5" is, "05" and "1.0" are not). */
export function isIntegerKey(key: string): boolean {
  return CANONICAL_INT_KEY.test(key) && Math.abs(Number(key)) <= INT64_MAX;
}

/** The key/value pairs of a PHP array in iteration order (holes of sparse JS arrays are skipped). */
export function entriesOf(value: PhpArray): [string, unknown][] {
  if (Array.isArray(value)) return Object.keys(value).map((key) => [key, (value as unknown as Record<string, unknown>)[key]]);
  return Object.entries(value);
}

/** `wp_is_numeric_array`: an array whose keys are all integers. */
export function isListLike(value: unknown): boolean {
  if (!isPhpArray(value)) return false;
  return Object.keys(value).every(isIntegerKey);
}

/** PHP `is_numeric`. */
export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return true;
  return typeof value === 'string' && NUMERIC_STRING.test(value);
}

/** PHP `(float)`. */
export function toFloat(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const match = LEADING_NUMBER.exec(value);
    return match ? Number(match[1]) : 0;
  }
  if (isPhpArray(value)) return Object.keys(value).length > 0 ? 1 : 0;
  return 0;
}

/** PHP `(int)`. */
export function toInt(value: unknown): number {
  if (typeof value === 'number') return floatToInt(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const match = LEADING_NUMBER.exec(value);
    if (!match) return 0;
    const text = match[1] ?? '';
    const number = Number(text);
    if (!/[.eE]/.test(text) && Math.abs(number) <= INT64_MAX) return clearNegativeZero(number);
    // Numeric strings that need a float are capped to the integer range rather than wrapped.
    if (!Number.isFinite(number)) return 0;
    if (number >= INT64_MAX) return INT64_MAX;
    if (number <= -INT64_MAX) return -INT64_MAX - 1;
    return clearNegativeZero(Math.trunc(number));
  }
  if (isPhpArray(value)) return Object.keys(value).length > 0 ? 1 : 0;
  return 0;
}

/** PHP's float-to-int conversion: truncation, wrapping modulo 2^64 outside the integer range, 0 for NaN/INF. */
export function floatToInt(number: number): number {
  if (!Number.isFinite(number)) return 0;
  const truncated = Math.trunc(number);
  if (Math.abs(truncated) < 2 ** 63) return clearNegativeZero(truncated);
  let wrapped = BigInt(truncated) % TWO_POW_64;
  if (wrapped < 0n) wrapped += TWO_POW_64;
  if (wrapped >= TWO_POW_63) wrapped -= TWO_POW_64;
  return Number(wrapped);
}

function clearNegativeZero(number: number): number {
  return number === 0 ? 0 : number;
}

/** PHP's `(bool)`. */
export function toBool(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value !== '' && value !== '0';
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'boolean') return value;
  if (isPhpArray(value)) return Object.keys(value).length > 0;
  return true;
}

/**
 * PHP's `empty()`, the one rule for "not given" wherever the reference writes `empty()`: absent, null, false, 0,
 * "", "0", and an empty list or map. Anything else, "0.0" and " " included, is given.
 */
export function isEmpty(value: unknown): boolean {
  return !toBool(value);
}

/** PHP's `(string)` for scalars and null; arrays give "Array" as PHP does (with a notice). */
export function toPhpString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined || value === false) return '';
  if (value === true) return '1';
  if (typeof value === 'number') return formatPhpNumber(value);
  if (isPhpArray(value)) return 'Array';
  return String(value);
}

/** A number as PHP prints it: whole numbers as integers, others with 14 significant digits (`precision`). */
export function formatPhpNumber(number: number): string {
  if (Number.isInteger(number) && Math.abs(number) <= INT64_MAX) return String(clearNegativeZero(number));
  return formatPhpFloat(number);
}

function formatPhpFloat(number: number): string {
  if (Number.isNaN(number)) return 'NAN';
  if (!Number.isFinite(number)) return number > 0 ? 'INF' : '-INF';
  if (number === 0) return Object.is(number, -0) ? '-0' : '0';
  const [mantissa = '0', exponentText = '0'] = number.toExponential(13).split('e');
  const exponent = Number(exponentText);
  const digits = mantissa.replace('-', '').replace('.', '').replace(/0+$/, '') || '0';
  const sign = number < 0 ? '-' : '';
  if (exponent < -4 || exponent >= 14) {
    const fraction = digits.slice(1) || '0';
    return `${sign}${digits[0]}.${fraction}E${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

/** `wp_parse_list` for a scalar: split on commas and white space, dropping empty pieces. */
export function splitList(value: string | number | boolean): string[] {
  return toPhpString(value).split(/[ \t\n\v\f\r,]+/).filter((piece) => piece !== '');
}

/** PHP `trim` with its default character set. */
export function phpTrim(text: string, characters = ' \t\n\r\0\x0B'): string {
  let start = 0;
  let end = text.length;
  while (start < end && characters.includes(text[start]!)) start++;
  while (end > start && characters.includes(text[end - 1]!)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** ASCII-only lower-casing, as PHP 8's `strtolower`. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** `number_format_i18n` in the default locale: rounded to an integer with "," as thousands separator. */
export function formatCount(value: unknown): string {
  const number = toFloat(value);
  const rounded = Math.sign(number) * Math.round(Math.abs(number));
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}

/** `%d` of sprintf: the value as an integer. */
export function formatInteger(value: unknown): string {
  return String(toInt(value));
}

/** English list join as `wp_sprintf`'s `%l`: "a", "a and b", "a, b, and c". */
export function joinEnglishList(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** `wp_json_encode` with PHP's defaults: escaped slashes and non-ASCII, sequential arrays as JSON lists. */
export function phpJsonEncode(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : '0';
  if (typeof value === 'string') {
    return JSON.stringify(value)
      .replace(/\//g, '\\/')
      .replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (isPhpArray(value)) {
    const entries = entriesOf(value);
    if (entries.every(([key], index) => key === String(index))) {
      return `[${entries.map(([, item]) => phpJsonEncode(item)).join(',')}]`;
    }
    return `{${entries.map(([key, item]) => `${phpJsonEncode(key)}:${phpJsonEncode(item)}`).join(',')}}`;
  }
  return '{}';
}
