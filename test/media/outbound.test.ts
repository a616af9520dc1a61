import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isOutboundError, type OutboundErrorCode } from '../../src/ports/http-client.js';
import { createSafeHttpClient } from '../../src/media/outbound/index.js';
import { isBlockedAddress } from '../../src/media/outbound/addresses.js';

/** A loopback server: the only network peer these tests ever talk to. */
let server: Server;
let base: string;
let hits: string[] = [];

before(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const path = request.url ?? '/';
    if (path === '/hello') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('hello there');
    } else if (path.startsWith('/redirect/')) {
      const remaining = Number(path.slice('/redirect/'.length));
      response.writeHead(302, { location: remaining > 0 ? `/redirect/${remaining - 1}` : '/hello' });
      response.end();
    } else if (path === '/to-private') {
      response.writeHead(301, { location: 'http://10.0.0.7/secret' });
      response.end();
    } else if (path === '/to-metadata') {
      response.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' });
      response.end();
    } else if (path === '/big') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(Buffer.alloc(5000, 1));
    } else if (path === '/big-chunked') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let index = 0; index < 10; index++) response.write(Buffer.alloc(1000, 2));
      response.end();
    } else if (path === '/slow') {
      // Never answers; the client's deadline must end the request.
    } else {
      response.writeHead(404);
      response.end('missing');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function rejectsWith(promise: Promise<unknown>, code: OutboundErrorCode): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isOutboundError(error), `expected an OutboundError, got ${String(error)}`);
    assert.equal(error.code, code);
    return true;
  });
}

describe('blocked addresses', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast, unspecified and IPv6 local ranges', () => {
    for (const address of [
      '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
      '100.64.0.1', '100.127.255.254', '0.0.0.0', '224.0.0.1', '239.255.255.250', '255.255.255.255', '198.18.0.1',
      '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe', '2002:7f00:0001::1', '2001:db8::1',
    ]) {
      assert.equal(isBlockedAddress(address), true, address);
    }
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '100.63.255.255', '100.128.0.1', '172.32.0.1', '2606:4700::1111', '::ffff:93.184.216.34']) {
      assert.equal(isBlockedAddress(address), false, address);
    }
  });

  it('treats text that is not an address as blocked', () => {
    assert.equal(isBlockedAddress('not-an-ip'), true);
  });
});

