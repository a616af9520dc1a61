/**
 * When the local provider last mailed a confirmation to an address, whatever the lists: one record per
 * (lower-cased) address in `mailing_confirmations`, found by its `slug` (the address), which the SQL stores index.
 */
import type { StoragePort } from '../../../ports/storage.js';

export const MAILED_COLLECTION = 'mailing_confirmations';

interface MailedRecord {
  id: number;
  slug: string;
  /** UTC, `YYYY-MM-DDTHH:MM:SS`. */
  sent: string;
}

async function findMailed(storage: StoragePort, email: string): Promise<MailedRecord | null> {
  const { items } = await storage.list(MAILED_COLLECTION, { where: [{ field: 'slug', op: 'eq', value: email }], limit: 1 });
  return (items[0] as MailedRecord | undefined) ?? null;
}

/** When the last confirmation went to the address (UTC), or null. */
export async function lastMailed(storage: StoragePort, email: string): Promise<string | null> {
  return (await findMailed(storage, email))?.sent ?? null;
}

export async function noteMailed(storage: StoragePort, email: string, sent: string): Promise<void> {
  const found = await findMailed(storage, email);
  if (found) await storage.update(MAILED_COLLECTION, found.id, { sent });
  else await storage.insert(MAILED_COLLECTION, { slug: email, sent });
}

/** The message could not be sent: the address may be mailed again at once. */
export async function forgetMailed(storage: StoragePort, email: string): Promise<void> {
  const found = await findMailed(storage, email);
  if (found) await storage.remove(MAILED_COLLECTION, found.id);
}
