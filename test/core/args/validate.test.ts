import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ArgIssue } from '../../../src/core/errors.js';
import type { JsonSchema } from '../../../src/core/args/schema.js';
import { validateValue } from '../../../src/core/args/validate.js';
import { categoriesSchema, requestsSchema } from './schemas.js';
import { longestTurnCpu } from '../../helpers/event-loop.js';

function accepts(schema: JsonSchema, values: unknown[], param = 'p'): void {
  for (const value of values) {
    assert.equal(validateValue(value, schema, param), null, `${JSON.stringify(value)} should pass ${JSON.stringify(schema)}`);
  }
}

function rejects(schema: JsonSchema, value: unknown, expected: ArgIssue, param = 'p'): void {
  assert.deepEqual(validateValue(value, schema, param), expected, `${JSON.stringify(value)} against ${JSON.stringify(schema)}`);
}

const typeIssue = (param: string, type: string): ArgIssue => ({
  code: 'rest_invalid_type',
  message: `${param} is not of type ${type}.`,
  data: { param },
});

const plain = (code: string, message: string): ArgIssue => ({ code, message, data: null });

describe('validateValue: types and coercions', () => {
  it('null accepts only a real null', () => {
    accepts({ type: 'null' }, [null, undefined]);
    for (const value of ['', 'null', 0, false, []]) rejects({ type: 'null' }, value, typeIssue('p', 'null'));
  });

  it('boolean accepts booleans, "true"/"false"/"1"/"0" in any case, and the integers 0 and 1', () => {
    accepts({ type: 'boolean' }, [true, false, 'true', 'false', 'TRUE', 'False', '1', '0', 0, 1]);
    for (const value of ['', 'yes', 'on', 2, -1, 1.5, null, [], {}]) rejects({ type: 'boolean' }, value, typeIssue('p', 'boolean'));
  });

  it('integer accepts PHP numeric values that are whole numbers', () => {
    accepts({ type: 'integer' }, [0, -3, 7, '12', ' 1', '1 ', '\n1', '1e2', '1.0', '+1', '-0', '5.', '99999999999999999999']);
    for (const value of ['abc', '', ' ', '0x1A', '1e', '.', true, false, null, [], {}]) {
      rejects({ type: 'integer' }, value, typeIssue('p', 'integer'));
    }
    rejects({ type: 'integer' }, '1.5', typeIssue('p', 'integer'));
    rejects({ type: 'integer' }, 2.5, typeIssue('p', 'integer'));
  });

  it('integer runs the number bounds before the whole-number check', () => {
    rejects({ type: 'integer', minimum: 2 }, '1.5', plain('rest_out_of_bounds', 'p must be greater than or equal to 2'));
    rejects({ type: 'integer', minimum: 1 }, '1.5', typeIssue('p', 'integer'));
  });

  it('number accepts PHP numeric strings and numbers only', () => {
    accepts({ type: 'number' }, [1.5, -2, '1.5', '.5', '1E-2', ' 3']);
    for (const value of ['abc', '', '1,5', true, null, ['1']]) rejects({ type: 'number' }, value, typeIssue('p', 'number'));
  });

  it('string accepts real strings only', () => {
    accepts({ type: 'string' }, ['', 'x', '5']);
    for (const value of [5, 1.5, true, null, ['a'], { a: 'b' }]) rejects({ type: 'string' }, value, typeIssue('p', 'string'));
  });

  it('array accepts lists and any scalar, but not maps with string keys or null', () => {
    accepts({ type: 'array' }, [[], ['1', '2'], '1,2', '1 2', 'a,b,,c', '', 5, true, { 0: 'a', 2: 'b' }]);
    for (const value of [{ a: '1' }, { 0: 'a', b: 'c' }, null]) rejects({ type: 'array' }, value, typeIssue('p', 'array'));
  });

  it('object accepts maps, lists and the empty string', () => {
    accepts({ type: 'object' }, [{}, { a: '1' }, [], ['a', 'b'], '']);
    for (const value of ['x', '0', 5, true, null]) rejects({ type: 'object' }, value, typeIssue('p', 'object'));
  });

  it('treats a missing or unknown type as valid', () => {
    accepts({}, ['x', 5, null, ['a'], { a: 1 }]);
    accepts({ type: 'mystery' as 'string' }, ['x', 5, null]);
  });
});

