import type { Random } from './random.js';
import type { Value } from './values.js';

const encoder = new TextEncoder();

/**
 * Percent-encodes text as UTF-8, except that a lone surrogate becomes its three raw (invalid) bytes, as a
 * careless client would send it.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    const paired = isHigh && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff;
    if (paired) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (isHigh || isLow) {
      out += `%${(0xe0 | (unit >> 12)).toString(16).toUpperCase()}%${(0x80 | ((unit >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (unit & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}

/** Name/value pairs of a parameter tree, PHP-style: `a[b][]=1`. Lists use `[]` or explicit indexes. */
export function flatten(random: Random, params: { [key: string]: Value }): [string, string][] {
  const pairs: [string, string][] = [];
  const walk = (name: string, value: Value) => {
    if (value === null) {
      pairs.push([name, random.chance(0.5) ? '' : 'null']);
    } else if (Array.isArray(value)) {
      if (value.length === 0) pairs.push([name, '']);
      const explicit = random.chance(0.3);
      value.forEach((item, index) => walk(`${name}[${explicit ? index : ''}]`, item));
    } else if (typeof value === 'object') {
      const keys = Object.keys(value);
      if (keys.length === 0) pairs.push([`${name}[]`, '']);
      for (const key of keys) walk(`${name}[${key}]`, value[key]!);
    } else {
      pairs.push([name, typeof value === 'boolean' ? (value ? '1' : random.pick(['0', ''])) : String(value)]);
    }
  };
  for (const key of Object.keys(params)) walk(key, params[key]!);
  return pairs;
}

/** Hostile pairs for query strings and form bodies: prototype keys, odd brackets, deep nesting, many variables. */
export function hostilePairs(random: Random): [string, string][] {
  const name = random.pick(['x', 'a', 'status', 'context', 'title', 'meta', '_fields', 'categories', 'requests']);
  const which = random.below(14);
  switch (which) {
    case 0: return [[`__proto__[${random.pick(['_method', 'rest_route', '_jsonp', 'polluted', 'status', 'context', 'length'])}]`, random.pick(['DELETE', '/cms/v2/users/me', 'evil', '1'])]];
    case 1: return [[`constructor[prototype][${random.pick(['polluted', '_method', 'toString'])}]`, 'x']];
    case 2: return [[`${name}[__proto__][polluted]`, 'yes'], [`${name}[constructor][prototype][polluted]`, 'yes']];
    case 3: return [['__proto__', 'x'], ['constructor', 'y'], ['prototype', 'z']];
    case 4: return [[`${name}[`, '1'], [`${name}]`, '2'], [`[${name}]`, '3'], [`${name}[][`, '4'], [`${name}[a]b[c]`, '5']];
    case 5: return [[`${name}${'[a]'.repeat(random.pick([10, 63, 64, 65, 200, 1000]))}`, '1']];
    case 6: return [[`${name}${'[]'.repeat(random.pick([2, 64, 65, 300]))}`, '1']];
    case 7: return Array.from({ length: random.pick([999, 1000, 1001, 1500]) }, (_, index) => [`v${index}`, String(index)] as [string, string]);
    case 8: return Array.from({ length: random.pick([50, 1001]) }, () => [`${name}[]`, String(random.below(100))] as [string, string]);
    case 9: return [[`${name}[toString]`, 'x'], [`${name}[valueOf]`, 'y'], [`${name}[hasOwnProperty]`, 'z']];
    case 10: return [[`${name}[length]`, '99999999'], [`${name}[9007199254740993]`, 'x'], [`${name}[-1]`, 'y']];
    case 11: return [[`${name}.dotted`, '1'], [` ${name} spaced`, '2'], [`${name}\u0000nul`, '3']];
    case 12: return [[`${name}[ ]`, '1'], [`${name}[\u0000]`, '2'], [`${name}[${'k'.repeat(5000)}]`, '3']];
    default: return [['', 'empty'], ['=', '='], ['&', '&']];
  }
}

