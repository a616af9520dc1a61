import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  invalidApplicationPasswordError,
  loginWithApplicationPassword,
  type ApplicationPasswordDirectory,
  type ApplicationPasswordHolder,
} from '../../src/auth/app-password-login.js';
import { formatApplicationPassword, generateApplicationPassword, hashApplicationPassword } from '../../src/auth/app-passwords.js';
import { parseBasicAuthorization } from '../../src/auth/basic.js';

const CHEAP = { N: 1024, r: 8, p: 1 };

interface StoredUser {
  id: number;
  login: string;
  email: string;
  passwordHashes: string[];
}

function directoryOf(users: StoredUser[]) {
  const lookups: string[] = [];
  const holder = (user: StoredUser | undefined): ApplicationPasswordHolder<StoredUser> | null =>
    user === undefined ? null : { user, passwordHashes: user.passwordHashes };
  const directory: ApplicationPasswordDirectory<StoredUser> = {
    findByLogin: (login) => {
      lookups.push(`login:${login}`);
      return holder(users.find((user) => user.login.toLowerCase() === login.toLowerCase()));
    },
    findByEmail: async (email) => {
      lookups.push(`email:${email}`);
      return holder(users.find((user) => user.email.toLowerCase() === email.toLowerCase()));
    },
  };
  return { directory, lookups };
}

const first = generateApplicationPassword();
const second = generateApplicationPassword();
const ana: StoredUser = {
  id: 3,
  login: 'ana',
  email: 'ana@example.com',
  passwordHashes: [await hashApplicationPassword(first, CHEAP), await hashApplicationPassword(second, CHEAP)],
};
const bo: StoredUser = { id: 4, login: 'bo@example.com', email: 'other@example.com', passwordHashes: [] };

describe('loginWithApplicationPassword', () => {
  it('accepts the login with any of the user\'s application passwords, in any grouping', async () => {
    const { directory } = directoryOf([ana]);
    assert.deepEqual(await loginWithApplicationPassword({ username: 'ana', password: first }, directory), {
      user: ana,
      passwordIndex: 0,
    });
    const grouped = formatApplicationPassword(second);
    assert.deepEqual(await loginWithApplicationPassword({ username: 'ANA', password: grouped }, directory), {
      user: ana,
      passwordIndex: 1,
    });
  });

  it('falls back to the email address only when no login matches and it looks like one', async () => {
    const { directory, lookups } = directoryOf([ana, bo]);
    const byEmail = await loginWithApplicationPassword({ username: 'ana@example.com', password: first }, directory);
    assert.equal(byEmail?.user, ana);
    assert.deepEqual(lookups, ['login:ana@example.com', 'email:ana@example.com']);

    lookups.length = 0;
    assert.equal(await loginWithApplicationPassword({ username: 'nobody', password: first }, directory), null);
    assert.deepEqual(lookups, ['login:nobody']);

    lookups.length = 0;
    assert.equal(await loginWithApplicationPassword({ username: 'bo@example.com', password: first }, directory), null);
    assert.deepEqual(lookups, ['login:bo@example.com']);
  });

  it('answers null for a wrong password, an unknown user, a user without passwords and an empty login', async () => {
    const { directory, lookups } = directoryOf([ana, bo]);
    const attempts = [
      { username: 'ana', password: generateApplicationPassword() },
      { username: 'ana', password: '' },
      { username: 'ana', password: first.slice(0, 23) },
      { username: 'ghost', password: first },
      { username: 'ghost@example.com', password: first },
      { username: 'bo@example.com', password: first },
      { username: '', password: first },
    ];
    for (const credentials of attempts) {
      assert.equal(await loginWithApplicationPassword(credentials, directory), null, JSON.stringify(credentials));
    }
    assert.equal(lookups.includes('login:'), false);
  });

  it('turns every bad Basic header into the same outcome without throwing', async () => {
    const { directory } = directoryOf([ana]);
    const headers = [
      `Basic ${Buffer.from(`ana:${generateApplicationPassword()}`).toString('base64')}`,
      `Basic ${Buffer.from(`ghost:${first}`).toString('base64')}`,
      'Basic ',
      'Basic !!!!',
      `Basic ${Buffer.from('ana').toString('base64')}`,
      `Basic ${Buffer.from(':').toString('base64')}`,
    ];
    const outcomes: unknown[] = [];
    for (const header of headers) {
      const parsed = parseBasicAuthorization(header);
      assert.notEqual(parsed, null, header);
      const login = parsed === null || parsed === 'malformed' ? null : await loginWithApplicationPassword(parsed, directory);
      outcomes.push(login === null ? invalidApplicationPasswordError().toBody() : login);
    }
    const expected = {
      code: 'incorrect_password',
      message: 'The provided password is an invalid application password.',
      data: { status: 401 },
    };
    for (const outcome of outcomes) assert.deepEqual(outcome, expected);
  });

  it('the failure error is a 401 incorrect_password', () => {
    const error = invalidApplicationPasswordError();
    assert.equal(error.status, 401);
    assert.equal(error.code, 'incorrect_password');
    assert.equal(error.message, 'The provided password is an invalid application password.');
  });
});
