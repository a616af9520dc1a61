import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

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

function derive(secret: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: parameters.N,
    r: parameters.r,
    p: parameters.p,
    maxmem: 128 * parameters.N * parameters.r * parameters.p + 32 * 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
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

/** The stored form of a secret: `scrypt$N$r$p$salt$key` with base64url salt and key. */
export async function hashSecret(
  secret: string,
  parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): Promise<string> {
  if (!validParameters(parameters)) throw new RangeError('Invalid scrypt parameters.');
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(secret, salt, parameters);
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
 * Whether `secret` matches the stored hash, compared in constant time. A hash this module did not produce
 * never matches (after the same amount of work); it does not throw.
 */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (parsed === null) return dummyScrypt(secret);
  const candidate = await derive(secret, parsed.salt, parsed.parameters);
  return timingSafeEqual(candidate, parsed.key);
}

/** The work of one verification with nothing to match. Always false. */
export async function dummyScrypt(
  secret = '',
  parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): Promise<boolean> {
  const candidate = await derive(secret, randomBytes(SALT_BYTES), parameters);
  timingSafeEqual(candidate, randomBytes(KEY_BYTES));
  return false;
}
