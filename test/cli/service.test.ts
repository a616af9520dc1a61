import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { assertNoStackTrace, run, serve } from './helpers.js';

const PASSWORD_LINE = /^quire application password \(shown once; keep it\): ((?:[A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4})$/m;

/** The JSON request lines of a run's standard output. */
function requestLines(stdout: string): Record<string, unknown>[] {
  return stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record.msg === 'request');
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('quire serve as a service', () => {
  test('logs one JSON line per request: method, redacted path, status, bytes, duration, client, user', async () => {
    const { child, apiUrl, finished } = await serve(['--admin-app-password', 'abcd efgh ijkl mnop qrst uvwx']);
    const authorization = `Basic ${Buffer.from('admin:abcd efgh ijkl mnop qrst uvwx').toString('base64')}`;
    let sizes: number[] = [];
    try {
      const answers = [
        // Forwarded headers are ignored without --trust-proxy: the log names the socket's peer.
        await fetch(new URL('cms/v2/posts?per_page=1&password=hunter2&_wpnonce=n0nce', apiUrl), { headers: { 'x-forwarded-for': '203.0.113.9' } }),
        await fetch(new URL('cms/v2/users/me', apiUrl), { headers: { authorization } }),
        await fetch(new URL('cms/v2/no-such-route', apiUrl)),
        await fetch(new URL('/missing', apiUrl)),
      ];
      sizes = await Promise.all(answers.map(async (answer) => (await answer.arrayBuffer()).byteLength));
    } finally {
      child.kill('SIGTERM');
    }
    const exit = await finished;
    const lines = requestLines(exit.stdout);
    assert.equal(lines.length, 4, exit.stdout);
    const [list, me, noRoute, missing] = lines as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];
    assert.equal(list.path, '/cms-json/cms/v2/posts?per_page=1&password=[redacted]&_wpnonce=[redacted]');
    assert.equal(list.method, 'GET');
    assert.equal(list.status, 200);
    assert.equal(list.userId, null);
    assert.equal(list.clientAddress, '127.0.0.1');
    assert.equal(list.level, 30);
    assert.equal(typeof list.durationMs, 'number');
    assert.ok(!Number.isNaN(Date.parse(String(list.time))));
    assert.equal(me.status, 200);
    assert.equal(me.userId, 1);
    assert.equal(noRoute.status, 404);
    assert.equal(missing.path, '/missing');
    assert.equal(missing.status, 404);
    assert.deepEqual(lines.map((line) => line.bytes), sizes);
    assert.doesNotMatch(exit.stdout, /hunter2|n0nce|Basic /);
  });

  test('with --trust-proxy, logs the client address the proxy forwarded, for API and site requests', async () => {
    const { child, apiUrl, finished } = await serve(['--trust-proxy', 'loopback']);
    try {
      for (const target of [new URL('cms/v2/posts?per_page=1', apiUrl), new URL('/health', apiUrl), new URL('/missing', apiUrl)]) {
        await (await fetch(target, { headers: { 'x-forwarded-for': '192.0.2.66, 203.0.113.9' } })).arrayBuffer();
      }
      await (await fetch(new URL('cms/v2/posts?per_page=1', apiUrl))).arrayBuffer();
    } finally {
      child.kill('SIGTERM');
    }
    const lines = requestLines((await finished).stdout);
    assert.deepEqual(lines.map((line) => [line.path, line.clientAddress]), [
      ['/cms-json/cms/v2/posts?per_page=1', '203.0.113.9'],
      ['/missing', '203.0.113.9'],
      ['/cms-json/cms/v2/posts?per_page=1', '127.0.0.1'],
    ]);
  });

  test('--log-format pretty writes readable lines; --quiet leaves requests out', async () => {
    const pretty = await serve(['--log-format', 'pretty']);
    try {
      await (await fetch(new URL('cms/v2/posts?token=t0ken', pretty.apiUrl))).arrayBuffer();
    } finally {
      pretty.child.kill('SIGTERM');
    }
    const prettyExit = await pretty.finished;
    assert.match(prettyExit.stdout, /^\S+Z INFO  GET \/cms-json\/cms\/v2\/posts\?token=\[redacted\] 200 \d+B [\d.]+ms 127\.0\.0\.1 -$/m);

    const quiet = await serve(['--quiet']);
    try {
      await (await fetch(new URL('cms/v2/posts', quiet.apiUrl))).arrayBuffer();
    } finally {
      quiet.child.kill('SIGTERM');
    }
    assert.deepEqual(requestLines((await quiet.finished).stdout), []);
  });

  test('GET /health answers outside the API root, logged only at debug level', async () => {
    const { child, apiUrl, finished } = await serve(['--log-level', 'debug']);
    try {
      const health = await fetch(new URL('/health', apiUrl));
      assert.equal(health.status, 200);
      assert.equal(health.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await health.json(), { status: 'ok' });
    } finally {
      child.kill('SIGTERM');
    }
    const lines = requestLines((await finished).stdout);
    assert.equal(lines[0]!.path, '/health');
    assert.equal(lines[0]!.level, 20);
  });

  test('--site-url (or QUIRE_SITE_URL) makes the links, Location and discovery use the public address', async () => {
    for (const [args, environment] of [[['--site-url', 'https://x.example/'], {}], [[], { QUIRE_SITE_URL: 'https://x.example' }]] as const) {
      const { child, apiUrl } = await serve([...args, '--admin-app-password', 'abcd efgh ijkl mnop qrst uvwx'], environment);
      try {
        const index = await fetch(apiUrl);
        assert.equal(index.headers.get('link'), '<https://x.example/cms-json/>; rel="https://api.w.org/"');
        assert.equal(((await index.json()) as { url: string }).url, 'https://x.example');
        const root = await fetch(new URL('/', apiUrl));
        assert.match(await root.text(), /REST API is at https:\/\/x\.example\/cms-json\//);
        const created = await fetch(new URL('cms/v2/posts', apiUrl), {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from('admin:abcd efgh ijkl mnop qrst uvwx').toString('base64')}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Linked' }),
        });
        assert.equal(created.status, 201);
        assert.match(created.headers.get('location') ?? '', /^https:\/\/x\.example\/cms-json\/cms\/v2\/posts\/\d+$/);
        await created.arrayBuffer();
      } finally {
        child.kill('SIGTERM');
      }
    }
  });

  for (const [args, message] of [
    [['serve', '--site-url', 'x.example'], "quire: --site-url must be an http(s) URL, not 'x.example'"],
    [['serve', '--log-format', 'xml'], "quire: --log-format must be json or pretty, not 'xml'"],
    [['serve', '--log-level', 'loud'], "quire: --log-level must be one of trace, debug, info, warn, error, fatal, silent, not 'loud'"],
    [['serve', '--quiet', '--log-level', 'info'], 'quire: --quiet cannot be combined with --log-level'],
    [['users', 'app-password', 'create'], "quire: 'quire users app-password create' needs --login <login>"],
    [['users', 'remove'], "quire: unknown users action 'remove'"],
    [['users', 'app-password', 'revoke', '--login', 'admin'], 'quire: app-password revoke needs --uuid <uuid>'],
  ] as const) {
    test(`a bad command line exits 2 with one line: ${args.join(' ')}`, async () => {
      const exit = await run([...args]).finished;
      assert.equal(exit.code, 2);
      assert.ok(exit.stderr.startsWith(message), exit.stderr);
      assertNoStackTrace(exit.stderr);
    });
  }
});

