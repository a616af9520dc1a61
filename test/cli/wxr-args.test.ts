import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../../src/cli/args.js';

describe('quire import and quire export arguments', () => {
  it('take the store options of serve, the site address, and their own options', () => {
    assert.deepEqual(parseCliArgs(['import', 'site.xml', '--data', 'x.db', '--fetch-attachments', '--author-role', 'author', '--site-url', 'https://example.com/']), {
      command: 'import', file: 'site.xml', fetchAttachments: true, authorRole: 'author', siteUrl: 'https://example.com', uploadsUrl: undefined,
      store: { kind: 'sqlite', path: 'x.db' }, uploads: { kind: 'folder', path: 'uploads' },
    });
    assert.deepEqual(parseCliArgs(['export', '--postgres', 'postgres://u:p@db/site', '-o', 'out.xml']), {
      command: 'export', output: 'out.xml', siteUrl: undefined, uploadsUrl: undefined,
      store: { kind: 'postgres', url: 'postgres://u:p@db/site' }, uploads: { kind: 'folder', path: './uploads' },
    });
    const memory = parseCliArgs(['import', 'site.xml', '--storage', 'memory']);
    assert.ok(memory.command === 'import' && memory.store.kind === 'memory' && !memory.fetchAttachments && memory.authorRole === undefined);
  });

  it('refuse what does not belong to them', () => {
    const cases: [string[], RegExp][] = [
      [['import'], /missing the WXR file to import/],
      [['import', 'a.xml', 'b.xml'], /unexpected argument 'b\.xml'/],
      [['export', 'out.xml'], /unexpected argument 'out\.xml' \(use --output to name a file\)/],
      [['export', '--fetch-attachments'], /--fetch-attachments is not an option of 'quire export'/],
      [['import', 'a.xml', '--output', 'x'], /--output is not an option of 'quire import'/],
      [['serve', '--fetch-attachments'], /--fetch-attachments is not an option of 'quire serve'/],
      [['import', 'a.xml', '--site-url', 'example.com'], /--site-url must be an http\(s\) URL/],
      [['import', 'a.xml', '--author-role', 'a b'], /--author-role must be a role slug/],
    ];
    for (const [args, message] of cases) assert.throws(() => parseCliArgs(args), (error: unknown) => error instanceof UsageError && message.test(error.message), args.join(' '));
  });
});