describe('validateValue: type lists', () => {
  it('reports the types joined with a bare comma', () => {
    rejects({ type: ['integer', 'boolean'] }, 'abc', typeIssue('p', 'integer,boolean'));
    rejects({ type: ['object', 'null'] }, 'x', typeIssue('p', 'object,null'));
  });

  it('checks the value as the best type', () => {
    accepts({ type: ['boolean', 'integer'] }, ['1', '2', 'true']);
    accepts({ type: ['integer', 'string'] }, ['5', 'abc']);
    rejects({ type: ['integer', 'string'], minimum: 10 }, '5', plain('rest_out_of_bounds', 'p must be greater than or equal to 10'));
    rejects({ type: ['array', 'string'], maxItems: 1 }, 'a,b', plain('rest_too_many_items', 'p must contain at most 1 item.'));
  });

  it('falls back to an unknown type name when no built-in type fits', () => {
    accepts({ type: ['integer', 'mystery'] as unknown as JsonSchema['type'] }, ['abc']);
  });
});

describe('validateValue: number keywords', () => {
  it('checks multipleOf with the floating remainder', () => {
    accepts({ type: 'number', multipleOf: 0.5 }, ['1.5', 2]);
    rejects({ type: 'number', multipleOf: 2 }, 3, plain('rest_invalid_multiple', 'p must be a multiple of 2.'));
    rejects({ type: 'number', multipleOf: 0.1 }, 0.3, plain('rest_invalid_multiple', 'p must be a multiple of 0.1.'));
  });

  it('prints bounds truncated to integers, without a trailing period', () => {
    rejects({ type: 'number', minimum: 1.5 }, 1, plain('rest_out_of_bounds', 'p must be greater than or equal to 1'));
    rejects({ type: 'number', minimum: 2, exclusiveMinimum: true }, 2, plain('rest_out_of_bounds', 'p must be greater than 2'));
    rejects({ type: 'number', maximum: 10.7 }, 11, plain('rest_out_of_bounds', 'p must be less than or equal to 10'));
    rejects({ type: 'number', maximum: 10, exclusiveMaximum: true }, '10', plain('rest_out_of_bounds', 'p must be less than 10'));
    rejects({ type: 'number', minimum: -2.7 }, -3, plain('rest_out_of_bounds', 'p must be greater than or equal to -2'));
  });

  it('names both ends when minimum and maximum are set', () => {
    const between = (schema: JsonSchema, value: number, message: string) =>
      rejects({ type: 'number', ...schema }, value, plain('rest_out_of_bounds', `p must be between ${message}`));
    between({ minimum: 1.5, maximum: 10.7 }, 11, '1 (inclusive) and 10 (inclusive)');
    between({ minimum: 1, maximum: 10, exclusiveMinimum: true }, 1, '1 (exclusive) and 10 (inclusive)');
    between({ minimum: 1, maximum: 10, exclusiveMaximum: true }, 10, '1 (inclusive) and 10 (exclusive)');
    between({ minimum: 1, maximum: 10, exclusiveMinimum: true, exclusiveMaximum: true }, 0, '1 (exclusive) and 10 (exclusive)');
    accepts({ type: 'number', minimum: 1, maximum: 10 }, [1, 10, '5.5']);
  });

  it('ignores exclusive flags without their bound', () => {
    accepts({ type: 'number', exclusiveMinimum: true, exclusiveMaximum: true }, [-1e9, 0, 1e9]);
  });

  it('checks multipleOf before the bounds', () => {
    rejects({ type: 'integer', multipleOf: 2, minimum: 10 }, 3, plain('rest_invalid_multiple', 'p must be a multiple of 2.'));
  });
});

