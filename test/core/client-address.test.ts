import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileTrustProxy, resolveClientAddress } from '../../src/core/client-address.js';
import { mountTarget } from '../../src/core/mount.js';

const resolve = (socket: string | undefined, forwardedFor: string | undefined, setting: Parameters<typeof compileTrustProxy>[0], forwarded?: string) =>
  resolveClientAddress(socket, forwardedFor, forwarded, compileTrustProxy(setting));

describe('the client address', () => {
  it('is the socket address unless trustProxy says otherwise; forwarded headers are ignored by default', () => {
    assert.equal(resolve('198.51.100.4', '203.0.113.9', undefined), '198.51.100.4');
    assert.equal(resolve('198.51.100.4', '203.0.113.9', false), '198.51.100.4');
    assert.equal(resolve('198.51.100.4', undefined, undefined, 'for=203.0.113.9'), '198.51.100.4');
    assert.equal(resolve(undefined, '203.0.113.9', undefined), undefined);
  });

  it('gives one text per address: IPv4-mapped IPv6 as IPv4, IPv6 compressed and lower-case', () => {
    assert.equal(resolve('::ffff:198.51.100.4', undefined, undefined), '198.51.100.4');
    assert.equal(resolve('2001:DB8:0:0:0:0:0:1', undefined, undefined), '2001:db8::1');
    assert.equal(resolve('::1', undefined, undefined), '::1');
  });

  it('with a hop count, takes the address that many hops back, so a client-sent entry further left is ignored', () => {
    // The client sent "X-Forwarded-For: 192.0.2.66"; the one proxy appended the client's real address.
    assert.equal(resolve('10.0.0.2', '192.0.2.66, 203.0.113.9', 1), '203.0.113.9');
    assert.equal(resolve('10.0.0.2', '192.0.2.66, 203.0.113.9, 10.0.0.3', 2), '203.0.113.9');
    assert.equal(resolve('10.0.0.2', '192.0.2.66, 203.0.113.9', '1'), '203.0.113.9');
    // More hops trusted than there are entries: the farthest one told.
    assert.equal(resolve('10.0.0.2', '203.0.113.9', 5), '203.0.113.9');
    assert.equal(resolve('10.0.0.2', undefined, 1), '10.0.0.2');
  });

  it('with addresses and ranges, walks back past trusted proxies only', () => {
    const proxies = ['10.0.0.0/8', '::1'];
    assert.equal(resolve('10.0.0.2', '192.0.2.66, 203.0.113.9, 10.1.2.3', proxies), '203.0.113.9');
    // The socket is not a trusted proxy: its forwarded header is not believed.
    assert.equal(resolve('198.51.100.4', '203.0.113.9', proxies), '198.51.100.4');
    assert.equal(resolve('127.0.0.1', '203.0.113.9', 'loopback'), '203.0.113.9');
    assert.equal(resolve('::ffff:127.0.0.1', '203.0.113.9', ['loopback']), '203.0.113.9');
    assert.equal(resolve('192.168.1.1', '203.0.113.9', 'loopback, uniquelocal'), '203.0.113.9');
  });

  it('with true, believes every hop: the leftmost entry', () => {
    assert.equal(resolve('10.0.0.2', '192.0.2.66, 203.0.113.9', true), '192.0.2.66');
  });

  it('stops at an entry that is not an address, at the hop that sent it', () => {
    assert.equal(resolve('10.0.0.2', 'unknown, 203.0.113.9', true), '203.0.113.9');
    assert.equal(resolve('10.0.0.2', 'not an address', 1), '10.0.0.2');
    assert.equal(resolve('10.0.0.2', '203.0.113.9<script>', true), '10.0.0.2');
  });

  it('reads Forwarded: for= when there is no X-Forwarded-For, quoted, bracketed and with ports', () => {
    assert.equal(resolve('10.0.0.2', undefined, 1, 'for=192.0.2.66, for="[2001:db8::7]:4711";proto=https'), '2001:db8::7');
    assert.equal(resolve('10.0.0.2', undefined, 1, 'for=203.0.113.9:8080'), '203.0.113.9');
    assert.equal(resolve('10.0.0.2', undefined, 2, 'for=192.0.2.66;by=x, For=203.0.113.9'), '192.0.2.66');
    assert.equal(resolve('10.0.0.2', undefined, 1, 'for=_hidden'), '10.0.0.2');
  });

  it('refuses settings that mean nothing, naming the bad entry', () => {
    assert.throws(() => compileTrustProxy(-1), /hop count/);
    assert.throws(() => compileTrustProxy(1.5), /hop count/);
    assert.throws(() => compileTrustProxy('10.0.0.0/33'), /10\.0\.0\.0\/33/);
    assert.throws(() => compileTrustProxy(['proxy.example']), /proxy\.example/);
  });

  it('decides forwarded scheme and host with the same trust: only when the socket peer is a trusted proxy', () => {
    const request = {
      pathname: '/cms-json/', query: '', scheme: 'http', host: 'internal:8080', fallbackHost: 'internal:8080',
      forwardedProto: 'https', forwardedHost: 'public.example', forwardedFor: '203.0.113.9',
    };
    const trusted = mountTarget({ ...request, socketAddress: '10.0.0.2' }, { prefix: '/cms-json', trustProxy: ['10.0.0.0/8'] });
    assert.equal(trusted.baseUrl, 'https://public.example/cms-json');
    assert.equal(trusted.remoteAddress, '203.0.113.9');
    const direct = mountTarget({ ...request, socketAddress: '198.51.100.4' }, { prefix: '/cms-json', trustProxy: ['10.0.0.0/8'] });
    assert.equal(direct.baseUrl, 'http://internal:8080/cms-json');
    assert.equal(direct.remoteAddress, '198.51.100.4');
  });
});
