import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchema } from '../../../src/core/args/schema.js';
import { parseValue, sanitizeValue } from '../../../src/core/args/engine.js';
import { categoriesSchema } from './schemas.js';

function sanitized(value: unknown, schema: JsonSchema, param = 'p'): unknown {
  const result = sanitizeValue(value, schema, param);
  assert.ok(result.ok, `sanitising ${JSON.stringify(value)} failed: ${result.ok ? '' : result.issue.message}`);
  return result.value;
}

function parsed(value: unknown, schema: JsonSchema, param = 'p'): unknown {
  const result = parseValue(value, schema, param);
  assert.ok(result.ok, `parsing ${JSON.stringify(value)} failed: ${result.ok ? '' : result.issue.message}`);
  return result.value;
}

describe('sanitizeValue: scalars', () => {
  it('casts integers by truncation, reading PHP numeric strings', () => {
    const cases: [unknown, number][] = [['1e2', 100], ['7', 7], ['1.9', 1], ['-1.9', -1], [' 12', 12], ['12abc', 12], ['abc', 0], [true, 1], [null, 0], [2.7, 2]];
    for (const [input, expected] of cases) assert.equal(sanitized(input, { type: 'integer' }), expected, JSON.stringify(input));
  });

  it('casts numbers to floats', () => {
    const cases: [unknown, number][] = [['1.5', 1.5], ['.5', 0.5], ['1e-2', 0.01], ['x', 0], [false, 0], [3, 3]];
    for (const [input, expected] of cases) assert.equal(sanitized(input, { type: 'number' }), expected, JSON.stringify(input));
  });

  it('makes "false" and "0" (any case) false, and casts everything else by truthiness', () => {
    const cases: [unknown, boolean][] = [['false', false], ['FALSE', false], ['0', false], ['', false], [0, false], ['true', true], ['no', true], ['1', true], [1, true], [[], false]];
    for (const [input, expected] of cases) assert.equal(sanitized(input, { type: 'boolean' }), expected, JSON.stringify(input));
  });

  it('gives null for the null type', () => {
    assert.equal(sanitized('', { type: 'null' }), null);
  });

  it('casts to string when there is no format', () => {
    assert.equal(sanitized(5, { type: 'string' }), '5');
    assert.equal(sanitized(1.5, { type: 'string' }), '1.5');
    assert.equal(sanitized(true, { type: 'string' }), '1');
    assert.equal(sanitized(false, { type: 'string' }), '');
    assert.equal(sanitized(' <b>kept</b> ', { type: 'string' }), ' <b>kept</b> ');
  });

  it('returns values unchanged without a type', () => {
    const value = { a: ['1'] };
    assert.equal(sanitized(value, {}), value);
    assert.equal(sanitized('x', { type: 'mystery' as 'string' }), 'x');
  });
});

describe('sanitizeValue: type lists', () => {
  it('converts to the best type', () => {
    assert.equal(sanitized('1', { type: ['boolean', 'integer'] }), true);
    assert.equal(sanitized('2', { type: ['boolean', 'integer'] }), 2);
    assert.equal(sanitized('5', { type: ['integer', 'string'] }), 5);
    assert.equal(sanitized('abc', { type: ['integer', 'string'] }), 'abc');
    assert.deepEqual(sanitized('abc', { type: ['array', 'string'] }), ['abc']);
    assert.equal(sanitized('', { type: ['string', 'null'] }), '');
    assert.equal(sanitized(null, { type: ['string', 'null'] }), null);
  });

  it('gives null when no type fits', () => {
    assert.equal(sanitized('abc', { type: ['integer', 'boolean'] }), null);
    assert.equal(sanitized({ a: 1 }, { type: ['string', 'number'] }), null);
  });
});

describe('sanitizeValue: arrays', () => {
  it('splits scalars on commas and white space, dropping empty pieces', () => {
    assert.deepEqual(sanitized('1,2', { type: 'array' }), ['1', '2']);
    assert.deepEqual(sanitized('1 2', { type: 'array' }), ['1', '2']);
    assert.deepEqual(sanitized('a,b,,c', { type: 'array' }), ['a', 'b', 'c']);
    assert.deepEqual(sanitized('', { type: 'array' }), []);
    assert.deepEqual(sanitized(5, { type: 'array' }), ['5']);
  });

  it('re-indexes lists and sanitises each item', () => {
    assert.deepEqual(sanitized({ 0: '4', 2: '9' }, { type: 'array', items: { type: 'integer' } }), [4, 9]);
    assert.deepEqual(sanitized(['1', '1.0', 'x'], { type: 'array', items: { type: 'integer' } }), [1, 1, 0]);
    assert.deepEqual(sanitized('publish', { type: 'array', items: { type: 'string', enum: ['publish', 'draft'] } }), ['publish']);
  });

  it('checks uniqueItems again after sanitising', () => {
    const schema: JsonSchema = { type: 'array', items: { type: 'integer' }, uniqueItems: true };
    assert.deepEqual(sanitizeValue(['1', 1], schema, 'include'), {
      ok: false,
      issue: { code: 'rest_duplicate_items', message: 'include has duplicate items.', data: null },
    });
    assert.deepEqual(sanitized(['1', '2'], schema), [1, 2]);
  });

  it('does not modify the input', () => {
    const input = ['1', '2'];
    sanitized(input, { type: 'array', items: { type: 'integer' } });
    assert.deepEqual(input, ['1', '2']);
  });
});