describe('validateValue: string keywords', () => {
  it('counts code points for minLength and maxLength, with singular and plural wording', () => {
    accepts({ type: 'string', minLength: 2, maxLength: 2 }, ['😀😀', 'hé']);
    rejects({ type: 'string', minLength: 1 }, '', plain('rest_too_short', 'p must be at least 1 character long.'));
    rejects({ type: 'string', minLength: 3 }, '😀😀', plain('rest_too_short', 'p must be at least 3 characters long.'));
    rejects({ type: 'string', maxLength: 1 }, 'ab', plain('rest_too_long', 'p must be at most 1 character long.'));
    rejects({ type: 'string', maxLength: 2 }, 'abc', plain('rest_too_long', 'p must be at most 2 characters long.'));
  });

  it('counts lone surrogates once each, and long text only as far as a bound needs, holding no turn', async () => {
    accepts({ type: 'string', maxLength: 3 }, ['\ud83d\ude00\ud83d\ude00\ud83d\ude00', '\ud83da\ude00', '\ude00\ud83d']);
    rejects({ type: 'string', maxLength: 3 }, '\ud83d\ude00\ude00\ud83d\ud83d', plain('rest_too_long', 'p must be at most 3 characters long.'));
    accepts({ type: 'string', minLength: 3, maxLength: 4 }, ['\ud83d\ud83d\ud83d', '\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00']);
    rejects({ type: 'string', minLength: 3 }, '\ud83d\ude00\ud83d\ude00', plain('rest_too_short', 'p must be at least 3 characters long.'));
    const long = '\ud83d\ude00'.repeat(4 * 1024 * 1024);
    accepts({ type: 'string', minLength: 5 }, [long]);
    let issues: Array<ArgIssue | null> = [];
    const turnCpu = await longestTurnCpu(async () => {
      issues = [validateValue(long, { type: 'string' }, 'p'), validateValue(long, { type: 'string', maxLength: 200 }, 'p')];
    });
    assert.equal(issues[0], null);
    assert.equal(issues[1]?.code, 'rest_too_long');
    const countingMs = await longestTurnCpu(async () => [...long].length);
    assert.ok(turnCpu < countingMs / 2, `longest turn ${turnCpu.toFixed(1)} ms of CPU, counting the characters ${countingMs.toFixed(1)} ms`);
  });

  it('formats counts like the English locale', () => {
    rejects({ type: 'string', minLength: 1000 }, 'x', plain('rest_too_short', 'p must be at least 1,000 characters long.'));
    rejects({ type: 'array', minItems: 1000 }, [1, 2, 3], plain('rest_too_few_items', 'p must contain at least 1,000 items.'));
  });

  it('matches patterns unanchored and in Unicode mode', () => {
    accepts({ type: 'string', pattern: '[0-9]' }, ['abc1def']);
    accepts({ type: 'string', pattern: '^\\p{L}+$' }, ['héllo']);
    accepts({ type: 'string', pattern: '^.{2}$' }, ['😀😀']);
    accepts({ type: 'string', pattern: '^a#b$' }, ['a#b']);
    accepts({ type: 'string', pattern: '^[a-z]+$' }, ['abc\n']);
    rejects({ type: 'string', pattern: '^[a-z]+$' }, 'ABC', plain('rest_invalid_pattern', 'p does not match pattern ^[a-z]+$.'));
    rejects({ type: 'string', pattern: '^x\\-y$' }, 'xy', plain('rest_invalid_pattern', 'p does not match pattern ^x\\-y$.'));
  });

  it('treats a pattern that does not compile as never matching', () => {
    rejects({ type: 'string', pattern: '[unclosed' }, 'x', plain('rest_invalid_pattern', 'p does not match pattern [unclosed.'));
  });
});

