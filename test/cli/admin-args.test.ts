import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../../src/cli/args.js';
import { USAGE } from '../../src/cli/usage.js';
import { serve as start } from './helpers.js';

const serve = (...flags: string[]) => {
  const command = parseCliArgs(['serve', ...flags]);
  assert.equal(command.command, 'serve');
  return command as Extract<typeof command, { command: 'serve' }>;
};

const refused = (flags: string[], message: string) => assert.throws(() => parseCliArgs(['serve', ...flags]), (error: unknown) =>
  error instanceof UsageError && error.message === message);

describe('quire serve --admin-path, --no-admin', () => {
  it('serves the authoring app at /admin by default, elsewhere with --admin-path, nowhere with --no-admin', () => {
    assert.equal(serve().adminPath, '/admin');
    assert.equal(serve('--admin-path', '/studio/').adminPath, '/studio');
    assert.equal(serve('--admin-path', '/a/b').adminPath, '/a/b');
    assert.equal(serve('--no-admin').adminPath, null);
    assert.equal(serve('--api-root', '/').adminPath, '/admin', 'the app is answered before an API at the site root');
    assert.match(USAGE, /--admin-path <path>/);
    assert.match(USAGE, /--no-admin/);
  });

  it('refuses paths that are no paths, or that overlap the API and the uploads', () => {
    refused(['--admin-path', 'admin'], "--admin-path must be a path such as /admin (letters, digits, . _ ~ - and /), not 'admin'");
    refused(['--admin-path', '/'], "--admin-path must be a path such as /admin (letters, digits, . _ ~ - and /), not '/'");
    refused(['--admin-path', '/a/../b'], "--admin-path must be a path such as /admin (letters, digits, . _ ~ - and /), not '/a/../b'");
    refused(['--admin-path', '/cms-json'], '--admin-path /cms-json overlaps /cms-json');
    refused(['--admin-path', '/cms-json/admin'], '--admin-path /cms-json/admin overlaps /cms-json');
    refused(['--admin-path', '/uploads'], '--admin-path /uploads overlaps /uploads');
    refused(['--no-admin', '--admin-path', '/admin'], '--admin-path cannot be combined with --no-admin');
  });

  it('serves the page and the assets from the built package, and announces where', async () => {
    const server = await start(['--admin-path', '/studio']);
    try {
      const origin = new URL(server.apiUrl).origin;
      assert.match(server.output.stdout, new RegExp(`^quire admin: ${origin}/studio/$`, 'm'));
      const page = await fetch(`${origin}/studio/`);
      assert.equal(page.status, 200);
      const html = await page.text();
      const script = /src="(assets\/app-[A-Z0-9]+\.js)"/.exec(html)![1]!;
      const asset = await fetch(`${origin}/studio/${script}`);
      assert.equal(asset.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(asset.headers.get('content-encoding'), 'gzip', 'fetch asks for gzip, and gets it');
      assert.match(await asset.text(), /^(?:\/\*|[!"'(a-z])/i, 'the script, decompressed');
      assert.equal((await fetch(`${origin}/admin/`)).status, 404);
      assert.equal((await fetch(`${origin}/studio/assets/x.js`)).status, 404);
    } finally {
      server.child.kill();
      await server.finished;
    }
  });

  it('serves no app with --no-admin', async () => {
    const server = await start(['--no-admin']);
    try {
      assert.doesNotMatch(server.output.stdout, /quire admin:/);
      assert.equal((await fetch(`${new URL(server.apiUrl).origin}/admin/`)).status, 404);
    } finally {
      server.child.kill();
      await server.finished;
    }
  });
});