describe('sanitizeValue: objects', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { count: { type: 'integer' }, flag: { type: 'boolean' } },
    patternProperties: { '^n_': { type: 'number' } },
    additionalProperties: false,
  };

  it('sanitises known properties and pattern properties, dropping unknown keys', () => {
    assert.deepEqual(sanitized({ count: '3', flag: 'false', n_x: '1.5', extra: 'gone' }, schema), { count: 3, flag: false, n_x: 1.5 });
  });

  it('turns "" into an empty object and keeps lists as lists while their indices stay in sequence', () => {
    assert.deepEqual(sanitized('', { type: 'object' }), {});
    assert.deepEqual(sanitized(['a', 'b'], { type: 'object' }), ['a', 'b']);
    assert.deepEqual(sanitized(['1', '2'], { type: 'object', additionalProperties: { type: 'integer' } }), [1, 2]);
    const withoutFirst: JsonSchema = { type: 'object', properties: { 1: { type: 'string' } }, additionalProperties: false };
    assert.deepEqual(sanitized(['a', 'b'], withoutFirst), { 1: 'b' });
  });

  it('sanitises additional properties with their schema, or keeps them', () => {
    assert.deepEqual(sanitized({ a: '1', b: '2' }, { type: 'object', additionalProperties: { type: 'integer' } }), { a: 1, b: 2 });
    assert.deepEqual(sanitized({ a: '1' }, { type: 'object' }), { a: '1' });
  });

  it('drops keys that could reach a prototype', () => {
    const input = JSON.parse('{"__proto__":{"polluted":"1"},"constructor":{"prototype":{"x":1}},"prototype":"2","count":"2"}') as unknown;
    const result = sanitized(input, { type: 'object', properties: { count: { type: 'integer' } } }) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.keys(result), ['count']);
    assert.equal(result.count, 2);
    assert.equal((result as { polluted?: unknown }).polluted, undefined);
  });
});

describe('sanitizeValue: string formats', () => {
  it('cleans text fields', () => {
    assert.equal(sanitized('<b>hi</b>\nthere  x', { type: 'string', format: 'text-field' }), 'hi there x');
    for (const format of ['date-time', 'email', 'ip', 'uuid']) {
      assert.equal(sanitized('  a\tb  ', { type: 'string', format }), 'a b', format);
    }
  });

  it('keeps newlines for textarea fields', () => {
    assert.equal(sanitized('<b>a</b>\nb\n\nc ', { type: 'string', format: 'textarea-field' }), 'a\nb\n\nc');
  });

  it('cleans URLs', () => {
    assert.equal(sanitized('not a uri', { type: 'string', format: 'uri' }), 'http://not%20a%20uri');
    assert.equal(sanitized('javascript:alert(1)', { type: 'string', format: 'uri' }), '');
    assert.equal(sanitized('https://example.com/a b', { type: 'string', format: 'uri' }), 'https://example.com/a%20b');
  });

  it('keeps a valid hex colour and empties the rest', () => {
    assert.equal(sanitized('#ABCDEF', { type: 'string', format: 'hex-color' }), '#ABCDEF');
    assert.equal(sanitized('red', { type: 'string', format: 'hex-color' }), '');
  });

  it('applies formats without a type too', () => {
    assert.equal(sanitized(' x ', { format: 'text-field' }), 'x');
    assert.equal(sanitized(' x ', { format: 'made-up' }), ' x ');
  });
});

describe('sanitizeValue: anyOf and oneOf', () => {
  it('re-sanitises with the matched branch', () => {
    assert.deepEqual(sanitized('1,2', categoriesSchema, 'categories'), [1, 2]);
    assert.deepEqual(sanitized({ terms: '3', include_children: '0', operator: 'AND' }, categoriesSchema, 'categories'), {
      terms: [3],
      include_children: false,
      operator: 'AND',
    });
  });

  it('uses the first matching anyOf branch, even a tolerant one', () => {
    const schema: JsonSchema = {
      anyOf: [
        { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false },
        { type: 'object' },
      ],
    };
    assert.deepEqual(sanitized({ a: '1', b: '2' }, schema), { a: '1', b: '2' });
    assert.deepEqual(sanitized({ a: '1' }, schema), { a: 1 });
  });

  it('returns combining errors', () => {
    const result = sanitizeValue({ foo: '1' }, categoriesSchema, 'categories');
    assert.equal(result.ok, false);
    assert.equal(result.ok ? '' : result.issue.code, 'rest_no_matching_schema');
  });
});

describe('parseValue', () => {
  it('validates before sanitising', () => {
    assert.deepEqual(parseValue('abc', { type: 'integer' }, 'per_page'), {
      ok: false,
      issue: { code: 'rest_invalid_type', message: 'per_page is not of type integer.', data: { param: 'per_page' } },
    });
    assert.deepEqual(parseValue('0', { type: 'integer', minimum: 1 }, 'page'), {
      ok: false,
      issue: { code: 'rest_out_of_bounds', message: 'page must be greater than or equal to 1', data: null },
    });
  });

  it('sanitises valid values', () => {
    assert.equal(parsed('7', { type: 'integer', default: '7' }), 7);
    assert.deepEqual(parsed('publish', { type: 'array', items: { type: 'string' } }), ['publish']);
    assert.equal(parsed('1', { type: ['boolean', 'integer'] }), true);
    assert.equal(parsed('2', { type: ['boolean', 'integer'] }), 2);
    assert.equal(parsed('desc', { type: 'string', enum: ['asc', 'desc'] }), 'desc');
  });

  it('reports invalid enum values through validation', () => {
    assert.deepEqual(parseValue('up', { type: 'string', enum: ['asc', 'desc'] }, 'order'), {
      ok: false,
      issue: { code: 'rest_not_in_enum', message: 'order is not one of asc and desc.', data: null },
    });
  });
});
