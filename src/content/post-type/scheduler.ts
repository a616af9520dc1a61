/**
 * Scheduled posts go live when their date passes. Nothing runs in the background, so no timer keeps a process
 * alive and tests move time with a fixed clock. Two parts, neither of them a permission check:
 * - reading: a `future` record whose date has passed reads as published (`asPublishedWhenDue`), so checks and
 *   answers agree with the clock before anything is written;
 * - writing: the route tables of the resources made of post-type records pass through `publishingDuePosts`,
 *   so every handler runs after the due records are stored and the `saved` listeners told
 *   (`scheduled-publish`), once per request. No handler calls the scheduler; permission checks run before it.
 */
import type { Principal, RequestContext } from '../../core/context.js';
import type { RouteTable } from '../../core/registry.js';
import type { ListQuery, StoragePort } from '../../ports/storage.js';
import { formatUtc, parseStored } from './dates.js';
import type { PostTypeDeps } from './define.js';
import { KeptFacts, type StoreWrite } from '../../core/kept-facts.js';
import { POSTS_COLLECTION, postsIn, type PostRecord } from './record.js';

/** The `future` records whose GMT date is not after `now`, oldest first. */
function dueQuery(now: Date, limit?: number): ListQuery {
  const query: ListQuery = {
    where: [
      { field: 'status', op: 'eq', value: 'future' },
      { field: 'date_gmt', op: 'lte', value: formatUtc(now) },
    ],
    orderBy: [{ field: 'date_gmt', direction: 'asc' }],
  };
  if (limit !== undefined) query.limit = limit;
  return query;
}

/** Publishes every `future` record whose GMT date is not after `now`; returns how many went live. */
export async function publishDuePosts(
  deps: Pick<PostTypeDeps, 'storage' | 'postEvents'>, now: Date, options: { user?: Principal | null; home?: string } = {},
): Promise<number> {
  const { storage } = deps;
  // The common case, nothing due, costs one bounded index probe.
  const { items: probe } = await postsIn(storage).list(dueQuery(now, 1));
  if (probe.length === 0) return 0;
  const due = dueQuery(now);
  return storage.transaction(async (tx) => {
    const posts = postsIn(tx);
    const { items } = await posts.list(due);
    for (const previous of items) {
      const published = await posts.update(previous.id, { status: 'publish' });
      if (!published) continue;
      await deps.postEvents.emitSaved({
        storage: tx, post: published, previous, reason: 'scheduled-publish', user: options.user ?? null, now,
        ...(options.home === undefined ? {} : { home: options.home }),
      });
    }
    return items.length;
  });
}

/** The request's "now" for scheduling, read from the clock once so checks and handlers agree. */
export function requestNow(context: Pick<RequestContext, 'memo'>, deps: Pick<PostTypeDeps, 'clock'>): Date {
  return context.memo('posts:now', () => deps.clock.now());
}

/**
 * Runs the publishing pass once per request, however many handlers ask for it; not at all while the core's
 * generation tells that nothing can be due (the store unchanged, the clock before the next scheduled date).
 */
function publishDueOnce(context: Pick<RequestContext, 'site' | 'memo' | 'nothingDue'>, deps: Pick<PostTypeDeps, 'storage' | 'postEvents' | 'clock'>): Promise<number> {
  return context.memo('posts:publish-due', async () => (await context.nothingDue()) ? 0 : publishDuePosts(deps, requestNow(context, deps), { home: context.site.home }));
}

/** A `future` record whose date has passed, as it reads once published; any other record as it is. */
export function asPublishedWhenDue<T extends PostRecord>(record: T, now: Date): T {
  if (record.status !== 'future' || record.date_gmt === null || record.date_gmt > formatUtc(now)) return record;
  return { ...record, status: 'publish' };
}

/**
 * When the earliest scheduled record goes live (epoch milliseconds), or null when none is scheduled: until then
 * no answer can change by the clock alone (the response cache keeps answers no longer).
 */
export async function nextScheduledPublish(storage: StoragePort): Promise<number | null> {
  const { items } = await postsIn(storage).list({
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

/**
 * `nextScheduledPublish` for the store's state `token`, kept across states while no write touched a scheduled
 * record (one scheduled before or after it): no other write can change it. `nextScheduledNow` tells it without
 * waiting where it is kept (undefined where not).
 */
export function keptNextScheduled(storage: StoragePort): {
  nextScheduled: (token: string) => Promise<number | null>;
  nextScheduledNow: (token: string) => number | null | undefined;
} {
  const kept = storage.writtenSince ? new KeptFacts<'next', number | null>(storage, forgetNextScheduled) : null;
  const nextScheduledNow = (token: string) => kept?.at(token).get('next');
  return {
    nextScheduled: async (token) => {
      const known = nextScheduledNow(token);
      if (known !== undefined) return known;
      const next = await nextScheduledPublish(storage);
      kept?.keep(token, 'next', next);
      return next;
    },
    nextScheduledNow,
  };
}

function forgetNextScheduled(write: StoreWrite, facts: Map<'next', number | null>): void {
  if (write.collection === POSTS_COLLECTION && (write.before?.status === 'future' || write.after?.status === 'future')) facts.clear();
}

type SchedulerDeps = Pick<PostTypeDeps, 'storage' | 'postEvents' | 'clock'>;

async function publishedThen(context: RequestContext, deps: SchedulerDeps, handler: (context: RequestContext) => unknown): Promise<unknown> {
  await publishDueOnce(context, deps);
  // Awaited rather than handed on: an async function answering with a promise takes two more turns.
  return await handler(context);
}

/**
 * The route table with every handler run after the due scheduled records of `deps.storage` are stored: where
 * requests enter the post store, so no handler has to remember it.
 */
export function publishingDuePosts(table: RouteTable, deps: SchedulerDeps): RouteTable {
  return table.map((route) => ({
    ...route,
    endpoints: route.endpoints.map((endpoint) => {
      const { handler } = endpoint;
      return {
        ...endpoint,
        // While nothing can be due (known without waiting: most reads) the handler runs at once, its answer handed on.
        handler: (context: RequestContext) => (context.nothingDueNow() ? handler(context) : publishedThen(context, deps, handler)),
      };
    }),
  }));
}
