import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../../src/cli/args.js';

const cacheOf = (...args: string[]) => {
  const command = parseCliArgs(['serve', '--storage', 'memory', ...args]);
  assert.equal(command.command, 'serve');
  return command.command === 'serve' ? command.responseCacheMiB : null;
};

describe('quire serve --response-cache', () => {
  it('takes a size in MiB, or off; absent leaves the default', () => {
    assert.equal(cacheOf(), undefined);
    assert.equal(cacheOf('--response-cache', '64'), 64);
    assert.equal(cacheOf('--response-cache', '1'), 1);
    assert.equal(cacheOf('--response-cache', 'off'), false);
  });

  it('refuses anything else with a usage error', () => {
    for (const value of ['0', '-1', '1.5', '65537', '12MB', 'none', '']) {
      assert.throws(() => parseCliArgs(['serve', '--response-cache', value]), UsageError, value);
    }
  });

  it('is an option of serve only', () => {
    assert.throws(() => parseCliArgs(['export', '--response-cache', '8']), /--response-cache is not an option of 'quire export'/);
  });
});
