import { createPrincipal } from '../../../src/auth/index.js';
import { createCms, type Cms } from '../../../src/cms.js';
import { updateTermCountsForPost } from '../../../src/content/terms/index.js';
import type { Principal } from '../../../src/core/context.js';
import { send } from '../../helpers/request.js';

export const SITE = { url: 'http://example.test' };

export interface TermsFixture {
  cms: Cms;
  admin: Principal;
  editor: Principal;
  author: Principal;
  contributor: Principal;
  subscriber: Principal;
}

export function termsFixture(): TermsFixture {
  const cms = createCms({ site: SITE });
  const user = (id: number, role: string) => createPrincipal({ id, login: role, roles: [role] }, cms.deps.roles);
  return {
    cms,
    admin: user(1, 'administrator'),
    editor: user(2, 'editor'),
    author: user(3, 'author'),
    contributor: user(4, 'contributor'),
    subscriber: user(5, 'subscriber'),
  };
}

/** Creates a term through the API as the administrator and returns its body. */
export async function makeTerm(
  fixture: TermsFixture, base: 'categories' | 'tags', fields: Record<string, unknown>,
): Promise<{ id: number; slug: string; name: string; parent?: number }> {
  const response = await send(fixture.cms, 'POST', `/cms/v2/${base}`, { json: fields, user: fixture.admin });
  if (response.status !== 201) throw new Error(`term not created: ${JSON.stringify(response.json)}`);
  return response.json;
}

/** Stores a post record directly and updates term counts, as the posts module does when it saves one. */
export async function makePost(fixture: TermsFixture, fields: Record<string, unknown>): Promise<number> {
  const storage = fixture.cms.deps.storage;
  const record = await storage.insert('posts', { type: 'post', status: 'publish', author: 1, categories: [], tags: [], ...fields });
  await updateTermCountsForPost(storage, null, record);
  return record.id;
}

export const ids = (body: { id: number }[]) => body.map((entry) => entry.id);
