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

/** Passwords stored without a lookup tag that one attempt verifies, besides the one tagged like the password. */
export const UNTAGGED_VERIFIED_PER_ATTEMPT = 1;

/**
 * The index of the stored hash `password` matches, or -1. With `lookupTags` (parallel to `storedHashes`), a
 * login verifies the one hash tagged like the password (or, when none is, one dummy hash) and, of the hashes
 * stored without a tag (before tags existed), only the most recently used one (`lastUsed`, parallel, GMT
 * `YYYY-MM-DDTHH:MM:SS`; the latest stored first among equals): a wrong password costs at most two hashes
 * however many the user holds. The others wait until the ones before them are used, and tagged, or revoked.
 * Without `lookupTags`, every hash is verified. No early exit, so the time taken depends only on how many
 * hashes are verified, never on which tag the password has.
 */
export async function matchApplicationPassword(
  password: string,
  storedHashes: readonly string[],
  dummyParameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
  lookupTags?: readonly (string | undefined)[],
  lastUsed?: readonly (string | null | undefined)[],
): Promise<number> {
  const indexes = storedHashes.map((_, index) => index);
  let candidates = indexes;
  // Stands in for the tagged hash when none has the password's tag (and for everything when there is nothing).
  let dummies = storedHashes.length === 0 ? 1 : 0;
  if (lookupTags !== undefined) {
    const tag = applicationPasswordLookupTag(password);
    const tagged = indexes.filter((index) => lookupTags[index] === tag).slice(0, 1);
    const untagged = indexes
      .filter((index) => lookupTags[index] === undefined)
      .sort((left, right) => (lastUsed?.[right] ?? '').localeCompare(lastUsed?.[left] ?? '') || right - left)
      .slice(0, UNTAGGED_VERIFIED_PER_ATTEMPT);
    candidates = [...tagged, ...untagged];
    dummies = tagged.length === 0 ? 1 : 0;
  }
  const [results] = await Promise.all([
    Promise.all(candidates.map((index) => verifyApplicationPassword(password, storedHashes[index]!))),
    Promise.all(Array.from({ length: dummies }, () => dummyVerify(password, dummyParameters))),
  ]);
  const found = results.indexOf(true);
  return found === -1 ? -1 : candidates[found]!;
}
