import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { args, compileArg, type ArgCheckContext } from '../../src/core/args/define.js';
import { CmsError } from '../../src/core/errors.js';
import { validateValues } from '../../src/core/params.js';

/** An in-process API's input goes through the engine a JSON body goes through. */
describe('validateValues', () => {
  const declared = {
    args: new Map(Object.entries({
      name: args.string({ minLength: 1 }, { required: true }),
      count: args.integer({ minimum: 1 }),
      order: args.string({ enum: ['asc', 'desc'], default: 'desc' }),
      tags: args.array({ type: 'string' }),
    }).map(([name, spec]) => [name, compileArg(name, spec)])),
  };
  const context: ArgCheckContext = { user: null, method: 'POST', param: () => undefined };

  it('answers the sanitised values of the declared arguments, with their defaults', () => {
    const values = validateValues({ name: 'a', count: '5', tags: 'x,y', extra: 'dropped' }, declared, context);
    assert.deepEqual({ ...values }, { name: 'a', count: 5, order: 'desc', tags: ['x', 'y'] });
  });

  it('fails as a request does: missing arguments first, then every invalid one at once', () => {
    assert.throws(() => validateValues({ count: 2 }, declared, context), (error: unknown) => {
      assert.ok(error instanceof CmsError);
      assert.equal(error.code, 'rest_missing_callback_param');
      assert.deepEqual(error.extra.params, ['name']);
      return true;
    });
    assert.throws(() => validateValues({ name: 'a', count: 0, order: 'up' }, declared, context), (error: unknown) => {
      assert.ok(error instanceof CmsError);
      assert.equal(error.code, 'rest_invalid_param');
      assert.equal(error.status, 400);
      assert.deepEqual(Object.keys(error.extra.params as object).sort(), ['count', 'order']);
      assert.equal((error.extra.params as Record<string, string>).count, 'count must be greater than or equal to 1');
      return true;
    });
  });
});
