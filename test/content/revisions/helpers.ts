import { createCms, type CmsOptions } from '../../../src/cms.js';
import { fixedClock } from '../../../src/ports/clock.js';
import { send } from '../../helpers/request.js';

export const NOW = '2026-11-21T17:11:35Z';
export const API = 'http://example.test/cms-json';

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

/** A site at http://example.test (UTC) with one user per role, a second author and a fixed clock. */
export async function makeSite(options: Partial<CmsOptions> = {}) {
  const clock = fixedClock(NOW);
  const cms = createCms({ clock, ...options, site: { url: 'http://example.test', ...options.site } });
  const ids = {} as Record<Role | 'author2', number>;
  for (const role of ROLES) {
    ids[role] = (await cms.users.create({ login: role, email: `${role}@example.test`, roles: [role] })).id;
  }
  ids.author2 = (await cms.users.create({ login: 'author2', email: 'author2@example.test', roles: ['author'] })).id;
  type Init = Parameters<typeof send>[3];
  /** Sends as the given user, or anonymously with `null`. */
  const as = (who: Role | 'author2' | null) => (method: string, path: string, init: Init = {}) =>
    send(cms, method, path, who === null ? init : { ...init, user: { id: ids[who] } });
  /** Creates a post (or page) as the administrator unless `as` says otherwise; returns the response body. */
  async function create(fields: Record<string, unknown>, { by = 'administrator', base = 'posts' }: { by?: Role | 'author2'; base?: string } = {}) {
    const response = await as(by)('POST', `/cms/v2/${base}`, { json: fields });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.json)}`);
    return response.json;
  }
  /** Updates a post (or page) and insists on success. */
  async function update(id: number, fields: Record<string, unknown>, { by = 'administrator', base = 'posts' }: { by?: Role | 'author2'; base?: string } = {}) {
    const response = await as(by)('POST', `/cms/v2/${base}/${id}`, { json: fields });
    if (response.status !== 200) throw new Error(`update failed: ${response.status} ${JSON.stringify(response.json)}`);
    return response.json;
  }
  /** Every revision record of a post, straight from storage, oldest first. */
  async function storedRevisions(parent: number) {
    const { items } = await cms.deps.storage.list('posts', {
      where: [{ field: 'parent', op: 'eq', value: parent }, { field: 'type', op: 'eq', value: 'revision' }],
    });
    return items;
  }
  return { cms, clock, ids, as, admin: as('administrator'), anonymous: as(null), create, update, storedRevisions };
}

export type Site = Awaited<ReturnType<typeof makeSite>>;

export function ids(body: unknown): number[] {
  return (body as { id: number }[]).map((item) => item.id);
}
