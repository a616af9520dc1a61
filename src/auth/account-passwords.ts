import { DEFAULT_SCRYPT_PARAMETERS, hashSecret, verifySecret, type ScryptParameters } from './scrypt.js';

/**
 * Account passwords are stored (hashed, as given) but never accepted over the REST interface, as in the
 * reference; hosts with their own login can check them with `verifyAccountPassword`.
 */
export function hashAccountPassword(
  password: string,
  parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): Promise<string> {
  return hashSecret(password, parameters);
}

export function verifyAccountPassword(password: string, stored: string): Promise<boolean> {
  return verifySecret(password, stored);
}
