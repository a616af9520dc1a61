import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseCliArgs } from '../../src/cli/args.js';
import { restartDelayMs } from '../../src/cli/workers.js';
import { run, serve } from './helpers.js';
import { exerciseTwoWorkers } from './workers.js';

/** `quire serve --workers N`: several processes on one port over one SQLite file. */
let folder: string;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'quire-workers-'));
});

after(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('quire serve --workers', () => {
  test('counts: a whole number, or auto for one per core; absent is one process', () => {
    const workersOf = (args: string[]) => {
      const command = parseCliArgs(['serve', ...args]);
      assert.equal(command.command, 'serve');
      return command.command === 'serve' ? command.workers : 0;
    };
    assert.equal(workersOf([]), 1);
    assert.equal(workersOf(['--workers', '3']), 3);
    assert.equal(workersOf(['--workers', 'auto']), availableParallelism());
    assert.equal(workersOf(['--workers', '1', '--storage', 'memory']), 1);
    assert.equal(workersOf(['--workers', '2', '--postgres', 'postgres://u@localhost/db']), 2);
  });

  test('a replacement waits 250 ms, doubling while workers die young, up to 30 s', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 8, 9, 40].map(restartDelayMs), [250, 250, 500, 1000, 2000, 30_000, 30_000, 30_000]);
  });

  test('a count that is not one, and memory storage with several, are refused with one line', async () => {
    for (const value of ['0', 'abc', '-1', '1.5', '257', '']) {
      const refused = await run(['serve', '--port', '0', '--data', join(folder, 'never.db'), `--workers=${value}`]).finished;
      assert.equal(refused.code, 2, value);
      assert.match(refused.stderr, /^quire: --workers must be a whole number from 1 to 256, or auto, not '.*'\n/, value);
      assert.equal(refused.stdout, '');
    }
    const help = await run(['--help']).finished;
    assert.match(help.stdout, /--workers <n\|auto>/);
    const memory = await run(['serve', '--port', '0', '--storage', 'memory', '--workers', '2']).finished;
    assert.equal(memory.code, 2);
    assert.match(memory.stderr, /--workers above 1 needs a store every process shares .*memory is not shared/);
  });

  test('two workers on one SQLite file: one password, writes seen everywhere, shared throttles, replaced workers, one SIGTERM ends all', async () => {
    await exerciseTwoWorkers(['--data', join(folder, 'site.db')]);
  });

  test('--import runs once, in one worker, before the listening line', async () => {
    const file = join(folder, 'import.json');
    await writeFile(file, JSON.stringify({ sliders: [], signupForms: [] }));
    const started = await serve(['--data', join(folder, 'import.db'), '--workers', '2', '--import', file]);
    started.child.kill('SIGTERM');
    const finished = await started.finished;
    assert.equal(finished.code, 0, finished.stderr);
    assert.equal([...finished.stdout.matchAll(/^quire import: 0 sliders created, 0 updated; 0 sign-up forms created, 0 updated$/gm)].length, 1, finished.stdout);
    assert.ok(finished.stdout.indexOf('quire import:') < finished.stdout.indexOf('quire listening:'));
  });

  test('a port already taken stops every worker and the start with status 1', async () => {
    const first = await serve(['--data', join(folder, 'taken.db'), '--workers', '2']);
    try {
      const port = new URL(first.apiUrl).port;
      const second = await run(['serve', '--port', port, '--data', join(folder, 'other.db'), '--workers', '2']).finished;
      assert.equal(second.code, 1);
      assert.match(second.stderr, new RegExp(`quire: port ${port} on 127.0.0.1 is already in use`));
      assert.doesNotMatch(second.stdout, /quire listening/);
    } finally {
      first.child.kill('SIGTERM');
      assert.equal((await first.finished).code, 0);
    }
  });
});