describe('safe HTTP client', () => {
  it('fetches from an allow-listed loopback server', async () => {
    const client = createSafeHttpClient({ allow: ['127.0.0.1'] });
    const response = await client.fetch({ url: `${base}/hello` });
    assert.equal(response.status, 200);
    assert.equal(new TextDecoder().decode(response.body), 'hello there');
    assert.equal(response.headers['content-type'], 'text/plain');
  });

  it('refuses the same loopback server without the allow-list, before connecting', async () => {
    hits = [];
    const client = createSafeHttpClient();
    await rejectsWith(client.fetch({ url: `${base}/hello` }), 'blocked_address');
    await rejectsWith(client.fetch({ url: `http://[::1]:${new URL(base).port}/hello` }), 'blocked_address');
    assert.deepEqual(hits, []);
  });

  it('refuses names that resolve to private addresses, and names with any private answer', async () => {
    const resolved: string[] = [];
    const client = createSafeHttpClient({
      resolve: async (hostname) => {
        resolved.push(hostname);
        if (hostname === 'mixed.example') return [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.1', family: 4 }];
        return [{ address: '192.168.0.10', family: 4 }];
      },
    });
    await rejectsWith(client.fetch({ url: 'http://intranet.example/' }), 'blocked_address');
    await rejectsWith(client.fetch({ url: 'http://mixed.example/' }), 'blocked_address');
    await rejectsWith(client.fetch({ url: 'http://localhost.example/' }), 'blocked_address');
    assert.deepEqual(resolved, ['intranet.example', 'mixed.example', 'localhost.example']);
  });

  it('resolves once per hop and connects to the address it checked', async () => {
    let calls = 0;
    const client = createSafeHttpClient({
      allow: ['127.0.0.1'],
      resolve: async () => {
        calls++;
        // A second answer would point somewhere else; it must never be asked for.
        return calls === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }];
      },
    });
    const port = new URL(base).port;
    const response = await client.fetch({ url: `http://files.test:${port}/hello` });
    assert.equal(response.status, 200);
    assert.equal(calls, 1);
  });

  it('follows redirects and re-checks every hop', async () => {
    const client = createSafeHttpClient({ allow: ['127.0.0.1'] });
    const followed = await client.fetch({ url: `${base}/redirect/2` });
    assert.equal(followed.status, 200);
    assert.equal(followed.url, `${base}/hello`);
    await rejectsWith(client.fetch({ url: `${base}/to-private` }), 'blocked_address');
    await rejectsWith(client.fetch({ url: `${base}/to-metadata` }), 'blocked_address');
  });

  it('stops after the redirect limit', async () => {
    const client = createSafeHttpClient({ allow: ['127.0.0.1'], maxRedirects: 3 });
    await rejectsWith(client.fetch({ url: `${base}/redirect/5` }), 'too_many_redirects');
    const withinLimit = await client.fetch({ url: `${base}/redirect/2` });
    assert.equal(withinLimit.status, 200);
  });

  it('caps the body size, declared or streamed', async () => {
    const client = createSafeHttpClient({ allow: ['127.0.0.1'], maxBytes: 4096 });
    await rejectsWith(client.fetch({ url: `${base}/big` }), 'too_large');
    await rejectsWith(client.fetch({ url: `${base}/big-chunked` }), 'too_large');
    const small = await client.fetch({ url: `${base}/hello` });
    assert.equal(small.body.byteLength, 11);
  });

  it('keeps the head of a longer body when asked to truncate, never more than the cap', async () => {
    const client = createSafeHttpClient({ allow: ['127.0.0.1'], maxBytes: 4096 });
    for (const path of ['/big', '/big-chunked']) {
      const head = await client.fetch({ url: `${base}${path}`, maxBytes: 1000, truncate: true });
      assert.equal(head.status, 200);
      assert.equal(head.body.byteLength, 1000, path);
      const capped = await client.fetch({ url: `${base}${path}`, maxBytes: 1_000_000, truncate: true });
      assert.equal(capped.body.byteLength, 4096, `${path}: the client's own cap still holds`);
    }
    const small = await client.fetch({ url: `${base}/hello`, maxBytes: 1000, truncate: true });
    assert.equal(small.body.byteLength, 11);
  });

  it('gives up at the deadline', async () => {
    const client = createSafeHttpClient({ allow: ['127.0.0.1'], timeoutMs: 200 });
    const started = Date.now();
    await rejectsWith(client.fetch({ url: `${base}/slow` }), 'timeout');
    assert.ok(Date.now() - started < 5000, 'the deadline ended the request');
  });

  it('answers HTTP errors as responses', async () => {
    const client = createSafeHttpClient({ allow: ['127.0.0.1'] });
    const response = await client.fetch({ url: `${base}/nothing-here` });
    assert.equal(response.status, 404);
  });

  it('refuses other schemes, credentials and unusual ports', async () => {
    const client = createSafeHttpClient({ resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
    await rejectsWith(client.fetch({ url: 'ftp://example.com/file' }), 'invalid_url');
    await rejectsWith(client.fetch({ url: 'file:///etc/passwd' }), 'invalid_url');
    await rejectsWith(client.fetch({ url: 'http://user:secret@example.com/' }), 'invalid_url');
    await rejectsWith(client.fetch({ url: 'http://example.com:22/' }), 'blocked_port');
    await rejectsWith(client.fetch({ url: 'not a url' }), 'invalid_url');
  });

  it('reads numeric and shortened IPv4 forms as the addresses they are', async () => {
    const client = createSafeHttpClient();
    await rejectsWith(client.fetch({ url: 'http://2130706433/' }), 'blocked_address');
    await rejectsWith(client.fetch({ url: 'http://0x7f.1/' }), 'blocked_address');
    await rejectsWith(client.fetch({ url: 'http://127.1/' }), 'blocked_address');
  });
});