describe('validateValue: array keywords', () => {
  it('validates items with indexed paths before counting', () => {
    rejects({ type: 'array', items: { type: 'integer' } }, ['1', 'x'], typeIssue('p[1]', 'integer'));
    rejects({ type: 'array', items: { type: 'integer' }, minItems: 5 }, 'a', typeIssue('include[0]', 'integer'), 'include');
    rejects({ type: 'array', items: { type: 'integer' } }, '1,2,x', typeIssue('include[2]', 'integer'), 'include');
  });

  it('checks minItems, then maxItems, then uniqueItems', () => {
    rejects({ type: 'array', minItems: 1 }, '', plain('rest_too_few_items', 'p must contain at least 1 item.'));
    rejects({ type: 'array', minItems: 2 }, ['a'], plain('rest_too_few_items', 'p must contain at least 2 items.'));
    rejects({ type: 'array', maxItems: 1 }, ['a', 'b'], plain('rest_too_many_items', 'p must contain at most 1 item.'));
    rejects({ type: 'array', minItems: 3, maxItems: 2, uniqueItems: true }, ['a', 'a'], plain('rest_too_few_items', 'p must contain at least 3 items.'));
    rejects({ type: 'array', maxItems: 1, uniqueItems: true }, ['a', 'a'], plain('rest_too_many_items', 'p must contain at most 1 item.'));
  });

  it('limits batch requests to 25', () => {
    const requests = Array.from({ length: 26 }, () => ({ path: '/cms/v2/posts' }));
    rejects(requestsSchema, requests, plain('rest_too_many_items', 'requests must contain at most 25 items.'), 'requests');
    accepts(requestsSchema, [requests.slice(0, 25)], 'requests');
  });

  it('compares items structurally for uniqueItems', () => {
    const unique: JsonSchema = { type: 'array', uniqueItems: true };
    accepts(unique, [['1', 1], [[1, 2], [2, 1]], ['a', 'b'], [true, 1], [null, '']]);
    const duplicate = plain('rest_duplicate_items', 'p has duplicate items.');
    rejects(unique, ['1', '1'], duplicate);
    rejects(unique, '1 1', duplicate);
    rejects(unique, [{ a: 1, b: 2 }, { b: 2, a: 1 }], duplicate);
    rejects(unique, [[1], [1]], duplicate);
  });
});

describe('validateValue: object keywords', () => {
  it('reports a missing v3 property (required: true) with the object path', () => {
    rejects(requestsSchema, [{ method: 'POST' }], plain('rest_property_required', 'path is a required property of requests[0].'), 'requests');
  });

  it('reports a missing v4 property (required: [names]) before checking values', () => {
    const schema: JsonSchema = { type: 'object', required: ['a', 'b'], properties: { a: { type: 'integer' } } };
    rejects(schema, { a: 'x' }, plain('rest_property_required', 'b is a required property of p.'));
    rejects(schema, { a: 'x', b: 1 }, typeIssue('p[a]', 'integer'));
    accepts(schema, [{ a: '1', b: null }]);
  });

  it('ignores v3 flags when a v4 list is present', () => {
    const schema: JsonSchema = { type: 'object', required: ['b'], properties: { a: { type: 'integer', required: true } } };
    accepts(schema, [{ b: 1 }]);
  });

  it('validates declared properties with nested paths', () => {
    rejects(requestsSchema, [{ path: '/a' }, { path: '/b' }, { path: '/c', method: 'GET' }],
      plain('rest_not_in_enum', 'requests[2][method] is not one of POST, PUT, PATCH, and DELETE.'), 'requests');
    rejects(requestsSchema, [{ path: '/a', headers: { 'x-one': { a: 'b' } } }], typeIssue('requests[0][headers][x-one]', 'string,array'), 'requests');
  });

  it('uses patternProperties for undeclared names, then additionalProperties', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'integer' } },
      patternProperties: { '^x_\\d$': { type: 'integer' } },
      additionalProperties: false,
    };
    accepts(schema, [{ a: '1', x_1: '5' }]);
    rejects(schema, { x_2: 'a' }, typeIssue('p[x_2]', 'integer'));
    rejects(schema, { a: '1', other: 'z' }, plain('rest_additional_properties_forbidden', 'other is not a valid property of Object.'));
    rejects({ type: 'object', additionalProperties: { type: 'integer' } }, { n: 'x' }, typeIssue('p[n]', 'integer'));
    accepts({ type: 'object', additionalProperties: true }, [{ anything: [1] }]);
  });

  it('reports the first failing property in the value\'s own order', () => {
    const schema: JsonSchema = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } };
    rejects(schema, { b: 'x', a: 'y' }, typeIssue('p[b]', 'integer'));
  });

  it('counts properties', () => {
    rejects({ type: 'object', minProperties: 1 }, '', plain('rest_too_few_properties', 'p must contain at least 1 property.'));
    rejects({ type: 'object', minProperties: 2 }, { a: 1 }, plain('rest_too_few_properties', 'p must contain at least 2 properties.'));
    rejects({ type: 'object', maxProperties: 1 }, { a: 1, b: 2 }, plain('rest_too_many_properties', 'p must contain at most 1 property.'));
    rejects({ type: 'object', maxProperties: 0 }, ['x'], plain('rest_too_many_properties', 'p must contain at most 0 properties.'));
  });

  it('does not confuse property names with inherited object members', () => {
    const schema: JsonSchema = { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false };
    rejects(schema, { constructor: 'x' }, plain('rest_additional_properties_forbidden', 'constructor is not a valid property of Object.'));
  });
});

