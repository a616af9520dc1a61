import { createCms, type CmsOptions } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import { send } from '../helpers/request.js';

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];
export type Actor = Role | 'anonymous';
export const ACTORS: readonly Actor[] = [...ROLES, 'anonymous'];

export function basic(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}

export interface Member {
  id: number;
  login: string;
  email: string;
  /** The application password, in display form. */
  password: string;
  headers: Record<string, string>;
}

/** A site with one user per default role (login = role name), each with an application password. */
export async function siteWithMembers(options: CmsOptions = {}) {
  const clock = fixedClock('2024-05-06T07:08:09Z');
  const cms = createCms({ site: { url: 'http://example.test' }, clock, ...options });
  const members = {} as Record<Role, Member>;
  for (const role of ROLES) {
    const email = `${role}@example.test`;
    const user = await cms.users.create({ login: role, email, roles: [role], name: `The ${role}` });
    const { password } = await cms.users.createApplicationPassword(user.id, { name: 'tests' });
    members[role] = { id: user.id, login: role, email, password, headers: basic(role, password) };
  }
  const headersOf = (actor: Actor) => (actor === 'anonymous' ? {} : members[actor].headers);
  const request = (actor: Actor, method: string, path: string, init: { json?: unknown } = {}) =>
    send(cms, method, path, { ...init, headers: headersOf(actor) });
  return { cms, clock, members, headersOf, request };
}

/** A post record straight into the posts collection (the content module owns its routes). */
export async function addPost(
  cms: Awaited<ReturnType<typeof siteWithMembers>>['cms'],
  post: { author: number; status?: string; type?: string; parent?: number },
) {
  return cms.deps.storage.insert('posts', { type: 'post', status: 'publish', ...post });
}
