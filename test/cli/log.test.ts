import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createLogger, logError, logRequest } from '../../src/cli/log.js';

const entry = {
  time: Date.now(), method: 'GET', path: '/cms-json/cms/v2/posts', status: 200, bytes: 42, durationMs: 1.5, clientAddress: '127.0.0.1', userId: 7,
};

function capture() {
  const lines: string[] = [];
  return { lines, write: (text: string) => lines.push(text) };
}

describe('the server log', () => {
  test('JSON: one line per request at info (warn for 5xx), unexpected errors once with their stack', () => {
    const out = capture();
    const logger = createLogger({ format: 'json', level: 'info' }, out);
    logRequest(logger, entry);
    logRequest(logger, { ...entry, status: 503 });
    logRequest(logger, entry, true);
    logError(logger, new TypeError('boom'));
    assert.equal(out.lines.length, 3, 'the health check is below info');
    const [ok, failed, error] = out.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual({ ...ok, time: undefined, pid: undefined }, {
      level: 30, time: undefined, pid: undefined, method: 'GET', path: '/cms-json/cms/v2/posts', status: 200, bytes: 42, durationMs: 1.5,
      clientAddress: '127.0.0.1', userId: 7, msg: 'request',
    });
    assert.match(String(ok!.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(failed!.level, 40);
    assert.equal(error!.level, 50);
    assert.match((error!.err as { stack: string }).stack, /^TypeError: boom\n\s+at /);
  });

  test('JSON: a request line is the line pino writes for the same fields, byte for byte but the time', () => {
    const out = capture();
    const logger = createLogger({ format: 'json', level: 'debug' }, out);
    const entries = [
      entry,
      { ...entry, path: '/cms-json/cms/v2/posts?search=%22a%22&x="quoted"\\\u0001é😀', clientAddress: null, userId: null, durationMs: 0.125 },
      { ...entry, method: 'PATCH', status: 500, bytes: 0 },
    ];
    for (const [index, logged] of entries.entries()) {
      logRequest(logger, logged, index === 0);
      const { time: _time, ...fields } = logged;
      logger[index === 0 ? 'debug' : logged.status >= 500 ? 'warn' : 'info'](fields, 'request');
    }
    const untimed = (line: string) => line.replace(/"time":"[^"]+"/, '"time":""');
    for (let index = 0; index < out.lines.length; index += 2) {
      assert.equal(untimed(out.lines[index]!), untimed(out.lines[index + 1]!));
      assert.match(out.lines[index]!, /"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/);
    }
    assert.equal(out.lines.length, 6);
  });

  test('a file is written in batches, in order, and whatever is left when the process exits', () => {
    const directory = mkdtempSync(join(tmpdir(), 'quire-log-'));
    try {
      const file = join(directory, 'server.log');
      const script = `
        const { batchedDestination, createLogger, logError, logRequest } = await import(${JSON.stringify(new URL('../../src/cli/log.ts', import.meta.url).href)});
        const destination = batchedDestination(${JSON.stringify(file)});
        const logger = createLogger({ format: 'json', level: 'info' }, destination);
        const entry = ${JSON.stringify(entry)};
        // Once the file is open, lines are logged and the process exits at once: the last batch is written on exit.
        destination.destination.once('ready', () => {
          for (let index = 0; index < 100; index += 1) logRequest(logger, { ...entry, bytes: index });
          logError(logger, new Error('in between'));
          for (let index = 100; index < 103; index += 1) logRequest(logger, { ...entry, bytes: index });
          process.exit(0);
        });`;
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.deepEqual(lines.map((line) => line.bytes ?? line.msg), [...Array.from({ length: 100 }, (_, index) => index), 'unexpected error', 100, 101, 102]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test('pretty: readable lines, and the stack of an error under its message', () => {
    const out = capture();
    const logger = createLogger({ format: 'pretty', level: 'warn' }, out);
    logRequest(logger, entry);
    logRequest(logger, { ...entry, status: 500, userId: null, clientAddress: null });
    logError(logger, 'not an Error');
    assert.equal(out.lines.length, 2);
    assert.match(out.lines[0]!, /^\S+Z WARN  GET \/cms-json\/cms\/v2\/posts 500 42B 1\.5ms - -\n$/);
    assert.match(out.lines[1]!, /^\S+Z ERROR unexpected error\nError: not an Error\n\s+at /);
  });
});
