import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../../src/cli/args.js';
import { USAGE } from '../../src/cli/usage.js';

const secretOf = (argv: string[], environment: NodeJS.ProcessEnv = {}) => {
  const command = parseCliArgs(['serve', ...argv], environment);
  assert.equal(command.command, 'serve');
  return (command as Extract<typeof command, { command: 'serve' }>).secret;
};

describe('quire serve --secret', () => {
  it('takes the site secret from the flag, else from QUIRE_SECRET, else leaves it to the store', () => {
    assert.equal(secretOf(['--secret', 'sixteen chars ok']), 'sixteen chars ok');
    assert.equal(secretOf([], { QUIRE_SECRET: 'from the environment' }), 'from the environment');
    assert.equal(secretOf(['--secret', 'the flag wins here'], { QUIRE_SECRET: 'from the environment' }), 'the flag wins here');
    assert.equal(secretOf([], { QUIRE_SECRET: '' }), undefined);
    assert.equal(secretOf([]), undefined);
  });

  it('refuses a short secret, and --secret on import and export', () => {
    assert.throws(() => secretOf(['--secret', 'fifteen chars!!']), (error: unknown) =>
      error instanceof UsageError && error.message === '--secret needs at least 16 characters');
    assert.throws(() => secretOf([], { QUIRE_SECRET: 'short' }), UsageError);
    assert.throws(() => parseCliArgs(['export', '--secret', 'sixteen chars ok']), UsageError);
  });

  it('is in the help', () => {
    assert.match(USAGE, /--secret <text> {4}the site secret/);
    assert.match(USAGE, /QUIRE_SECRET/);
  });
});
