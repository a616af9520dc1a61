import { createCms, type Cms, type CmsOptions } from '../../../src/cms.js';
import type { PostSettings } from '../../../src/content/post-type/index.js';
import { fixedClock } from '../../../src/ports/clock.js';
import { send } from '../../helpers/request.js';

export const NOW = '2026-11-21T17:11:35Z';

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

/** A site at http://example.test (UTC unless told otherwise) with one user per role and a fixed clock. */
export async function makeSite(options: Partial<CmsOptions> = {}) {
  const clock = fixedClock(NOW);
  const settings: CmsOptions = { clock, ...options, site: { url: 'http://example.test', ...options.site } };
  const cms = createCms(settings);
  const ids = {} as Record<Role, number>;
  for (const role of ROLES) {
    const user = await cms.users.create({ login: role, email: `${role}@example.test`, roles: [role] });
    ids[role] = user.id;
  }
  const site = siteOver(cms, ids);
  /** The same site (storage, clock, users) served by another instance with these post settings. */
  const withPostSettings = (posts: PostSettings) => siteOver(createCms({ ...settings, storage: cms.deps.storage, posts }), ids);
  return { ...site, clock, withPostSettings };
}

function siteOver(cms: Cms, ids: Record<Role, number>) {
  type Init = Parameters<typeof send>[3];
  /** Sends as the given role, or anonymously with `null`. */
  const as = (role: Role | null) => (method: string, path: string, init: Init = {}) =>
    send(cms, method, path, role === null ? init : { ...init, user: { id: ids[role] } });
  const admin = as('administrator');
  /** Creates a post (or page) as the administrator unless `role` says otherwise; returns the response body. */
  async function create(fields: Record<string, unknown>, { role = 'administrator', base = 'posts' }: { role?: Role; base?: string } = {}) {
    const response = await as(role)('POST', `/cms/v2/${base}`, { json: fields });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.json)}`);
    return response.json;
  }
  return { cms, ids, as, admin, anonymous: as(null), create };
}

export type Site = Awaited<ReturnType<typeof makeSite>>;

export function ids(body: unknown): number[] {
  return (body as { id: number }[]).map((item) => item.id);
}
