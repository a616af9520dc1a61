import type { JsonSchema } from '../../src/core/args/schema.js';
import type { Random } from './random.js';

/**
 * A generated parameter value. Objects are prototype-less, so `__proto__`, `constructor` and `prototype` are
 * ordinary keys that JSON.stringify writes out and the encoders turn into bracketed names.
 */
export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

export const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Names the core treats specially, mixed into queries and bodies. */
export const GLOBAL_PARAMS = ['_method', '_envelope', '_jsonp', '_pretty', '_fields', '_embed', 'rest_route', 'context', '_locale'] as const;

const NUMBERS = [
  0, -0, 1, -1, 2, 7, 100, 101, 1.5, -2.5, 2 ** 31, -(2 ** 31), 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 63, 1e21, 1e300, -1e300,
  Number.MAX_VALUE, Number.MIN_VALUE, 0.1 + 0.2,
];

/** Number-like text: what query strings and form bodies carry. */
const NUMBER_TEXTS = [
  '0', '-0', '00', '007', '-1', '1e2', '1E2', '1e309', '-1e309', '9007199254740993', '9007199254740992', '-9007199254740993',
  '18446744073709551616', '99999999999999999999999999999999', '0x10', '0b11', '1.0', '1.5', '.5', '5.', '1_000', ' 1', '1 ',
  '+1', 'NaN', 'Infinity', '-Infinity', '1e-7', '2147483648', '4294967296',
];

const TEXTS = [
  '', ' ', 'a', 'hello world', 'publish', 'draft', 'private', 'future', 'pending', 'trash', 'inherit', 'any', 'auto-draft',
  'view', 'edit', 'embed', 'help', 'asc', 'desc', 'id', 'include', 'title', 'date', 'relevance', 'slug', 'include_slugs', 'author',
  'modified', 'parent', 'menu_order', 'exact', 'AND', 'OR', 'true', 'false', 'TRUE', 'yes', 'no', 'on', 'null', '[]', '{}', 'me',
  'administrator', 'editor', 'subscriber', 'post_title', 'post_content', 'post_excerpt', 'image', 'video', 'image/png', 'text/plain',
  'create-image-subsizes', 'flip', 'rotate', 'crop', 'standard', 'aside', 'gallery', 'open', 'closed', 'footnotes', 'wp:featuredmedia',
  'author,wp:term', 'id,title', 'title.rendered', 'content.raw', 'links', '_links', 'normal', 'require-all-validate',
  'é', '日本語テキスト', '👍🏽👨‍👩‍👧', '\u202eevil', '\ufeffbom', 'a\u0000b', '\u0000', 'x\ud800y', '\udfff', '\ud83d', 'e\u0301',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg/onload=1>', "' OR 1=1 --", '%', '_', '\\', '%00', '%ff',
  '../../etc/passwd', '/cms/v2/users/me', 'http://images.test/a.png', 'https://images.test/b.png?x=1', 'http://missing.test/x.png',
  'http://empty.test/', 'http://127.0.0.1/', 'http://169.254.169.254/latest', 'javascript:alert(1)', 'data:image/png;base64,AAAA',
  'file:///etc/passwd', '//example.test', 'http://example.test/uploads/2026/11/image-0.png', '[gallery ids="1,2"]', '[embed]x[/embed]',
  '<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->', '<!-- wp:core/block {"ref":1} /-->', '<!-- wp:', '&amp;&lt;&#0;&#x110000;',
  '2026-01-01T00:00:00', '2026-11-21T17:11:35Z', '2027-03-04T05:06:07', '2026-13-45T99:99:99', '0000-00-00 00:00:00', '1970-01-01',
  '9999-12-31T23:59:59+14:00', '-000001-01-01T00:00:00Z', '2026-02-30', '2026-01-01T00:00:00.123456789+05:45', 'now', 'tomorrow',
  'mulberry', 'a,b,c', ',,,', '1,2,3', '1, 2, x', 'alpha', 'beta', 'fuzz', 'x'.repeat(300),
];

