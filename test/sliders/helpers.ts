import { createCms, type CmsOptions } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import type { StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { send } from '../helpers/request.js';

export const NOW = '2026-11-21T17:11:35Z';
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

/** The stores every slider test runs on. */
export const STORES: readonly { name: string; open: () => StoragePort }[] = [
  { name: 'memory', open: () => createMemoryStorage() },
  { name: 'SQLite', open: () => sqliteStorage({ path: ':memory:' }) },
];

/** A site at http://example.test with a fixed clock and one user per role. */
export async function makeSite(storage: StoragePort, options: Partial<CmsOptions> = {}) {
  const clock = fixedClock(NOW);
  const cms = createCms({ clock, storage, ...options, site: { url: 'http://example.test', ...options.site } });
  const ids = {} as Record<Role, number>;
  for (const role of ROLES) {
    const user = await cms.users.create({ login: role, email: `${role}@example.test`, roles: [role] });
    ids[role] = user.id;
  }
  type Init = Parameters<typeof send>[3];
  /** Sends as the given role, or anonymously with `null`. */
  const as = (role: Role | null) => (method: string, path: string, init: Init = {}) =>
    send(cms, method, path, role === null ? init : { ...init, user: { id: ids[role] } });
  return { cms, clock, ids, storage, as, admin: as('administrator'), anonymous: as(null) };
}

export type Site = Awaited<ReturnType<typeof makeSite>>;

/**
 * The observation's `anchor-hero`: modal cover, a source with an Instagram token, two published slides, one
 * unpublished, one whose window ended in 2020, and a static slide with layers.
 */
export function anchorHero() {
  return {
    alias: 'anchor-hero',
    title: 'Anchor hero',
    settings: {
      layout: { type: 'fullwidth' },
      general: { lazyLoad: 'none', slideshow: { autoPlay: true } },
      modal: { cover: true, bg: 'rgba(0,0,0,0.75)', sp: 2 },
      source: {
        type: 'gallery',
        post: { excerptLimit: 55, maxPosts: 30, category: '3', fetchType: 'cat_tag' },
        instagram: { count: 8, token: 'IGQVJ-secret-token' },
      },
    },
    slides: [
      { slide: { title: 'First', publish: { state: 'published' } }, layers: { 0: { type: 'text', content: { text: 'Hello' } }, 1: { type: 'image', content: { src: 'a.jpg' } } } },
      { slide: { title: 'Second' }, layers: [{ type: 'button', content: { text: 'Go' }, toggle: { set: true } }] },
      { slide: { title: 'Hidden', publish: { state: 'unpublished' } }, layers: [] },
      { slide: { title: 'Expired', publish: { from: '2019-01-01 00:00', to: '2020-06-30 23:59' } }, layers: [] },
      { slide: { title: 'Static', global: true }, layers: [{ type: 'text', content: { text: 'Always' } }] },
    ],
  };
}

/** The observation's `anchor-plain`: no modal cover, one slide without layers. */
export function anchorPlain() {
  return { alias: 'anchor-plain', title: 'Anchor plain', settings: { modal: { cover: false } }, slides: [{ slide: { title: 'Only' } }] };
}
