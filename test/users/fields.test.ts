import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { escapeSpecialCharacters, isValidLogin, sanitizeDescription, sanitizeLogin, sanitizeNameField, userSlug } from '../../src/users/fields.js';

describe('user field cleaning', () => {
  it('keeps logins to the characters the reference allows', () => {
    assert.equal(sanitizeLogin('  José <b>Smith</b>  &amp; co%20 '), 'Jose Smith co');
    assert.equal(sanitizeLogin('a   b\tc'), 'a bc');
    assert.equal(isValidLogin('jane.doe@example.com'), true);
    assert.equal(isValidLogin('jane doe'), true);
    assert.equal(isValidLogin('jane!'), false);
    assert.equal(isValidLogin(' jane'), false);
    assert.equal(isValidLogin(''), false);
  });

  it('makes slugs of lower-case words joined by dashes', () => {
    assert.equal(userSlug('jane.doe@example.com'), 'jane-doeexample-com');
    assert.equal(userSlug('  Mixed Case -- Name_1 '), 'mixed-case-name_1');
    assert.equal(userSlug('Ünïcode'), 'unicode');
    assert.equal(userSlug('!!!'), '');
  });

  it('escapes special characters once', () => {
    assert.equal(escapeSpecialCharacters('Tom & Jerry <3'), 'Tom &amp; Jerry &lt;3');
    assert.equal(escapeSpecialCharacters('Tom &amp; Jerry &#38; &#x26; &bogus;'), 'Tom &amp; Jerry &#38; &#x26; &amp;bogus;');
    assert.equal(sanitizeNameField('<em>Ann</em>  &  Bo "Q"'), 'Ann &amp; Bo "Q"');
  });

  it('keeps descriptions without markup characters as they are, less control characters, and cleans the others', () => {
    assert.equal(sanitizeDescription(''), '');
    assert.equal(sanitizeDescription('  Ünïcödé "quoted" it\'s\n\ttabbed 😀 '), '  Ünïcödé "quoted" it\'s\n\ttabbed 😀 ');
    assert.equal(sanitizeDescription('a\u0000b\u001Fc'), 'abc');
    assert.equal(sanitizeDescription('a > b & c'), 'a &gt; b &amp; c');
    assert.equal(sanitizeDescription('<em onclick="x()">Hi</em><script>x</script>'), '<em>Hi</em>x');
  });
});
