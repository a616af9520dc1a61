import assert from 'node:assert/strict';
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
