import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseCliArgs, UsageError } from '../../src/cli/args.js';

describe('quire serve --smtp', () => {
  it('takes an smtp:// or smtps:// address for form mail', () => {
    const command = parseCliArgs(['serve', '--storage', 'memory', '--smtp', 'smtp://user:pass@mail.example.test:587']);
    assert.equal(command.command === 'serve' && command.smtp, 'smtp://user:pass@mail.example.test:587');
    const secure = parseCliArgs(['serve', '--storage', 'memory', '--smtp', 'smtps://mail.example.test']);
    assert.equal(secure.command === 'serve' && secure.smtp, 'smtps://mail.example.test');
    const none = parseCliArgs(['serve', '--storage', 'memory']);
    assert.equal(none.command === 'serve' && none.smtp, undefined);
  });

  it('refuses anything else with a usage error', () => {
    for (const value of ['http://mail.example.test', 'mail.example.test', 'smtp://']) {
      assert.throws(() => parseCliArgs(['serve', '--smtp', value]), UsageError, value);
    }
  });
});
