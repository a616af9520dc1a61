import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stripAllTags } from '../../../src/format/strip-tags.js';
import { sanitizeKey, sanitizeTextField } from '../../../src/format/text.js';

describe('sanitizeTextField', () => {
  it('strips tags and collapses white space (verified example)', () => {
    assert.equal(sanitizeTextField('<b>hi</b>\nthere  x'), 'hi there x');
    assert.equal(sanitizeTextField('line1\r\nline2\t\tend'), 'line1 line2 end');
    assert.equal(sanitizeTextField('  padded  '), 'padded');
  });

  it('drops script and style elements with their contents', () => {
    assert.equal(sanitizeTextField('x <script>alert(1)</script> y'), 'x y');
    assert.equal(sanitizeTextField('<style type="x">p{}</style>ok'), 'ok');
  });

  it('escapes a lone "<" instead of treating it as a tag', () => {
    assert.equal(sanitizeTextField('a < b & c'), 'a &lt; b &amp; c');
    assert.equal(sanitizeTextField('i < 3 &#65; &#x41; &bogus; &nbsp;'), 'i &lt; 3 &#065; &#x41; &amp;bogus; &nbsp;');
    assert.equal(sanitizeTextField('a <\nb'), 'a &lt; b');
    assert.equal(sanitizeTextField('a< b>c'), 'a< b>c');
  });

  it('handles quotes, comments and PHP blocks inside markup', () => {
    assert.equal(sanitizeTextField('<a title=">">x</a>y'), 'xy');
    assert.equal(sanitizeTextField('x <!-- c --> y'), 'x y');
    assert.equal(sanitizeTextField('<?php echo 1; ?>z'), 'z');
  });

  it('removes percent-encoded octets, repeatedly', () => {
    assert.equal(sanitizeTextField('%41%42 c'), 'c');
    assert.equal(sanitizeTextField('%%4141'), '');
    assert.equal(sanitizeTextField('%zz %2'), '%zz %2');
  });

  it('keeps newlines and inner white space for textareas', () => {
    assert.equal(sanitizeTextField('a <\nb', true), 'a &lt;\nb');
    assert.equal(sanitizeTextField('  line1\r\nline2\t\tend  ', true), 'line1\r\nline2\t\tend');
  });

  it('casts scalars and empties arrays and malformed text', () => {
    assert.equal(sanitizeTextField(5), '5');
    assert.equal(sanitizeTextField(['x']), '');
    assert.equal(sanitizeTextField('bad \uD800 text'), '');
  });
});

describe('stripAllTags', () => {
  it('removes markup and trims', () => {
    assert.equal(stripAllTags(' <p>a</p><p>b</p> '), 'ab');
    assert.equal(stripAllTags('a\n\n<br>b', true), 'a b');
  });
});

describe('sanitizeKey', () => {
  it('keeps lower-case ASCII letters, digits, "_" and "-"', () => {
    assert.equal(sanitizeKey('Hello-World_1 !é'), 'hello-world_1');
    assert.equal(sanitizeKey('EDIT'), 'edit');
    assert.equal(sanitizeKey(5), '5');
    assert.equal(sanitizeKey(true), '1');
    assert.equal(sanitizeKey(['a']), '');
  });
});
