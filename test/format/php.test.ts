import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isEmpty } from '../../src/format/php.js';

describe("PHP's empty()", () => {
  it('holds for absent, null, false, 0, "", "0" and empty lists and maps', () => {
    for (const value of [undefined, null, false, 0, -0, '', '0', [], {}, Object.create(null)]) {
      assert.equal(isEmpty(value), true, JSON.stringify(value));
    }
  });

  it('does not hold for anything else, "0.0", " " and "false" included', () => {
    for (const value of [true, 1, -1, 0.5, Number.NaN, '0.0', ' ', 'false', '00', [0], [''], { a: '' }]) {
      assert.equal(isEmpty(value), false, JSON.stringify(value));
    }
  });
});