const PLAIN = ['Hello', 'A title', '<p>Some <em>content</em></p>', 'Plain words here', 'café', 'alpha', 'beta', 'post-slug', 'x'];
const DATES = TEXTS.filter((text) => /^-?\d{4}/.test(text));
const URLS = TEXTS.filter((text) => /^[a-z]+:/.test(text));

const SCHEMA_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object', 'null'] as const;

export class ValueMaker {
  /**
   * `hostility` (0 to 1) is how often a value leaves its schema: low for cases that should mostly be accepted
   * (and so reach the handlers and the store), high for cases meant to be refused.
   */
  constructor(
    private readonly random: Random,
    private readonly idPool: readonly number[],
    private readonly words: readonly string[],
    readonly hostility = 0.25,
  ) {}

  text(): string {
    const r = this.random;
    return r.weighted<() => string>([
      [8, () => r.pick(TEXTS)],
      [3, () => r.pick(NUMBER_TEXTS)],
      [2, () => String(r.pick(this.idPool))],
      [2, () => r.pick(this.words)],
      [1, () => this.randomText(r.between(1, 40))],
      [1, () => r.pick(['a', '€', '\u0000', '\ud800', '<b>', ' ']).repeat(r.pick([1000, 10_000, 70_000]))],
      [1, () => this.nulText()],
    ])();
  }

  /**
   * A word with a NUL inside (or at an end): what a text filter (`search`, `slug`, an email...) must take on
   * every store. Words of three characters or more reach the SQLite trigram index too.
   */
  nulText(): string {
    const r = this.random;
    const word = r.pick([...this.words, 'hello', 'alpha', 'post', 'example.org', '203.0.113', 'a']);
    const at = r.weighted([[4, r.between(1, Math.max(1, word.length - 1))], [1, 0], [1, word.length]] as const);
    return `${word.slice(0, at)}${r.pick(['\u0000', '\u0000\u0000', '%00'])}${word.slice(at)}`;
  }

  /**
   * A value sent under the name of a path parameter (`id`, `parent`, `user_id`...): the query's or body's value
   * takes the path's place, so it must follow the path's rule. Bracketed keys (`id[a]=1`), lists, text, odd
   * numbers, and some fine identifiers.
   */
  pathParamImpostor(): Value {
    const r = this.random;
    return r.weighted<() => Value>([
      [3, () => {
        const object: { [key: string]: Value } = Object.create(null);
        object[r.pick(['a', '0', 'toString', ...DANGEROUS_KEYS])] = r.pick(['1', String(r.pick(this.idPool)), 'x']);
        return object;
      }],
      [2, () => [String(r.pick(this.idPool))]],
      [2, () => r.pick(['abc', '', ' 1', '1e2', '-1', '1.5', 'me', '0x10', 'a\u0000b', '__proto__'])],
      [1, () => r.pick([-1, 1.5, 2 ** 63, true, false])],
      [2, () => r.pick(this.idPool)],
    ])();
  }

  /** Text a well-behaved client would send. */
  plainText(): string {
    const r = this.random;
    return r.weighted<() => string>([
      [3, () => `${r.pick(this.words)} ${r.pick(PLAIN)}`],
      [1, () => r.pick(PLAIN)],
      [1, () => r.pick(this.words)],
    ])();
  }

  /** Random code units: any BMP character, lone surrogates included. */
  randomText(length: number): string {
    let text = '';
    for (let i = 0; i < length; i++) {
      const unit = this.random.weighted<() => number>([
        [6, () => this.random.between(0x20, 0x7e)],
        [1, () => this.random.between(0, 0x1f)],
        [1, () => this.random.between(0x80, 0xffff)],
      ])();
      text += String.fromCharCode(unit);
    }
    return text;
  }

  number(): number {
    const r = this.random;
    return r.weighted<() => number>([
      [3, () => r.pick(NUMBERS)],
      [3, () => r.pick(this.idPool)],
      [1, () => r.between(-1000, 1000)],
      [1, () => (r.float() - 0.5) * 10 ** r.between(0, 30)],
    ])();
  }

