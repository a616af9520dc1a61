import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hashAccountPassword, verifyAccountPassword } from '../../src/auth/account-passwords.js';
import { hashApplicationPassword, verifyApplicationPassword } from '../../src/auth/app-passwords.js';

const CHEAP = { N: 1024, r: 8, p: 1 };

describe('account passwords', () => {
  it('are hashed as given: spaces and punctuation count, unlike application passwords', async () => {
    const stored = await hashAccountPassword('correct horse!', CHEAP);
    assert.match(stored, /^scrypt\$1024\$8\$1\$/);
    assert.equal(await verifyAccountPassword('correct horse!', stored), true);
    assert.equal(await verifyAccountPassword('correcthorse', stored), false);
    const application = await hashApplicationPassword('abcd efgh', CHEAP);
    assert.equal(await verifyApplicationPassword('abcd-efgh', application), true);
    assert.equal(await verifyAccountPassword('abcd efgh', application), false);
  });
});