describe('the first administrator and its recovery', () => {
  test('a start that cannot listen creates no administrator; the next start prints the password', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-admin-'));
    const data = join(folder, 'site.db');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const failed = await run(['serve', '--data', data, '--port', String((blocker.address() as AddressInfo).port)]).finished;
      assert.equal(failed.code, 1);
      assert.doesNotMatch(failed.stdout, /application password/);
      const listed = await run(['users', 'list', '--data', data]).finished;
      assert.equal(listed.code, 0, listed.stderr);
      assert.equal(listed.stdout, 'ID  LOGIN  EMAIL  ROLES\n', 'no user was created');

      const { child, finished } = await serve(['--data', data]);
      child.kill('SIGTERM');
      assert.match((await finished).stdout, PASSWORD_LINE);
    } finally {
      blocker.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('quire users refuses a SQLite file that does not exist, and creates none', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-users-'));
    const data = join(folder, 'typo.db');
    try {
      for (const args of [['users', 'list', '--data', data], ['users', 'app-password', 'create', '--login', 'admin', '--data', data]]) {
        const exit = await run(args).finished;
        assert.equal(exit.code, 1, exit.stderr);
        assert.equal(exit.stderr, `quire: there is no SQLite store at ${data} (quire serve or quire import --data ${data} creates one)\n`);
        assert.equal(exit.stdout, '');
        assert.deepEqual(readdirSync(folder), [], 'no file was created');
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('quire users lists users and creates, lists and revokes application passwords that work', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-users-'));
    const data = join(folder, 'site.db');
    try {
      const first = await serve(['--data', data]);
      first.child.kill('SIGTERM');
      await first.finished;

      const listed = await run(['users', 'list', '--data', data]).finished;
      assert.match(listed.stdout, /^ID\s+LOGIN\s+EMAIL\s+ROLES\n1\s+admin\s+admin@localhost\.invalid\s+administrator\n$/);

      const created = await run(['users', 'app-password', 'create', '--login', 'admin', '--name', 'laptop', '--data', data]).finished;
      assert.equal(created.code, 0, created.stderr);
      const password = /^quire application password for admin \(laptop; shown once, keep it\): (.+)$/m.exec(created.stdout)?.[1];
      const uuid = /^uuid: (\S+)$/m.exec(created.stdout)?.[1];
      assert.ok(password && uuid, created.stdout);

      const passwords = await run(['users', 'app-password', 'list', '--login', 'admin', '--data', data]).finished;
      assert.match(passwords.stdout, new RegExp(`^${uuid}\\s+laptop\\s`, 'm'));

      const { child, apiUrl, finished } = await serve(['--data', data]);
      try {
        const me = await fetch(new URL('cms/v2/users/me', apiUrl), { headers: { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` } });
        assert.equal(me.status, 200);
        await me.arrayBuffer();
      } finally {
        child.kill('SIGTERM');
        await finished;
      }

      const revoked = await run(['users', 'app-password', 'revoke', '--login', 'admin', '--uuid', uuid, '--data', data]).finished;
      assert.equal(revoked.code, 0, revoked.stderr);
      const again = await run(['users', 'app-password', 'revoke', '--login', 'admin', '--uuid', uuid, '--data', data]).finished;
      assert.equal(again.code, 1);
      assert.match(again.stderr, /has no application password/);
      const nobody = await run(['users', 'app-password', 'list', '--login', 'nobody', '--data', data]).finished;
      assert.equal(nobody.code, 1);
      assert.equal(nobody.stderr, "quire: there is no user 'nobody' (see quire users list)\n");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
