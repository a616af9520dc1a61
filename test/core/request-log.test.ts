import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createCms, encodeResponse } from '../../src/index.js';
import { isSecretKey, loggedPath, redactQuery, type RequestLogEntry } from '../../src/core/request-log.js';

describe('request log: redaction', () => {
  test('values of secret-bearing query keys are replaced, other values and every key kept', () => {
    assert.equal(
      redactQuery('per_page=2&password=hunter2&_wpnonce=abc&access_token=t&api-key=k&secret=s&hash=h&search=x'),
      'per_page=2&password=[redacted]&_wpnonce=[redacted]&access_token=[redacted]&api-key=[redacted]&secret=[redacted]&hash=[redacted]&search=x',
    );
    assert.equal(redactQuery('pass%77ord=x&token%5B0%5D=y&flag'), 'pass%77ord=[redacted]&token%5B0%5D=[redacted]&flag');
    assert.equal(redactQuery('%E0%A4%A=1'), '%E0%A4%A=1');
    assert.equal(redactQuery({ password: 'p', list: ['a', 'b'], key: { inner: 'v' } }), 'password=[redacted]&list[]=a&list[]=b&key[inner]=[redacted]');
    assert.equal(redactQuery('data[password]=p&data[name]=n'), 'data[password]=[redacted]&data[name]=n');
    assert.equal(redactQuery({ data: { secret: 's', name: 'n' } }), 'data[secret]=[redacted]&data[name]=n');
    assert.equal(isSecretKey('keyword'), false);
    assert.equal(isSecretKey('monkey'), false);
    assert.equal(isSecretKey('search'), false);
  });

  test('the logged path is the API root, the route and the redacted query', () => {
    assert.equal(loggedPath('/cms-json', { method: 'GET', path: '/cms/v2/posts', query: 'token=1&page=2' }), '/cms-json/cms/v2/posts?token=[redacted]&page=2');
    assert.equal(loggedPath('/cms-json', { method: 'GET', path: '' }), '/cms-json/');
  });
});

describe('request log: the onRequest hook of createCms', () => {
  test('reports each answer once: status, encoded length, user, client address and duration', async () => {
    const entries: RequestLogEntry[] = [];
    const cms = createCms({ onRequest: (entry) => entries.push(entry) });
    const admin = await cms.users.create({ login: 'admin', email: 'admin@example.com', roles: ['administrator'] });
    const { password } = await cms.users.createApplicationPassword(admin.id, { name: 'test' });
    const authorization = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

    const created = await cms.handle({
      method: 'POST', path: '/cms/v2/posts', headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Hello', status: 'publish' }), remoteAddress: '203.0.113.9',
    });
    const listed = await cms.handle({ method: 'GET', path: '/cms/v2/posts', query: 'per_page=1&_wpnonce=secret-value' });
    const missing = await cms.handle({ method: 'get', path: '/cms/v2/nothing-here' });

    assert.equal(entries.length, 3);
    const [write, read, notFound] = entries as [RequestLogEntry, RequestLogEntry, RequestLogEntry];
    assert.equal(write.status, 201);
    assert.equal(write.userId, admin.id);
    assert.equal(write.clientAddress, '203.0.113.9');
    assert.equal(write.method, 'POST');
    assert.equal(write.bytes, encodeResponse(created).body!.byteLength);
    assert.equal(read.path, '/cms-json/cms/v2/posts?per_page=1&_wpnonce=[redacted]');
    assert.equal(read.userId, null);
    assert.equal(read.clientAddress, null);
    assert.equal(read.bytes, encodeResponse(listed).body!.byteLength);
    assert.ok(read.bytes > 2);
    assert.equal(notFound.status, 404);
    assert.equal(notFound.method, 'GET');
    assert.equal(notFound.bytes, encodeResponse(missing).body!.byteLength);
    for (const entry of entries) {
      assert.ok(entry.durationMs >= 0 && entry.durationMs < 60_000);
      assert.ok(Math.abs(entry.time - Date.now()) < 60_000);
      assert.doesNotMatch(JSON.stringify(entry), /secret-value|Basic /);
    }
  });

  test('a bad credential is logged with its 401 and no user; a throwing hook changes no answer', async () => {
    const errors: unknown[] = [];
    const entries: RequestLogEntry[] = [];
    const cms = createCms({
      onRequest: (entry) => {
        entries.push(entry);
        throw new Error('log sink down');
      },
      onError: (error) => errors.push(error),
    });
    const answer = await cms.handle({ method: 'GET', path: '/cms/v2/posts', headers: { authorization: 'Basic bm9ib2R5Om5vcGU=' } });
    assert.equal(answer.status, 401);
    assert.equal(entries[0]!.status, 401);
    assert.equal(entries[0]!.userId, null);
    assert.equal((errors[0] as Error).message, 'log sink down');
    const again = await cms.handle({ method: 'HEAD', path: '/cms/v2/posts' });
    assert.equal(again.status, 200);
    assert.equal(entries[1]!.bytes, 0);
  });

  test('the encoded bytes the hook counted are the ones sent, encoded once', async () => {
    const cms = createCms({ onRequest: () => {} });
    const answer = await cms.handle({ method: 'GET', path: '/' });
    const first = encodeResponse(answer).body;
    assert.equal(encodeResponse(answer).body, first, 'the same bytes, not encoded again');
  });
});

describe('redacting a repeated query string', () => {
  test('redacts it the same every time', () => {
    for (let round = 0; round < 3; round += 1) assert.equal(redactQuery('a=1&token=t&b=2'), 'a=1&token=[redacted]&b=2');
  });
});
