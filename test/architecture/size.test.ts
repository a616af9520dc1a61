import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sourceFiles } from './graph.js';

/** Small files with one job. */
const MAX_SOURCE_LINES = 400;
/** Adapters only convert a request and a response. */
const MAX_ADAPTER_LINES = 80;

describe('file sizes', () => {
  it(`no source file is over ${MAX_SOURCE_LINES} lines`, () => {
    const long = [...sourceFiles().values()].filter((file) => file.lines > MAX_SOURCE_LINES).map((file) => `${file.path}: ${file.lines}`);
    assert.deepEqual(long, [], 'split these by job');
  });

  it(`each adapter is at most ${MAX_ADAPTER_LINES} lines`, () => {
    const adapters = [...sourceFiles().values()].filter((file) => file.path.startsWith('adapters/'));
    assert.ok(adapters.length >= 4, 'the adapters are found');
    assert.deepEqual(adapters.filter((file) => file.lines > MAX_ADAPTER_LINES).map((file) => `${file.path}: ${file.lines}`), []);
  });
});
