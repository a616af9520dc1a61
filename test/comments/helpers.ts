import { describe } from 'node:test';
import type { CmsOptions } from '../../src/cms.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { makeSite, type Role } from '../content/posts/helpers.js';

export { NOW, ROLES, type Role } from '../content/posts/helpers.js';

export const STORES = ['memory', 'sqlite'] as const;
export type StoreName = (typeof STORES)[number];

/** Runs a suite once on the memory store and once on SQLite. */
export function onEachStore(title: string, suite: (store: StoreName) => void): void {
  for (const store of STORES) describe(`${title} (${store})`, () => suite(store));
}

/** A site with one user per role, on the given store; comments are not throttled unless asked. */
export async function makeCommentSite(store: StoreName, options: Partial<CmsOptions> = {}) {
  const storage = store === 'sqlite' ? sqliteStorage({ path: ':memory:' }) : undefined;
  const site = await makeSite({ ...options, ...(storage ? { storage } : {}), comments: { floodSeconds: 0, ...options.comments } });
  /** Creates a comment over REST as the role (administrator by default) and returns its body. */
  async function comment(fields: Record<string, unknown>, role: Role | null = 'administrator') {
    const response = await site.as(role)('POST', '/cms/v2/comments', { json: fields });
    if (response.status !== 201) throw new Error(`comment failed: ${response.status} ${JSON.stringify(response.json)}`);
    return response.json;
  }
  return { ...site, comment };
}

export type CommentSite = Awaited<ReturnType<typeof makeCommentSite>>;

export function ids(body: unknown): number[] {
  return (body as { id: number }[]).map((item) => item.id);
}