describe('validateValue: enum', () => {
  it('joins the allowed values in English', () => {
    const context: JsonSchema = { type: 'string', enum: ['view', 'embed', 'edit'] };
    rejects(context, 'edit2', plain('rest_not_in_enum', 'context is not one of view, embed, and edit.'), 'context');
    rejects({ type: 'string', enum: ['AND', 'OR'] }, 'and', plain('rest_not_in_enum', 'tax_relation is not one of AND and OR.'), 'tax_relation');
    rejects({ type: 'string', enum: ['only'] }, 'x', plain('rest_not_in_enum', 'en1 is not only.'), 'en1');
  });

  it('compares the sanitised value', () => {
    accepts({ type: 'integer', enum: [1, 2, 3] }, ['1', '1.0', '1e0', 2]);
    accepts({ type: 'boolean', enum: [true] }, ['true', '1', 'TRUE']);
    accepts({ type: 'array', items: { type: 'integer' }, enum: [[1, 2]] }, ['1,2', ['1', '2']]);
    rejects({ type: 'array', items: { type: 'integer' }, enum: [[1, 2], [3]] }, '2,1', plain('rest_not_in_enum', 'p is not one of [1,2] and [3].'));
  });

  it('ignores key order of maps', () => {
    accepts({ type: 'object', enum: [{ a: 1, b: 2 }] }, [{ b: 2, a: 1 }]);
    rejects({ type: 'object', enum: [{ a: 1, b: 2 }] }, { a: '1', b: '2' }, plain('rest_not_in_enum', 'p is not {"a":1,"b":2}.'));
  });

  it('prints scalars as PHP does and encodes the rest as JSON', () => {
    rejects({ type: 'string', enum: ['a', null, true, false, 2.5, [1], { k: 'v/w' }] }, 'zz',
      plain('rest_not_in_enum', 'p is not one of a, null, 1, , 2.5, [1], and {"k":"v\\/w"}.'));
  });
});

