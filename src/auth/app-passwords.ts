import { createHash, randomInt } from 'node:crypto';
import {
  DEFAULT_SCRYPT_PARAMETERS,
  dummyScrypt,
  hashSecret,
  verifySecret,
  type ScryptParameters,
} from './scrypt.js';

export { DEFAULT_SCRYPT_PARAMETERS, type ScryptParameters } from './scrypt.js';

/** Generated application passwords have exactly this many characters. */
export const APPLICATION_PASSWORD_LENGTH = 24;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A fresh application password: 24 characters from `[A-Za-z0-9]`, each drawn uniformly by the CSPRNG. */
export function generateApplicationPassword(): string {
  let password = '';
  for (let index = 0; index < APPLICATION_PASSWORD_LENGTH; index += 1) {
    password += ALPHABET.charAt(randomInt(ALPHABET.length));
  }
  return password;
}

/** Drops every character that is not an ASCII letter or digit, so grouped, dashed and plain input all match. */
export function normalizeApplicationPassword(input: string): string {
  return input.replace(/[^A-Za-z0-9]/g, '');
}

/** The display form, in groups of four: `abcd efgh ijkl mnop qrst uvwx`. */
export function formatApplicationPassword(password: string): string {
  return normalizeApplicationPassword(password).replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The stored form of an application password: `scrypt$N$r$p$salt$key` with base64url salt and key. The
 * password is normalised first, like the input it will be compared with.
 */
export function hashApplicationPassword(
  password: string,
  parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): Promise<string> {
  return hashSecret(normalizeApplicationPassword(password), parameters);
}

/**
 * Whether `password` (in any grouping) matches the stored hash, compared in constant time. A hash this module
 * did not produce never matches (after the same amount of work); it does not throw.
 */
export function verifyApplicationPassword(password: string, stored: string): Promise<boolean> {
  return verifySecret(normalizeApplicationPassword(password), stored);
}

/**
 * The work of one verification with nothing to match, for a login that names no user, so that a failure takes
 * as long whether or not the user exists. Always false.
 */
export function dummyVerify(password = '', parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS): Promise<boolean> {
  return dummyScrypt(normalizeApplicationPassword(password), parameters);
}

/**
 * A short digest of the normalised password (16 bits, 4 hex digits), stored beside its hash so that a login
 * verifies only the one hash it can match: a wrong password then costs one hash however many the user holds. It
 * is unkeyed (it must mean the same in every process and after restarts) and too short to help guessing:
 * generated passwords keep 127 of their 143 bits unknown to whoever reads it. A user's passwords have distinct tags.
 */
export function applicationPasswordLookupTag(password: string): string {
  return createHash('sha256').update('quire application password\u0000').update(normalizeApplicationPassword(password)).digest('hex').slice(0, 4);
}

/**
 * The index of the stored hash `password` matches, or -1. With `lookupTags` (parallel to `storedHashes`), only
 * the hashes whose tag is the password's (or that have none, as stored before tags existed) are verified, so a
 * user whose passwords all have tags costs one verification; without, every hash is. No early exit, and no
 * candidate costs one dummy verification, so the time taken depends only on how many candidates there are.
 */
export async function matchApplicationPassword(
  password: string,
  storedHashes: readonly string[],
  dummyParameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
  lookupTags?: readonly (string | undefined)[],
): Promise<number> {
  const tag = lookupTags === undefined ? undefined : applicationPasswordLookupTag(password);
  const candidates = storedHashes.flatMap((_, index) => {
    const stored = lookupTags?.[index];
    return lookupTags === undefined || stored === undefined || stored === tag ? [index] : [];
  });
  if (candidates.length === 0) {
    await dummyVerify(password, dummyParameters);
    return -1;
  }
  const results = await Promise.all(candidates.map((index) => verifyApplicationPassword(password, storedHashes[index]!)));
  const found = results.indexOf(true);
  return found === -1 ? -1 : candidates[found]!;
}
