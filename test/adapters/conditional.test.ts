/** Conditional GETs over a real socket through the node adapter: 304s carry no body and keep the connection usable. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { toNodeListener } from '../../adapters/node.js';
import { createCms } from '../../src/index.js';

interface Reply { status: number; headers: http.IncomingHttpHeaders; body: Buffer }

describe('conditional requests through the node adapter', () => {
  const cms = createCms({ site: { url: 'http://site.test' } });
  const server = http.createServer(toNodeListener(cms));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let port = 0;
  const sockets = new Set<unknown>();

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    server.on('connection', (socket) => sockets.add(socket));
  });
  after(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const request = (method: string, path: string, headers: Record<string, string> = {}) => new Promise<Reply>((resolve, reject) => {
    const outgoing = http.request({ port, method, path, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      // The socket goes back to the agent's pool just after 'end'.
      response.on('end', () => setImmediate(() => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) })));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });

  test('a matching If-None-Match gets 304 with no body, and the connection serves the next request; HEAD alike', async () => {
    const full = await request('GET', '/cms-json/cms/v2/types');
    assert.equal(full.status, 200);
    const tag = full.headers.etag!;
    assert.match(tag, /^"[\w-]{27}"$/);
    assert.equal(full.headers['cache-control'], 'no-cache');
    assert.equal(Number(full.headers['content-length']), full.body.length);

    const notModified = await request('GET', '/cms-json/cms/v2/types', { 'if-none-match': `W/${tag}` });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.body.length, 0);
    assert.equal(notModified.headers.etag, tag);
    assert.equal(notModified.headers['cache-control'], 'no-cache');
    assert.equal(notModified.headers.vary, 'Origin');
    assert.equal(notModified.headers['content-type'], undefined);
    assert.equal(notModified.headers['content-length'], undefined);

    const again = await request('GET', '/cms-json/cms/v2/types', { 'if-none-match': '"stale"' });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, full.body);
    assert.equal(sockets.size, 1, 'every exchange ran on one kept-alive connection');

    const head = await request('HEAD', '/cms-json/cms/v2/types', { 'if-none-match': tag });
    assert.equal(head.status, 304);
    const headFull = await request('HEAD', '/cms-json/cms/v2/types');
    assert.equal(headFull.status, 200);
    assert.equal(headFull.headers.etag, tag);
    assert.equal(headFull.body.length, 0);
  });
});
