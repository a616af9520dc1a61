import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../../src/cli/args.js';
import { USAGE } from '../../src/cli/usage.js';

const SECRET = { QUIRE_WEBHOOK_SECRET: 'sixteen chars ok' };
const webhooksOf = (argv: string[], environment: NodeJS.ProcessEnv = {}) => {
  const command = parseCliArgs(['serve', ...argv], environment);
  assert.equal(command.command, 'serve');
  return (command as Extract<typeof command, { command: 'serve' }>).webhooks;
};

describe('quire serve --webhook', () => {
  it('takes repeated URLs, loopback included, with the secret from QUIRE_WEBHOOK_SECRET', () => {
    assert.deepEqual(webhooksOf(['--webhook', 'http://127.0.0.1:9000/a', '--webhook', 'https://hooks.example.com/b'], SECRET), {
      targets: ['http://127.0.0.1:9000/a', 'https://hooks.example.com/b'], secret: 'sixteen chars ok', retryBaseMs: undefined, timeoutMs: undefined,
    });
    assert.equal(webhooksOf([]), undefined);
    assert.deepEqual(webhooksOf([], { QUIRE_WEBHOOK_RETRY_MS: '250', QUIRE_WEBHOOK_TIMEOUT_MS: '2000' }), { targets: [], secret: '', retryBaseMs: 250, timeoutMs: 2000 });
  });

  it('refuses a bad URL, a missing or short secret, and bad delays', () => {
    assert.throws(() => webhooksOf(['--webhook', 'not a url'], SECRET), (error: unknown) =>
      error instanceof UsageError && error.message === "--webhook must be an http or https URL, not 'not a url'");
    assert.throws(() => webhooksOf(['--webhook', 'ftp://example.com/x'], SECRET), UsageError);
    assert.throws(() => webhooksOf(['--webhook', 'http://127.0.0.1:9000/a']), /QUIRE_WEBHOOK_SECRET/);
    assert.throws(() => webhooksOf(['--webhook', 'http://127.0.0.1:9000/a'], { QUIRE_WEBHOOK_SECRET: 'short' }), UsageError);
    assert.throws(() => webhooksOf([], { QUIRE_WEBHOOK_RETRY_MS: '-1' }), UsageError);
    assert.throws(() => webhooksOf([], { QUIRE_WEBHOOK_TIMEOUT_MS: '0' }), UsageError);
    assert.throws(() => parseCliArgs(['export', '--webhook', 'http://127.0.0.1/x']), UsageError);
  });

  it('is in the help', () => {
    assert.match(USAGE, /--webhook <url> {4}send every event/);
    assert.match(USAGE, /QUIRE_WEBHOOK_SECRET/);
  });
});
