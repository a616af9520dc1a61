import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  APPLICATION_PASSWORD_LENGTH,
  DEFAULT_SCRYPT_PARAMETERS,
  dummyVerify,
  formatApplicationPassword,
  generateApplicationPassword,
  hashApplicationPassword,
  matchApplicationPassword,
  normalizeApplicationPassword,
  verifyApplicationPassword,
} from '../../src/auth/app-passwords.js';

// Cheap parameters keep most tests fast; verification reads the parameters from the stored hash.
const CHEAP = { N: 1024, r: 8, p: 1 };

describe('generateApplicationPassword', () => {
  it('gives 24 alphanumeric characters', () => {
    for (let i = 0; i < 200; i += 1) {
      const password = generateApplicationPassword();
      assert.equal(password.length, APPLICATION_PASSWORD_LENGTH);
      assert.match(password, /^[A-Za-z0-9]{24}$/);
    }
  });

  it('never repeats and draws from the whole alphabet', () => {
    const passwords = Array.from({ length: 1000 }, () => generateApplicationPassword());
    assert.equal(new Set(passwords).size, passwords.length);
    const seen = new Set(passwords.join(''));
    // 24,000 draws over 62 symbols: a missing symbol would mean a broken alphabet, not bad luck.
    assert.equal(seen.size, 62);
  });
});

describe('formatting and normalising', () => {
  it('groups in fours for display', () => {
    assert.equal(formatApplicationPassword('hMXuJxSuuJv6WbznT0V7KCbk'), 'hMXu JxSu uJv6 Wbzn T0V7 KCbk');
    assert.equal(formatApplicationPassword('hMXu JxSu uJv6 Wbzn T0V7 KCbk'), 'hMXu JxSu uJv6 Wbzn T0V7 KCbk');
    assert.equal(formatApplicationPassword('abcdef'), 'abcd ef');
    assert.equal(formatApplicationPassword(''), '');
  });

  it('strips everything that is not an ASCII letter or digit', () => {
    assert.equal(normalizeApplicationPassword('hMXu JxSu uJv6 Wbzn T0V7 KCbk'), 'hMXuJxSuuJv6WbznT0V7KCbk');
    assert.equal(normalizeApplicationPassword('hMXu-JxSu-uJv6\tWbzn\nT0V7_KCbk'), 'hMXuJxSuuJv6WbznT0V7KCbk');
    assert.equal(normalizeApplicationPassword('ab:cé€d😀'), 'abcd');
  });

  it('round-trips a generated password', () => {
    const password = generateApplicationPassword();
    assert.equal(normalizeApplicationPassword(formatApplicationPassword(password)), password);
  });
});

describe('hashing and verifying', () => {
  it('stores a self-describing scrypt hash, salted per password', async () => {
    const password = generateApplicationPassword();
    const first = await hashApplicationPassword(password, CHEAP);
    const second = await hashApplicationPassword(password, CHEAP);
    assert.match(first, /^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.notEqual(first, second);
    assert.equal(first.includes(password), false);
  });

  it('uses N=2^14, r=8, p=1 by default and verifies with them', async () => {
    assert.deepEqual({ ...DEFAULT_SCRYPT_PARAMETERS }, { N: 16384, r: 8, p: 1 });
    const password = generateApplicationPassword();
    const stored = await hashApplicationPassword(password);
    assert.match(stored, /^scrypt\$16384\$8\$1\$/);
    assert.equal(await verifyApplicationPassword(password, stored), true);
  });

  it('accepts the password in any grouping and rejects anything else', async () => {
    const password = 'hMXuJxSuuJv6WbznT0V7KCbk';
    const stored = await hashApplicationPassword(password, CHEAP);
    assert.equal(await verifyApplicationPassword(password, stored), true);
    assert.equal(await verifyApplicationPassword('hMXu JxSu uJv6 Wbzn T0V7 KCbk', stored), true);
    assert.equal(await verifyApplicationPassword('hMXu-JxSu-uJv6-Wbzn-T0V7-KCbk', stored), true);
    assert.equal(await verifyApplicationPassword('hmxujxsuujv6wbznt0v7kcbk', stored), false);
    assert.equal(await verifyApplicationPassword('hMXuJxSuuJv6WbznT0V7KCb', stored), false);
    assert.equal(await verifyApplicationPassword('', stored), false);
    assert.equal(await verifyApplicationPassword(generateApplicationPassword(), stored), false);
  });

  it('a formatted password hashes the same as its plain form', async () => {
    const stored = await hashApplicationPassword('abcd efgh ijkl mnop qrst uvwx', CHEAP);
    assert.equal(await verifyApplicationPassword('abcdefghijklmnopqrstuvwx', stored), true);
  });

  it('never matches (nor throws on) a damaged or foreign hash', async () => {
    const password = 'abcdefghijklmnopqrstuvwx';
    const stored = await hashApplicationPassword(password, CHEAP);
    const parts = stored.split('$');
    const key = parts[5]!;
    const flipped = (key[0] === 'A' ? 'B' : 'A') + key.slice(1);
    const damaged = [
      [...parts.slice(0, 5), flipped].join('$'),
      stored.replace('scrypt$', 'bcrypt$'),
      stored.replace('$1024$', '$1000$'),
      stored.replace('$1024$', '$1073741824$'),
      stored.replace('$8$1$', '$0$1$'),
      [...parts.slice(0, 5), key.slice(0, 20)].join('$'),
      `${stored}$extra`,
      '$P$BhSAz6Rf2l5zOCi6vHSvUJ1dJQ2lAm/',
      '5f4dcc3b5aa765d61d8327deb882cf99',
      '',
    ];
    for (const hash of damaged) {
      assert.equal(await verifyApplicationPassword(password, hash), false, hash);
    }
  });

  it('refuses to hash with unusable parameters', async () => {
    await assert.rejects(hashApplicationPassword('x', { N: 1000, r: 8, p: 1 }), RangeError);
    await assert.rejects(hashApplicationPassword('x', { N: 1024, r: 0, p: 1 }), RangeError);
  });

  it('dummyVerify always fails', async () => {
    assert.equal(await dummyVerify('abcdefghijklmnopqrstuvwx'), false);
    assert.equal(await dummyVerify(), false);
  });
});

describe('matchApplicationPassword', () => {
  it('finds which stored hash matches, or -1', async () => {
    const passwords = [generateApplicationPassword(), generateApplicationPassword(), generateApplicationPassword()];
    const hashes = await Promise.all(passwords.map((password) => hashApplicationPassword(password, CHEAP)));
    assert.equal(await matchApplicationPassword(passwords[0]!, hashes), 0);
    assert.equal(await matchApplicationPassword(formatApplicationPassword(passwords[2]!), hashes), 2);
    assert.equal(await matchApplicationPassword(generateApplicationPassword(), hashes), -1);
    assert.equal(await matchApplicationPassword(passwords[1]!, [], CHEAP), -1);
  });

  it('does scrypt work even with nothing to compare against', async () => {
    // Parameters scrypt itself refuses (N must be a power of two): the call fails only if scrypt really runs.
    const refused = { N: 3, r: 8, p: 1 };
    await assert.rejects(matchApplicationPassword(generateApplicationPassword(), [], refused));
    await assert.rejects(dummyVerify(generateApplicationPassword(), refused));
  });
});
