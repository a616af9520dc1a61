import { createCms, type CmsOptions } from '../../src/cms.js';
import { createMemoryOutbox } from '../../src/mail/index.js';
import { fixedClock } from '../../src/ports/clock.js';
import type { StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { send } from '../helpers/request.js';

export const NOW = '2026-11-21T17:11:35Z';
export const NOW_SECONDS = Date.parse(NOW) / 1000;
export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0';

export const STORES: [string, () => StoragePort][] = [
  ['memory', () => createMemoryStorage()],
  ['sqlite', () => sqliteStorage({ path: ':memory:' })],
];

type Init = Parameters<typeof send>[3];

/** A site at http://example.test with an outbox, a fixed clock, and one user per role. */
export async function makeMailingSite(options: Partial<CmsOptions> = {}) {
  const clock = fixedClock(NOW);
  const outbox = createMemoryOutbox();
  const cms = createCms({ clock, mailer: outbox, ...options, site: { url: 'http://example.test', name: 'Example News', ...options.site } });
  const ids: Record<string, number> = {};
  for (const role of ['administrator', 'editor', 'subscriber']) {
    ids[role] = (await cms.users.create({ login: role, email: `${role}@example.test`, roles: [role] })).id;
  }
  const as = (role: string | null) => (method: string, path: string, init: Init = {}) =>
    send(cms, method, path, role === null ? init : { ...init, user: { id: ids[role]! } });
  const admin = as('administrator');

  /** Creates a sign-up form through the admin route; returns its id. */
  async function createForm(body: Record<string, unknown> = {}): Promise<number> {
    const response = await admin('POST', '/mailing/v1/forms', { json: { title: 'Newsletter', settings: { lists: ['list01'] }, ...body } });
    if (response.status !== 201) throw new Error(`form create failed: ${response.status} ${JSON.stringify(response.json)}`);
    return response.json.id;
  }

  /** Posts a urlencoded sign-up with a browser user agent unless told otherwise. */
  function signup(fields: Record<string, string | string[]>, init: { headers?: Record<string, string>; role?: string | null; remoteAddress?: string } = {}) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) {
      if (Array.isArray(value)) for (const item of value) body.append(name, item);
      else body.append(name, value);
    }
    return as(init.role ?? null)('POST', '/mailing/v1/form', {
      form: body.toString(), headers: { 'user-agent': BROWSER, ...init.headers }, ...(init.remoteAddress ? { remoteAddress: init.remoteAddress } : {}),
    });
  }

  /** The hidden fields of a rendered form, rendered a minute ago. */
  const hidden = (formId: number | string) => ({
    _mc4wp_form_id: String(formId), _mc4wp_timestamp: String(NOW_SECONDS - 60), _mc4wp_honeypot: '',
  });

  async function subscribers(list: string) {
    const response = await admin('GET', `/mailing/v1/subscribers?list=${list}&per_page=100`);
    if (response.status !== 200) throw new Error(`subscribers failed: ${response.status} ${JSON.stringify(response.json)}`);
    return response.json as Record<string, any>[];
  }

  return { cms, clock, outbox, ids, as, admin, anonymous: as(null), createForm, signup, hidden, subscribers };
}

export type MailingSite = Awaited<ReturnType<typeof makeMailingSite>>;

/** The path and query of a link from a message, relative to the API root. */
export function apiPathOf(link: string): string {
  const url = new URL(link);
  return url.pathname.replace(/^\/cms-json/, '') + url.search;
}

export function linksIn(text: string): { confirm: string; unsubscribe: string } {
  const confirm = /https?:\/\/\S+\/mailing\/v1\/confirm\?token=\S+/.exec(text)?.[0];
  const unsubscribe = /https?:\/\/\S+\/mailing\/v1\/unsubscribe\?token=\S+/.exec(text)?.[0];
  if (!confirm || !unsubscribe) throw new Error(`no links in: ${text}`);
  return { confirm: apiPathOf(confirm), unsubscribe: apiPathOf(unsubscribe) };
}
