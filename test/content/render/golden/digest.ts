import { createHash } from 'node:crypto';

/** A short fingerprint of a rendered output: its length and the start of its SHA-256. */
export function digest(output: string): string {
  return `${output.length}:${createHash('sha256').update(output).digest('hex').slice(0, 12)}`;
}
