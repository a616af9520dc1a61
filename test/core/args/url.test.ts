import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sanitizeUrl } from '../../../src/format/url.js';

describe('sanitizeUrl', () => {
  it('adds http:// to scheme-less values and encodes spaces (verified example)', () => {
    assert.equal(sanitizeUrl('not a uri'), 'http://not%20a%20uri');
    assert.equal(sanitizeUrl('  http://lead'), 'http://lead');
  });

  it('leaves relative references and PHP file names without a scheme', () => {
    assert.equal(sanitizeUrl('/relative path'), '/relative%20path');
    assert.equal(sanitizeUrl('#frag'), '#frag');
    assert.equal(sanitizeUrl('?q=1'), '?q=1');
    assert.equal(sanitizeUrl('index.php?x'), 'index.php?x');
  });

  it('empties values with a disallowed scheme (verified example)', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'jav&#x61;script:x', 'feed:javascript:x', 'localhost:8080', 'example.com/x?a=b:c']) {
      assert.equal(sanitizeUrl(url), '', url);
    }
  });

  it('keeps allowed schemes, lower-casing them', () => {
    assert.equal(sanitizeUrl('HTTPS://Ex.com/A B'), 'https://Ex.com/A%20B');
    assert.equal(sanitizeUrl('mailto:a@b.co'), 'mailto:a@b.co');
    assert.equal(sanitizeUrl('feed:http://x'), 'feed:http://x');
    assert.equal(sanitizeUrl('tel:123'), 'tel:123');
  });

  it('drops characters outside the URL set, keeping non-ASCII ones', () => {
    assert.equal(sanitizeUrl('http://x.com/<tag>"q"'), 'http://x.com/tagq');
    assert.equal(sanitizeUrl('http://ü.com/ä'), 'http://ü.com/ä');
  });

  it('removes encoded line breaks except in mailto links', () => {
    assert.equal(sanitizeUrl('http://x.com/%0d%0aSet'), 'http://x.com/Set');
    assert.equal(sanitizeUrl('mailto:a%0d@b'), 'mailto:a%0d@b');
  });

  it('percent-encodes brackets after the authority', () => {
    assert.equal(sanitizeUrl('http://example.com/a[1]'), 'http://example.com/a%5B1%5D');
    assert.equal(sanitizeUrl('http://[::1]:8080/x[y]'), 'http://[::1]:8080/x%5By%5D');
    assert.equal(sanitizeUrl('//cdn.example.com/a[b]'), '//cdn.example.com/a%5Bb%5D');
    assert.equal(sanitizeUrl('http://user:pw@host:81/p[1]'), 'http://user:pw@host:81/p%5B1%5D');
  });
});
