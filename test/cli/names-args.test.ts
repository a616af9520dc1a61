import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../../src/cli/args.js';

const serve = (...flags: string[]) => {
  const command = parseCliArgs(['serve', ...flags]);
  assert.equal(command.command, 'serve');
  return command as Extract<typeof command, { command: 'serve' }>;
};

describe('quire serve --names', () => {
  it('serves the neutral names below /cms-json by default', () => {
    const command = serve();
    assert.equal(command.names, 'neutral');
    assert.equal(command.apiRoot, '/cms-json');
  });

  it('serves the reference names below /wp-json with --names wordpress, unless --api-root says otherwise', () => {
    assert.deepEqual([serve('--names', 'wordpress').names, serve('--names', 'wordpress').apiRoot], ['wordpress', '/wp-json']);
    assert.equal(serve('--names', 'wordpress', '--api-root', '/api').apiRoot, '/api');
    assert.equal(serve('--names', 'neutral').apiRoot, '/cms-json');
  });

  it('refuses other schemes with a usage error', () => {
    assert.throws(() => parseCliArgs(['serve', '--names', 'drupal']), (error: unknown) =>
      error instanceof UsageError && error.message === "--names must be neutral or wordpress, not 'drupal'");
  });
});
