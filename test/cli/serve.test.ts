import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { assertNoStackTrace, bin, run, serve } from './helpers.js';

describe('quire serve', () => {
  test('the bin is built', () => {
    assert.ok(existsSync(bin), 'dist/ is missing: run `npm run build` first');
  });

  test('serves the API and the site-root discovery link, then exits cleanly on SIGTERM', async () => {
    const { child, apiUrl, finished } = await serve([]);
    try {
      assert.match(apiUrl, /^http:\/\/127\.0\.0\.1:\d+\/cms-json\/$/);
      const discovery = `<${apiUrl}>; rel="https://api.w.org/"`;

      const index = await fetch(apiUrl);
      assert.equal(index.status, 200);
      assert.equal(index.headers.get('link'), discovery);
      const document = (await index.json()) as { url: string; namespaces: string[] };
      assert.equal(document.url, new URL(apiUrl).origin);
      assert.ok(document.namespaces.includes('cms/v2'));

      const siteRoot = await fetch(new URL('/', apiUrl));
      assert.equal(siteRoot.status, 200);
      assert.equal(siteRoot.headers.get('link'), discovery);
      assert.match(await siteRoot.text(), new RegExp(`at ${apiUrl.replace(/[.]/g, '\\.')}`));

      const restRoute = await fetch(new URL('/?rest_route=/cms/v2', apiUrl));
      assert.equal(((await restRoute.json()) as { namespace: string }).namespace, 'cms/v2');

      const elsewhere = await fetch(new URL('/elsewhere', apiUrl));
      assert.equal(elsewhere.status, 404);
      assert.equal(elsewhere.headers.get('link'), discovery);
      await elsewhere.arrayBuffer();
    } finally {
      child.kill('SIGTERM');
    }
    const exit = await finished;
    assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null });
    assert.equal(exit.stderr, '');
  });

  test('--api-root and --host choose where the API is; SIGINT also exits cleanly', async () => {
    const { child, apiUrl, finished } = await serve(['--api-root', 'content/api/', '--host', '127.0.0.1']);
    try {
      assert.match(apiUrl, /^http:\/\/127\.0\.0\.1:\d+\/content\/api\/$/);
      const namespace = await fetch(`${apiUrl}cms/v2`);
      assert.equal(namespace.status, 200);
      assert.equal(namespace.headers.get('link'), `<${apiUrl}>; rel="https://api.w.org/"`);
      await namespace.arrayBuffer();
      assert.equal((await fetch(new URL('/cms-json/', apiUrl))).status, 404);
    } finally {
      child.kill('SIGINT');
    }
    assert.equal((await finished).code, 0);
  });

  test('--help prints the usage', async () => {
    const exit = await run(['--help']).finished;
    assert.equal(exit.code, 0);
    assert.match(exit.stdout, /^Usage: quire serve/);
    assert.match(exit.stdout, /--port <n>.*default 8080/);
  });

  for (const [args, message] of [
    [['serve', '--bogus'], "quire: unknown option '--bogus'"],
    [['serve', '--port', '70000'], "quire: --port must be a whole number from 0 to 65535, not '70000'"],
    [['serve', '--api-root', '/a b'], "quire: --api-root must be a path such as /cms-json, not '/a b'"],
    [['serve', '--response-cache', '0'], "quire: --response-cache must be a size in MiB from 1 to 65536, or off, not '0'"],
    [['launch'], "quire: unknown command 'launch'"],
    [[], 'quire: missing command'],
  ] as const) {
    test(`a bad command line exits 2 with one line: ${args.join(' ') || '(none)'}`, async () => {
      const exit = await run([...args]).finished;
      assert.equal(exit.code, 2);
      assert.ok(exit.stderr.startsWith(message), exit.stderr);
      assert.match(exit.stderr, /Run 'quire --help' for usage\.\n$/);
      assertNoStackTrace(exit.stderr);
    });
  }

  test('a port in use is reported without a stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const exit = await run(['serve', '--port', String(port)]).finished;
      assert.equal(exit.code, 1);
      assert.equal(exit.stderr, `quire: port ${port} on 127.0.0.1 is already in use (choose another with --port)\n`);
      assertNoStackTrace(exit.stderr);
    } finally {
      blocker.close();
    }
  });

  test('creates the first administrator and prints a fresh application password that works', async () => {
    const { child, apiUrl, finished } = await serve([]);
    try {
      const me = await fetch(new URL('cms/v2/users/me?context=edit', apiUrl));
      assert.equal(me.status, 401, 'anonymous callers are not the administrator');
      await me.arrayBuffer();
    } finally {
      child.kill('SIGTERM');
    }
    const exit = await finished;
    const login = /^quire administrator: (\S+)$/m.exec(exit.stdout)?.[1];
    const password = /^quire application password \(shown once; keep it\): ((?:[A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4})$/m.exec(exit.stdout)?.[1];
    assert.equal(login, 'admin');
    assert.ok(password, exit.stdout);
  });

  test('--admin-login and --admin-app-password (or QUIRE_ADMIN_APP_PASSWORD) make known credentials', async () => {
    const knownPassword = 'abcd efgh ijkl mnop qrst uvwx';
    for (const args of [['--admin-login', 'chief', '--admin-app-password', knownPassword], ['--admin-login', 'chief']]) {
      const environment = args.length === 2 ? { QUIRE_ADMIN_APP_PASSWORD: knownPassword } : {};
      const { child, apiUrl, finished } = await serve(args, environment);
      try {
        const authorization = `Basic ${Buffer.from(`chief:${knownPassword}`).toString('base64')}`;
        const me = await fetch(new URL('cms/v2/users/me?context=edit', apiUrl), { headers: { authorization } });
        assert.equal(me.status, 200);
        const body = (await me.json()) as { username: string; roles: string[] };
        assert.equal(body.username, 'chief');
        assert.deepEqual(body.roles, ['administrator']);
        const wrong = await fetch(new URL('cms/v2/users/me', apiUrl), { headers: { authorization: `Basic ${Buffer.from('chief:nope').toString('base64')}` } });
        assert.equal(wrong.status, 401);
        assert.equal(((await wrong.json()) as { code: string }).code, 'incorrect_password');
      } finally {
        child.kill('SIGTERM');
      }
      const exit = await finished;
      assert.match(exit.stdout, /^quire application password \(as given\): abcd efgh ijkl mnop qrst uvwx$/m);
    }
  });

  test('refuses an application password too short to be one', async () => {
    const exit = await run(['serve', '--admin-app-password', 'short']).finished;
    assert.equal(exit.code, 2);
    assert.match(exit.stderr, /--admin-app-password needs at least 8 letters or digits/);
  });

  test('keeps content in a SQLite file by default, and finds it again after a restart', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-serve-'));
    const data = join(folder, 'site.db');
    const password = 'abcd efgh ijkl mnop qrst uvwx';
    const authorization = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    try {
      const first = await serve(['--data', data, '--admin-app-password', password]);
      let postId: number;
      try {
        const created = await fetch(new URL('cms/v2/posts', first.apiUrl), {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Kept', status: 'publish' }),
        });
        assert.equal(created.status, 201);
        postId = ((await created.json()) as { id: number }).id;
      } finally {
        first.child.kill('SIGTERM');
      }
      const firstExit = await first.finished;
      assert.equal(firstExit.code, 0);
      assert.match(firstExit.stdout, new RegExp(`^quire store: SQLite file ${data.replace(/[.]/g, '\\.')}, uploads in ${folder}/uploads$`, 'm'));
      assert.ok(existsSync(data), 'the database file exists');

      const second = await serve(['--data', data]);
      try {
        const read = await fetch(new URL(`cms/v2/posts/${postId}`, second.apiUrl));
        assert.equal(read.status, 200);
        assert.equal(((await read.json()) as { title: { rendered: string } }).title.rendered, 'Kept');
        const me = await fetch(new URL('cms/v2/users/me', second.apiUrl), { headers: { authorization } });
        assert.equal(me.status, 200, 'the administrator and its application password were kept');
        await me.arrayBuffer();
      } finally {
        second.child.kill('SIGTERM');
      }
      const secondExit = await second.finished;
      assert.equal(secondExit.code, 0);
      assert.doesNotMatch(secondExit.stdout, /application password/, 'an existing administrator is not announced again');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('serves uploaded files from the uploads folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-uploads-'));
    const password = 'abcd efgh ijkl mnop qrst uvwx';
    const authorization = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    try {
      const { child, apiUrl, finished } = await serve(['--data', join(folder, 'site.db'), '--admin-app-password', password]);
      try {
        const uploaded = await fetch(new URL('cms/v2/media', apiUrl), {
          method: 'POST',
          headers: { authorization, 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="notes.txt"' },
          body: 'hello from a file',
        });
        assert.equal(uploaded.status, 201);
        const sourceUrl = ((await uploaded.json()) as { source_url: string }).source_url;
        assert.match(sourceUrl, /\/uploads\/\d{4}\/\d{2}\/notes\.txt$/);
        const file = await fetch(sourceUrl);
        assert.equal(file.status, 200);
        assert.equal(await file.text(), 'hello from a file');
        assert.ok(existsSync(join(folder, 'uploads', new URL(sourceUrl).pathname.replace('/uploads/', ''))), 'the file is in the folder');
        const traversal = await fetch(new URL('/uploads/..%2f..%2fetc/passwd', apiUrl));
        assert.equal(traversal.status, 404);
        await traversal.arrayBuffer();
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal((await finished).code, 0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('rejects contradictory store flags', async () => {
    const exit = await run(['serve', '--storage', 'memory', '--data', 'x.db']).finished;
    assert.equal(exit.code, 2);
    assert.match(exit.stderr, /--data cannot be combined with --storage memory/);
    const badUrl = await run(['serve', '--postgres', 'mysql://x']).finished;
    assert.equal(badUrl.code, 2);
    assert.match(badUrl.stderr, /--postgres must be a URL/);
  });
});
