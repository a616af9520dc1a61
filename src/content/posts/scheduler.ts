/**
 * Scheduled posts go live when their date passes. Nothing runs in the background: every posts or pages
 * request first publishes the records whose time has come, by the injected clock, so no timer keeps a process
 * alive and tests move time with a fixed clock.
 */
import type { Principal, RequestContext, Services } from '../../core/context.js';
import type { StoragePort } from '../../ports/storage.js';
import { formatUtc, parseStored } from './dates.js';
import { emitSaved } from './events.js';
import { POSTS_COLLECTION, type PostRecord } from './record.js';

/** Publishes every `future` record whose GMT date is not after `now`; returns how many went live. */
export async function publishDuePosts(
  storage: StoragePort, services: Services, now: Date, options: { user?: Principal | null; home?: string } = {},
): Promise<number> {
  const due = {
    where: [
      { field: 'status', op: 'eq' as const, value: 'future' },
      { field: 'date_gmt', op: 'lte' as const, value: formatUtc(now) },
    ],
    orderBy: [{ field: 'date_gmt', direction: 'asc' as const }],
  };
  // The common case, nothing due, costs one bounded index probe.
  const { items: probe } = await storage.list(POSTS_COLLECTION, { ...due, limit: 1 });
  if (probe.length === 0) return 0;
  return storage.transaction(async (tx) => {
    const { items } = await tx.list(POSTS_COLLECTION, due);
    for (const item of items) {
      const previous = item as PostRecord;
      const published = (await tx.update(POSTS_COLLECTION, previous.id, { status: 'publish' })) as PostRecord;
      await emitSaved(services, {
        storage: tx, post: published, previous, reason: 'scheduled-publish', user: options.user ?? null, now,
        ...(options.home === undefined ? {} : { home: options.home }),
      });
    }
    return items.length;
  });
}

/** Runs the publishing pass once per request, however many checks and handlers ask for it. */
export function publishDueOnce(context: Pick<RequestContext, 'services' | 'site' | 'memo'>): Promise<number> {
  const { services } = context;
  return context.memo('posts:publish-due', () => publishDuePosts(services.storage, services, services.clock.now(), { home: context.site.home }));
}

/**
 * When the earliest scheduled record goes live (epoch milliseconds), or null when none is scheduled: until then
 * no answer can change by the clock alone (the response cache keeps answers no longer).
 */
export async function nextScheduledPublish(storage: StoragePort): Promise<number | null> {
  const { items } = await storage.list(POSTS_COLLECTION, {
    where: [
      { field: 'status', op: 'eq', value: 'future' },
      // Every string is at least '': records without a GMT date never go live, so they set no deadline.
      { field: 'date_gmt', op: 'gte', value: '' },
    ],
    orderBy: [{ field: 'date_gmt', direction: 'asc' }],
    limit: 1,
  });
  const first = items[0]?.date_gmt;
  return typeof first === 'string' ? parseStored(first).getTime() : null;
}
