import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { parseBasicAuthorization } from '../../src/auth/basic.js';

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('parseBasicAuthorization', () => {
  it('reads login:password', () => {
    assert.deepEqual(parseBasicAuthorization(`Basic ${encode('admin:abcd efgh ijkl mnop qrst uvwx')}`), {
      username: 'admin',
      password: 'abcd efgh ijkl mnop qrst uvwx',
    });
    assert.deepEqual(parseBasicAuthorization(`Basic ${encode('ana@example.com:secret')}`), {
      username: 'ana@example.com',
      password: 'secret',
    });
  });

  it('takes the scheme in any case and tolerates surrounding whitespace', () => {
    const token = encode('admin:pw');
    for (const header of [`basic ${token}`, `BASIC ${token}`, `bAsIc  ${token}`, `  Basic ${token}  `, `Basic\t${token}`]) {
      assert.deepEqual(parseBasicAuthorization(header), { username: 'admin', password: 'pw' }, header);
    }
  });

  it('splits at the first colon only', () => {
    assert.deepEqual(parseBasicAuthorization(`Basic ${encode('admin:a:b::c')}`), { username: 'admin', password: 'a:b::c' });
  });

  it('keeps empty parts for the caller to reject', () => {
    assert.deepEqual(parseBasicAuthorization(`Basic ${encode(':pw')}`), { username: '', password: 'pw' });
    assert.deepEqual(parseBasicAuthorization(`Basic ${encode('admin:')}`), { username: 'admin', password: '' });
    assert.deepEqual(parseBasicAuthorization(`Basic ${encode(':')}`), { username: '', password: '' });
  });

  it('decodes UTF-8 and accepts missing padding', () => {
    assert.deepEqual(parseBasicAuthorization(`Basic ${encode('zoë:pässwörd')}`), { username: 'zoë', password: 'pässwörd' });
    const unpadded = encode('ab:c').replace(/=+$/, '');
    assert.notEqual(unpadded, encode('ab:c'));
    assert.deepEqual(parseBasicAuthorization(`Basic ${unpadded}`), { username: 'ab', password: 'c' });
  });

  it('is not a Basic attempt without a header or with another scheme', () => {
    for (const header of [undefined, '', '   ', 'Bearer abc.def.ghi', 'Digest username="a"', 'Basicx YWI6Yw==', 'Negotiate']) {
      assert.equal(parseBasicAuthorization(header), null, String(header));
    }
  });

  it('is malformed when the credentials cannot be read', () => {
    const cases = [
      'Basic',
      'Basic ',
      `Basic ${encode('no-colon-here')}`,
      'Basic ***',
      'Basic YWI6Yw=== ',
      'Basic YWI6Y',
      'Basic YW=I6Yw',
      'Basic YWI6Yw= =',
      'Basic YWI6Yw-_',
      `Basic ${encode('a:b')} extra`,
      `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`,
    ];
    for (const header of cases) {
      assert.equal(parseBasicAuthorization(header), 'malformed', header);
    }
  });

  it('handles header lists', () => {
    const header = `Basic ${encode('a:b')}`;
    assert.deepEqual(parseBasicAuthorization([header]), { username: 'a', password: 'b' });
    assert.equal(parseBasicAuthorization([]), null);
    assert.equal(parseBasicAuthorization([header, header]), 'malformed');
  });

  it('never throws on arbitrary input', () => {
    const alphabet = 'Basic bearer:=+/ \t\n\0é😀ABCxyz0123456789';
    for (let i = 0; i < 3000; i += 1) {
      const bytes = randomBytes(1 + (i % 40));
      const garbage = i % 2 === 0
        ? Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')
        : `Basic ${bytes.toString(i % 3 === 0 ? 'base64' : 'latin1')}`;
      const result = parseBasicAuthorization(garbage);
      assert.ok(result === null || result === 'malformed' || typeof result.username === 'string', garbage);
    }
  });
});
