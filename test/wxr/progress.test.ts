import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProgressReporter, type WxrProgress } from '../../src/wxr/index.js';

function progress(items: number, bytes: number, phase: WxrProgress['phase'] = 'reading'): WxrProgress {
  return { phase, bytes, items, authors: 2, terms: 5, comments: items * 2, files: 0 };
}

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, columns: 200, write: (text: string) => written.push(text) } };
}

describe('the import progress display', () => {
  test('writes a plain line now and then when not on a terminal, and at each phase', () => {
    let now = 0;
    const { written, stream } = fakeStream(false);
    const reporter = createProgressReporter({ stream, totalBytes: 4_000_000, now: () => now, intervalMs: 2000 });
    reporter.update(progress(1, 1000));
    now = 500;
    reporter.update(progress(200, 100_000));
    now = 2500;
    reporter.update(progress(1000, 2_097_152));
    now = 3000;
    reporter.update(progress(1500, 4_000_000, 'linking'));
    reporter.update(progress(1500, 4_000_000, 'done'));
    reporter.finish();
    assert.deepEqual(written, [
      'import: 1 items (1/s), 2 authors, 5 terms, 2 comments, 0 files, 0.0 MB read\n',
      'import: 1000 items (400/s), 2 authors, 5 terms, 2000 comments, 0 files, 2.0 MB read\n',
      'import: 1500 items (500/s), 2 authors, 5 terms, 3000 comments, 0 files, 3.8 MB read [linking]\n',
      'import: 1500 items (500/s), 2 authors, 5 terms, 3000 comments, 0 files, 3.8 MB read [done]\n',
    ]);
  });

  test('redraws one line with a bar on a terminal, and ends it when done', () => {
    let now = 0;
    const { written, stream } = fakeStream(true);
    const reporter = createProgressReporter({ stream, totalBytes: 1000, now: () => now, label: 'quire import' });
    reporter.update(progress(10, 500));
    now = 50;
    reporter.update(progress(20, 600));
    now = 1000;
    reporter.update(progress(40, 1000));
    reporter.finish();
    assert.equal(written.length, 4);
    assert.equal(written[0], '\r\x1b[Kquire import [############------------] 50% 10 items (10/s), 2 authors, 5 terms, 20 comments, 0 files, 0.0 MB read');
    assert.match(written[1]!, /^\r\x1b\[Kquire import \[#{24}\] 100% 40 items \(40\/s\)/);
    assert.match(written[2]!, /^\r\x1b\[K.* 100% 40 items/);
    assert.equal(written[3], '\n');
  });
});