/** Joins pairs into a query string or urlencoded body, sometimes with raw bytes a decoder must survive. */
export function joinPairs(random: Random, pairs: [string, string][]): string {
  const parts = pairs.map(([name, value]) => {
    const encodedName = random.chance(0.8) ? percentEncode(name).replace(/%5B/g, '[').replace(/%5D/g, ']') : percentEncode(name);
    return `${encodedName}=${percentEncode(value)}`;
  });
  if (random.chance(0.1)) {
    parts.push(random.pick(['%', '%G1=%', 'a=%FF%FE', 'b=%ED%A0%80', 'c=%C0%AF', '%00=%00', 'd=%E2%82', '===', '&&', 'e', 'f=1=2', '+=+', 'g=%u0041']));
  }
  return parts.join('&');
}

/** A JSON text of the value, or a broken or unusual one. */
export function jsonText(random: Random, value: Value): string {
  const text = JSON.stringify(value);
  return random.weighted<() => string>([
    [20, () => text],
    [1, () => text.slice(0, random.below(text.length + 1))],
    [1, () => `${text},`],
    [1, () => `\ufeff${text}`],
    [1, () => text.replace(/"/g, "'")],
    [1, () => `{"a":}`],
    [1, () => `{"title":"x","title":{"raw":1},"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}`],
    [1, () => `{"id":123456789012345678901234567890,"page":1e400,"per_page":-0,"offset":9007199254740993}`],
    [1, () => `${'['.repeat(random.pick([511, 512, 513, 5000]))}${']'.repeat(random.pick([511, 512, 513, 5000]))}`],
    [1, () => `${'{"a":'.repeat(random.pick([100, 600]))}1${'}'.repeat(random.pick([100, 600]))}`],
    [1, () => random.pick(['null', 'true', '0', '1', '-1', '"text"', '[]', '[1,2]', '{}', '', ' ', 'NaN', 'undefined', '\u0000'])],
    [1, () => `{"title":"\\ud800","content":"\\u0000","excerpt":"\\udfff\\ud800"}`],
  ])();
}

/** Bytes that are not valid UTF-8, for JSON and form bodies. */
export const INVALID_UTF8 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22, 0x7d]);

export interface FilePart {
  field: string;
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/** A multipart/form-data body, well formed or not. */
export function multipart(random: Random, pairs: [string, string][], files: FilePart[]): { contentType: string; body: Uint8Array } {
  const boundary = random.pick(['----fuzzboundary', 'x', 'a'.repeat(70), '"quoted boundary"', '--', 'b\u00e9']);
  const bare = boundary.replace(/^"|"$/g, '');
  const chunks: Uint8Array[] = [];
  const push = (text: string) => chunks.push(encoder.encode(text));
  for (const [name, value] of pairs) {
    push(`--${bare}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, '%22')}"\r\n\r\n${value}\r\n`);
  }
  for (const file of files) {
    push(`--${bare}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`);
    chunks.push(file.bytes);
    push('\r\n');
  }
  const mutation = random.below(12);
  if (mutation === 0) push(`--${bare}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n`);
  else if (mutation === 1) push(`--${bare}\r\nX-Long: ${'h'.repeat(random.pick([1000, 20_000]))}\r\n\r\nlong header\r\n`);
  else if (mutation === 2) push(`--${bare}\r\nContent-Disposition: form-data; name="cut"`);
  else if (mutation === 3) for (let i = 0; i < random.pick([200, 1100]); i++) push(`--${bare}\r\nContent-Disposition: form-data; name="p${i}[]"\r\n\r\n${i}\r\n`);
  else if (mutation === 4) push(`--${bare}\r\nContent-Disposition: form-data; name="${'deep'}${'[a]'.repeat(random.pick([65, 500, 2000]))}"\r\n\r\n1\r\n`);
  else if (mutation === 5) push(`--${bare}\r\nContent-Disposition: form-data; name="__proto__[polluted]"\r\n\r\nyes\r\n`);
  if (mutation !== 6) push(`--${bare}--\r\n`);
  const contentType = random.weighted([
    [8, `multipart/form-data; boundary=${boundary}`],
    [1, 'multipart/form-data'],
    [1, 'multipart/form-data; boundary='],
    [1, `multipart/form-data; boundary=other; boundary=${boundary}`],
  ] as const);
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return { contentType, body };
}
