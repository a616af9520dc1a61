import { randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

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

/** scrypt cost parameters. Stored with every hash, so they can be raised later without breaking old hashes. */
export interface ScryptParameters {
  /** CPU/memory cost, a power of two. */
  N: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

/**
 * N = 2^14, r = 8, p = 1: 16 MiB and about 30 ms per hash on a 2-core machine. Application passwords carry
 * about 143 bits of entropy, so the hash is a second line of defence rather than what keeps guessing out.
 */
export const DEFAULT_SCRYPT_PARAMETERS: Readonly<ScryptParameters> = Object.freeze({ N: 2 ** 14, r: 8, p: 1 });

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const HASH_SCHEME = 'scrypt';

/** Bounds on parameters read back from a stored hash, so a damaged record cannot demand gigabytes. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: parameters.N,
    r: parameters.r,
    p: parameters.p,
    maxmem: 128 * parameters.N * parameters.r * parameters.p + 32 * 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function isPowerOfTwo(value: number): boolean {
  return Number.isInteger(value) && value > 1 && (value & (value - 1)) === 0;
}

function validParameters(parameters: ScryptParameters): boolean {
  return (
    isPowerOfTwo(parameters.N) &&
    parameters.N <= MAX_N &&
    Number.isInteger(parameters.r) &&
    parameters.r >= 1 &&
    parameters.r <= MAX_R &&
    Number.isInteger(parameters.p) &&
    parameters.p >= 1 &&
    parameters.p <= MAX_P
  );
}

/**
 * The stored form of an application password: `scrypt$N$r$p$salt$key` with base64url salt and key. The
 * password is normalised first, like the input it will be compared with.
 */
export async function hashApplicationPassword(
  password: string,
  parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): Promise<string> {
  if (!validParameters(parameters)) throw new RangeError('Invalid scrypt parameters.');
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(normalizeApplicationPassword(password), salt, parameters);
  return [HASH_SCHEME, parameters.N, parameters.r, parameters.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

interface ParsedHash {
  parameters: ScryptParameters;
  salt: Buffer;
  key: Buffer;
}

const DECIMAL = /^[1-9][0-9]{0,9}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6) return null;
  const [scheme, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  if (scheme !== HASH_SCHEME || ![n, r, p].every((part) => DECIMAL.test(part))) return null;
  if (!BASE64URL.test(salt) || !BASE64URL.test(key)) return null;
  const parameters = { N: Number(n), r: Number(r), p: Number(p) };
  if (!validParameters(parameters)) return null;
  const keyBytes = Buffer.from(key, 'base64url');
  if (keyBytes.length !== KEY_BYTES) return null;
  return { parameters, salt: Buffer.from(salt, 'base64url'), key: keyBytes };
}

/**
 * Whether `password` (in any grouping) matches the stored hash, compared in constant time. A hash this module
 * did not produce never matches (after the same amount of work); it does not throw.
 */
export async function verifyApplicationPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (parsed === null) return dummyVerify(password);
  const candidate = await derive(normalizeApplicationPassword(password), parsed.salt, parsed.parameters);
  return timingSafeEqual(candidate, parsed.key);
}

/**
 * The work of one verification with nothing to match, for a login that names no user, so that a failure takes
 * as long whether or not the user exists. Always false.
 */
export async function dummyVerify(
  password = '',
  parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): Promise<boolean> {
  const candidate = await derive(normalizeApplicationPassword(password), randomBytes(SALT_BYTES), parameters);
  timingSafeEqual(candidate, randomBytes(KEY_BYTES));
  return false;
}

/**
 * The index of the first stored hash `password` matches, or -1. Every hash is checked (no early exit), and an
 * empty list costs one dummy verification, so the time taken depends only on how many hashes there are.
 */
export async function matchApplicationPassword(
  password: string,
  storedHashes: readonly string[],
  dummyParameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): Promise<number> {
  if (storedHashes.length === 0) {
    await dummyVerify(password, dummyParameters);
    return -1;
  }
  const results = await Promise.all(storedHashes.map((stored) => verifyApplicationPassword(password, stored)));
  return results.indexOf(true);
}
