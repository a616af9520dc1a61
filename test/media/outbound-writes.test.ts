import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createSafeHttpClient } from '../../src/media/outbound/index.js';

/** A loopback server that echoes what it received: method, path, content headers and body. */
let server: Server;
let base: string;

before(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    const status = /^\/(30[1237])$/.exec(path)?.[1];
    if (status) {
      response.writeHead(Number(status), { location: '/echo' });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({
      method: request.method,
      path,
      contentType: request.headers['content-type'] ?? null,
      contentLength: request.headers['content-length'] ?? null,
      body: Buffer.concat(chunks).toString('utf8'),
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => createSafeHttpClient({ allow: ['127.0.0.1'] });
const echo = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body));

describe('safe HTTP client: requests with a body', () => {
  it('sends PUT, PATCH and POST bodies with their length', async () => {
    for (const method of ['PUT', 'PATCH', 'POST'] as const) {
      const response = await client().fetch({ url: `${base}/echo`, method, headers: { 'Content-Type': 'application/json' }, body: '{"a":"ä"}' });
      assert.deepEqual(echo(response.body), { method, path: '/echo', contentType: 'application/json', contentLength: '10', body: '{"a":"ä"}' });
    }
    const bytes = await client().fetch({ url: `${base}/echo`, method: 'POST', body: new Uint8Array([104, 105]) });
    assert.equal(echo(bytes.body).body, 'hi');
  });

  it('never sends a body with GET', async () => {
    const response = await client().fetch({ url: `${base}/echo`, method: 'GET', body: 'ignored' });
    assert.deepEqual([echo(response.body).body, echo(response.body).contentLength], ['', null]);
  });

  it('repeats the write on 307 and 308, and turns it into a GET without body on 301, 302 and 303', async () => {
    for (const status of [307, 308]) {
      const response = await client().fetch({ url: `${base}/${status}`, method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'again' });
      assert.deepEqual([echo(response.body).method, echo(response.body).body], ['PUT', 'again'], String(status));
    }
    for (const status of [301, 302, 303]) {
      const response = await client().fetch({ url: `${base}/${status}`, method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'dropped' });
      const received = echo(response.body);
      assert.deepEqual([received.method, received.body, received.contentType, received.contentLength], ['GET', '', null, null], String(status));
    }
  });
});
