import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseCliArgs, UsageError } from '../../src/cli/args.js';
import { USAGE } from '../../src/cli/usage.js';

const trustOf = (...argv: string[]) => {
  const command = parseCliArgs(['serve', ...argv]);
  assert.equal(command.command, 'serve');
  return command.command === 'serve' ? command.trustProxy : undefined;
};

describe('quire serve --trust-proxy', () => {
  it('is off by default, and takes a hop count or proxy addresses and ranges', () => {
    assert.equal(trustOf(), undefined);
    assert.equal(trustOf('--trust-proxy', '1'), 1);
    assert.equal(trustOf('--trust-proxy', '10.0.0.0/8,loopback'), '10.0.0.0/8,loopback');
    assert.equal(trustOf('--trust-proxy', '::1'), '::1');
  });

  it('refuses values that name no proxy, with one line', () => {
    for (const value of ['', ',', '-1', '1.5', 'proxy.example', '10.0.0.0/40', 'yes']) {
      assert.throws(() => parseCliArgs(['serve', `--trust-proxy=${value}`]), (error: unknown) => {
        assert.ok(error instanceof UsageError, value);
        assert.match(error.message, /^--trust-proxy must be a hop count or proxy addresses and ranges/);
        return true;
      });
    }
  });

  it('is in the help, and only for serve', () => {
    assert.match(USAGE, /--trust-proxy <hops\|addresses>/);
    assert.throws(() => parseCliArgs(['export', '--trust-proxy', '1']), UsageError);
  });
});
