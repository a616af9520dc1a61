import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseCliArgs } from '../../src/cli/args.js';
import { USAGE } from '../../src/cli/usage.js';
import { run } from './helpers.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('quire --version', () => {
  test('prints the package\'s version and exits 0, with or without a command', async () => {
    for (const args of [['--version'], ['-v'], ['serve', '--version']]) {
      const exit = await run(args).finished;
      assert.equal(exit.code, 0, exit.stderr);
      assert.equal(exit.stdout, `${version}\n`);
      assert.equal(exit.stderr, '');
    }
  });

  test('is in the usage', () => {
    assert.deepEqual(parseCliArgs(['--version']), { command: 'version' });
    assert.match(USAGE, /^ {2}-v, --version +print quire's version$/m);
  });
});
