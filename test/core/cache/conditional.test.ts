import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { entityTag, noneMatch, notModifiedHeaders } from '../../../src/core/cache/conditional.js';

describe('entity tags', () => {
  it('are the quoted base64url SHA-1 of the bytes: equal bytes, equal tags', () => {
    const bytes = new TextEncoder().encode('{"id":1}');
    assert.equal(entityTag(bytes), `"${createHash('sha1').update(bytes).digest('base64url')}"`);
    assert.equal(entityTag(new TextEncoder().encode('{"id":1}')), entityTag(bytes));
    assert.notEqual(entityTag(new TextEncoder().encode('{"id":2}')), entityTag(bytes));
    assert.equal(entityTag(null), entityTag(new Uint8Array(0)));
  });
});

describe('If-None-Match', () => {
  const tag = '"abc"';

  it('matches the tag itself, weakly (W/ ignored), in a list, or *', () => {
    assert.equal(noneMatch('"abc"', tag), true);
    assert.equal(noneMatch('W/"abc"', tag), true);
    assert.equal(noneMatch('"x", W/"abc"', tag), true);
    assert.equal(noneMatch(' "x" ,"abc" ', tag), true);
    assert.equal(noneMatch('*', tag), true);
    assert.equal(noneMatch('"x", , "abc"', tag), true, 'empty list elements are allowed');
  });

  it('does not match other tags, unquoted or malformed lists, or nothing', () => {
    assert.equal(noneMatch(undefined, tag), false);
    assert.equal(noneMatch('', tag), false);
    assert.equal(noneMatch('"abcd"', tag), false);
    assert.equal(noneMatch('abc', tag), false);
    assert.equal(noneMatch('w/"abc"', tag), false, 'the weak prefix is case-sensitive');
    assert.equal(noneMatch('"x" "abc"', tag), false, 'a list needs commas');
    assert.equal(noneMatch('"x", junk, "abc"', tag), false);
    assert.equal(noneMatch('"a,b", "abc"', tag), true, 'a comma inside a tag does not split it');
  });

  it('reads a long hostile header in linear time', () => {
    const started = performance.now();
    assert.equal(noneMatch(`${'"x",'.repeat(200_000)}"abc"`, tag), true);
    assert.equal(noneMatch(`"${'x'.repeat(1_000_000)}`, tag), false);
    assert.ok(performance.now() - started < 1000);
  });
});

describe('304 headers', () => {
  it('keep the validator, caching, Vary, CORS and nosniff headers and drop the representation headers', () => {
    const kept = notModifiedHeaders({
      'Content-Type': 'application/json; charset=UTF-8', Link: '<x>; rel="next"', 'X-WP-Total': '3', Allow: 'GET',
      ETag: '"t"', 'Cache-Control': 'no-cache', Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', Vary: 'Origin',
      'Access-Control-Allow-Origin': 'https://app.test', 'X-Content-Type-Options': 'nosniff',
    });
    assert.deepEqual(kept, {
      ETag: '"t"', 'Cache-Control': 'no-cache', Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', Vary: 'Origin',
      'Access-Control-Allow-Origin': 'https://app.test', 'X-Content-Type-Options': 'nosniff',
    });
  });
});