describe('validateValue: formats', () => {
  const date = plain('rest_invalid_date', 'Invalid date.');
  it('date-time needs the RFC 3339 shape and a parsable date', () => {
    accepts({ type: 'string', format: 'date-time' }, [
      '2020-01-01T10:00:00', '2020-01-01T10:00:00Z', '2020-01-01t10:00:00+05:30', '2020-01-01 10:00:00',
      '2020-01-01T10:00:00.5-03', '2020-02-30T10:00:00', '2020-01-01T24:00:00', '2020-01-01T10:00:00+25',
    ]);
    for (const value of ['2020-01-01', '2020-13-45T99:99:99', '2020-01-32T10:00:00', '2020-01-01T10:60:00',
      '2020-01-01T10:00:00+25:00', '2020-01-01T10:00:00+05:60', ' 2020-01-01T10:00:00', 'abc', '']) {
      rejects({ type: 'string', format: 'date-time' }, value, date);
    }
  });

  it('date-time rejects the Unix epoch itself, as the reference does', () => {
    rejects({ type: 'string', format: 'date-time' }, '1970-01-01T00:00:00', date);
    rejects({ type: 'string', format: 'date-time' }, '1970-01-01T01:00:00+01:00', date);
    accepts({ type: 'string', format: 'date-time' }, ['1970-01-01T00:00:01', '1969-12-31T23:59:59Z']);
  });

  it('email follows is_email', () => {
    accepts({ type: 'string', format: 'email' }, ['a@b.co', 'a+tag@ex-ample.com', "'*+/=?^_`{|}~@ab.cd"]);
    for (const value of ['a@b.c', 'abc', '@abc.com', 'a@b..com', 'a@.b.com', 'a@b.com.', 'a@-b.com', 'a@b_c.com', 'ä@b.com', 'x@y']) {
      rejects({ type: 'string', format: 'email' }, value, plain('rest_invalid_email', 'Invalid email address.'));
    }
  });

  it('ip takes IPv4 and IPv6', () => {
    accepts({ type: 'string', format: 'ip' }, ['1.2.3.4', '::', '::1', '2001:db8::1', '::ffff:1.2.3.4', '1:2:3:4:5:6:7:8']);
    for (const value of ['256.1.1.1', '1.2.3', '2001:db8::2::1', '12345::', 'g::1', '::1.2.3.04']) {
      rejects({ type: 'string', format: 'ip' }, value, plain('rest_invalid_ip', 'p is not a valid IP address.'));
    }
  });

  it('uuid is lower-case only', () => {
    accepts({ type: 'string', format: 'uuid' }, ['123e4567-e89b-12d3-a456-426614174000']);
    rejects({ type: 'string', format: 'uuid' }, '123E4567-E89B-12D3-A456-426614174000', plain('rest_invalid_uuid', 'p is not a valid UUID.'));
  });

  it('hex-color needs # and 3 or 6 digits', () => {
    accepts({ type: 'string', format: 'hex-color' }, ['#fff', '#FFFFFF']);
    for (const value of ['fff', '#ffff', '#ggg', '']) {
      rejects({ type: 'string', format: 'hex-color' }, value, plain('rest_invalid_hex_color', 'Invalid hex color.'));
    }
  });

  it('does not validate uri, text-field, textarea-field or unknown formats', () => {
    for (const format of ['uri', 'text-field', 'textarea-field', 'made-up']) accepts({ type: 'string', format }, ['not a uri <b>']);
  });

  it('checks formats only for strings, missing or unknown types', () => {
    accepts({ type: 'integer', format: 'email' }, ['5']);
    rejects({ format: 'email' }, 5, plain('rest_invalid_email', 'Invalid email address.'));
    rejects({ format: 'uuid' }, 5, plain('rest_invalid_uuid', 'p is not a valid UUID.'));
  });
});

