import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchesPattern } from '../../../src/format/pcre.js';

describe('matchesPattern', () => {
  const cases: [pattern: string, subject: string, expected: boolean][] = [
    ['^abc$', 'abc\n', true],
    ['^abc\\z', 'abc\n', false],
    ['^abc\\Z', 'abc\n', true],
    ['^a.c$', 'a\rc', true],
    ['^a.c$', 'a\nc', false],
    ['^\\w+$', 'héllo', true],
    ['^\\d+$', '١٢٣', true],
    ['^[[:alpha:]]+$', 'héllo', true],
    ['^a#b$', 'a#b', true],
    ['(?i)^ABC$', 'abc', true],
    ['^\\pL+$', 'héllo', true],
    ['^x{2}$', 'xx', true],
    ['^a{b$', 'a{b', true],
    ['^x{,2}$', 'x{,2}', true],
    ['^a]$', 'a]', true],
    ['^[]a]+$', ']a', true],
    ['\\bfoo\\b', 'é foo', true],
    ['^\\x{e9}$', 'é', true],
    ['^(?P<n>a)(?P=n)$', 'aa', true],
    ['^\\s$', '\u00a0', true],
    ['^[\\w-]+$', 'a-é', true],
    ['^\\-$', '-', true],
    ['^\\@$', '@', true],
    ['[unclosed', 'x', false],
  ];

  for (const [pattern, subject, expected] of cases) {
    it(`${pattern} against ${JSON.stringify(subject)} is ${expected}`, () => {
      assert.equal(matchesPattern(pattern, subject), expected);
    });
  }

  it('matches nothing in text that is not valid Unicode', () => {
    assert.equal(matchesPattern('.', 'a\uD800'), false);
  });
});

describe('matchesPattern with outer wildcards', () => {
  it('answers `.*X.*` as a search for X would, without trying every start', () => {
    const cases: [string, string, boolean][] = [
      ['.*\\S.*', '   x  ', true],
      ['.*\\S.*', '      ', false],
      ['.*\\S.*', '', false],
      ['.*', '', true],
      ['.*a|b.*', 'xb', true],
      ['a|.*', 'zzz', true],
      ['.*x\\.*', 'x...', true],
      ['.*x\\.*', 'y', false],
      ['.*?x', 'ax', true],
      ['.*x.*$', 'ax\n', true],
    ];
    for (const [pattern, subject, expected] of cases) assert.equal(matchesPattern(pattern, subject), expected, `${pattern} on ${JSON.stringify(subject)}`);
    // Every start scanned to the end made this take seconds; a wrong answer here would be a true.
    assert.equal(matchesPattern('.*\\S.*', ' '.repeat(400_000)), false);
  });
});
