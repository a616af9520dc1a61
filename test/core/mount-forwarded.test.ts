import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { forwardedParameter, mountTarget } from '../../src/core/mount.js';

const request = { pathname: '/cms-json/cms/v2', query: '', scheme: 'http', host: '127.0.0.1:8080', fallbackHost: '127.0.0.1:8080' };

describe('the public address behind a proxy', () => {
  test('with trustProxy, the standard Forwarded header sets scheme and host when X-Forwarded-* are absent', () => {
    const forwarded = 'for=192.0.2.60;proto=https;host="x.example", for=198.51.100.1;proto=http;host=inner';
    assert.equal(mountTarget({ ...request, forwarded }, { prefix: '/cms-json', trustProxy: true }).baseUrl, 'https://x.example/cms-json');
    assert.equal(mountTarget({ ...request, forwarded }, { prefix: '/cms-json' }).baseUrl, 'http://127.0.0.1:8080/cms-json', 'not trusted without trustProxy');
    assert.equal(
      mountTarget({ ...request, forwarded, forwardedProto: 'http', forwardedHost: 'y.example' }, { prefix: '/cms-json', trustProxy: true }).baseUrl,
      'http://y.example/cms-json', 'X-Forwarded-* win',
    );
    assert.equal(
      mountTarget({ ...request, forwarded: 'proto=gopher;host=bad host' }, { prefix: '/cms-json', trustProxy: true }).baseUrl,
      'http://127.0.0.1:8080/cms-json', 'implausible values are not put into links',
    );
  });

  test('Forwarded parameters: case-insensitive names, quoted values, absent or empty ones', () => {
    assert.equal(forwardedParameter('Proto=HTTPS;Host="a.example:8443"', 'host'), 'a.example:8443');
    assert.equal(forwardedParameter('for=1.2.3.4', 'proto'), undefined);
    assert.equal(forwardedParameter('proto=', 'proto'), undefined);
    assert.equal(forwardedParameter(undefined, 'proto'), undefined);
    assert.equal(forwardedParameter(['proto=https', 'proto=http'], 'proto'), 'https');
  });
});