describe('validateValue: anyOf and oneOf', () => {
  it('explains a taxonomy query with an unknown key (verified example)', () => {
    rejects(categoriesSchema, { foo: '1' }, {
      code: 'rest_no_matching_schema',
      message: 'categories is not a valid Term ID Taxonomy Query. Reason: foo is not a valid property of Object.',
      data: { position: 1 },
    }, 'categories');
  });

  it('keeps nested type errors as reasons (verified example)', () => {
    rejects(categoriesSchema, { terms: 'x' }, {
      code: 'rest_no_matching_schema',
      message: 'categories is not a valid Term ID Taxonomy Query. Reason: categories[terms][0] is not of type integer.',
      data: { position: 1 },
    }, 'categories');
    rejects(categoriesSchema, '1,x', {
      code: 'rest_no_matching_schema',
      message: 'categories is not a valid Term ID List. Reason: categories[1] is not of type integer.',
      data: { position: 0 },
    }, 'categories');
  });

  it('accepts either branch', () => {
    accepts(categoriesSchema, ['1,2', ['3'], { terms: '1,2', operator: 'AND' }, { include_children: 'true' }], 'categories');
  });

  it('finds an empty list matching both the list and the query branch', () => {
    rejects(categoriesSchema, [], {
      code: 'rest_one_of_multiple_matches',
      message: 'categories matches Term ID List and Term ID Taxonomy Query, but should match only one.',
      data: { positions: [0, 1] },
    }, 'categories');
  });

  it('uses the untitled single-failure wording', () => {
    rejects({ anyOf: [{ type: 'integer', minimum: 5 }] }, 3, {
      code: 'rest_no_matching_schema',
      message: 'p does not match the expected format. Reason: p must be greater than or equal to 5',
      data: { position: 0 },
    });
  });

  it('lists titles when every branch has one and several failures remain', () => {
    const schema: JsonSchema = {
      anyOf: [
        { title: 'A', type: 'string', minLength: 3 },
        { title: 'B', type: 'string', pattern: '^x' },
        { title: 'C', type: 'string', maxLength: 1 },
      ],
    };
    rejects(schema, 'ab', plain('rest_no_matching_schema', 'p is not a valid A, B, and C.'));
    const untitled: JsonSchema = { anyOf: [{ type: 'string', minLength: 3 }, { type: 'string', pattern: '^x' }] };
    rejects(untitled, 'ab', plain('rest_no_matching_schema', 'p does not match any of the expected formats.'));
  });

  it('picks the object branch sharing most property names', () => {
    const schema: JsonSchema = {
      type: 'object',
      oneOf: [
        { title: 'One', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, additionalProperties: false },
        { title: 'Two', properties: { c: { type: 'integer' } }, additionalProperties: false },
      ],
    };
    rejects(schema, { a: '1', c: '2' }, {
      code: 'rest_no_matching_schema',
      message: 'p is not a valid One. Reason: c is not a valid property of Object.',
      data: { position: 0 },
    });
    rejects(schema, { x: '1', y: '2' }, plain('rest_no_matching_schema', 'p is not a valid One and Two.'));
  });

  it('rejects several oneOf matches, naming titles only when all matches have one', () => {
    rejects({ oneOf: [{ title: 'Int', type: 'integer' }, { title: 'Num', type: 'number' }] }, '1', {
      code: 'rest_one_of_multiple_matches',
      message: 'p matches Int and Num, but should match only one.',
      data: { positions: [0, 1] },
    });
    rejects({ oneOf: [{ title: 'Int', type: 'integer' }, { type: 'number' }] }, 1, {
      code: 'rest_one_of_multiple_matches',
      message: 'p matches more than one of the expected formats.',
      data: { positions: [0, 1] },
    });
    accepts({ oneOf: [{ type: 'integer' }, { type: 'number' }] }, ['1.5']);
  });

  it('lets branches without a type inherit the parent type', () => {
    const schema: JsonSchema = { type: 'string', anyOf: [{ minLength: 5 }, { pattern: '^x' }] };
    accepts(schema, ['hello', 'xy']);
    rejects(schema, 5, plain('rest_no_matching_schema', 'p does not match any of the expected formats.'));
  });

  it('adopts the matched branch type when the parent has none', () => {
    const schema: JsonSchema = { anyOf: [{ type: 'integer' }, { type: 'string' }], enum: [1, 'a'] };
    accepts(schema, ['1', 'a']);
    rejects(schema, '2', plain('rest_not_in_enum', 'p is not one of 1 and a.'));
  });
});