  /** Any value, hostile more often than not, nested at most `depth` more levels. */
  any(depth = 2): Value {
    const r = this.random;
    const choices: [number, () => Value][] = [
      [6, () => this.text()],
      [3, () => this.number()],
      [1, () => r.chance(0.5)],
      [1, () => null],
    ];
    if (depth > 0) {
      choices.push([1, () => Array.from({ length: r.between(0, 4) }, () => this.any(depth - 1))]);
      choices.push([1, () => this.object(depth - 1)]);
    }
    return r.weighted(choices)();
  }

  /** An object with random keys, dangerous ones included. */
  object(depth = 1, keys: readonly string[] = []): { [key: string]: Value } {
    const r = this.random;
    const object: { [key: string]: Value } = Object.create(null);
    for (let i = r.between(0, 4); i > 0; i--) {
      const key = r.weighted<() => string>([
        [3, () => r.pick(keys.length > 0 ? keys : TEXTS)],
        [2, () => r.pick(DANGEROUS_KEYS)],
        [1, () => r.pick(GLOBAL_PARAMS)],
        [1, () => this.randomText(r.between(0, 8))],
        [1, () => String(r.between(0, 5))],
      ])();
      object[key] = this.any(depth);
    }
    return object;
  }

  /** A value shaped by an argument's schema, or (often) deliberately not. */
  forSchema(schema: JsonSchema | undefined, depth = 3): Value {
    const r = this.random;
    if (!schema || r.chance(this.hostility) || depth <= 0) return this.any(Math.max(depth - 1, 0));
    if (schema.enum && schema.enum.length > 0 && !r.chance(this.hostility)) return r.pick(schema.enum) as Value;
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [r.pick(SCHEMA_TYPES)];
    const type = r.pick(types);
    if (schema.oneOf && r.chance(0.5)) return this.forSchema(r.pick(schema.oneOf), depth - 1);
    if (schema.anyOf && r.chance(0.5)) return this.forSchema(r.pick(schema.anyOf), depth - 1);
    switch (type) {
      case 'integer':
      case 'number':
        return !r.chance(this.hostility * 1.5) ? this.bounded(schema) : r.chance(0.5) ? this.number() : r.pick(NUMBER_TEXTS);
      case 'boolean':
        return r.pick<Value>([true, false, 'true', 'false', '1', '0', 1, 0, 'yes', '']);
      case 'null':
        return null;
      case 'array': {
        const length = r.weighted([[8, r.between(0, 4)], [1, r.between(5, 120)], [1, 0]] as const);
        return Array.from({ length }, () => this.forSchema(schema.items as JsonSchema | undefined, depth - 1));
      }
      case 'object': {
        const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
        const object = r.chance(this.hostility * 2) ? this.object(0, Object.keys(properties)) : Object.create(null) as { [key: string]: Value };
        for (const [name, property] of Object.entries(properties)) {
          if (r.chance(0.6)) object[name] = this.forSchema(property, depth - 1);
        }
        return object;
      }
      default:
        if (schema.format === 'date-time' && r.chance(0.7)) return r.pick(DATES);
        if ((schema.format === 'uri' || schema.format === 'url') && r.chance(0.7)) return r.pick(URLS);
        return r.chance(this.hostility * 2) ? this.text() : this.plainText();
    }
  }

  #bounds(schema: JsonSchema): [number, number] {
    const minimum = typeof schema.minimum === 'number' ? schema.minimum : -5;
    const maximum = typeof schema.maximum === 'number' ? schema.maximum : Math.max(minimum + 200, 200);
    return [minimum, maximum];
  }

  /** Near the schema's bounds, on either side, or an identifier of seeded content. */
  bounded(schema: JsonSchema): number {
    const r = this.random;
    const [minimum, maximum] = this.#bounds(schema);
    return r.weighted<() => number>([
      [3, () => r.pick(this.idPool)],
      [2, () => r.pick([minimum, minimum - 1, maximum, maximum + 1])],
      [2, () => r.between(Math.max(minimum, -1000), Math.min(maximum, 1000))],
    ])();
  }
}
