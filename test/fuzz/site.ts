import { encodePng, Image } from 'image-js';
import { createCms, type Cms } from '../../src/cms.js';
import type { CmsRequest } from '../../src/core/types.js';
import { fixedClock } from '../../src/ports/clock.js';
import { OutboundError, type HttpClient } from '../../src/ports/http-client.js';
import type { StoragePort } from '../../src/ports/storage.js';
import { createMemoryBlobStore } from '../../src/storage/blobs/index.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';

export const NOW = '2026-11-21T17:11:35Z';
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];
export type StoreKind = 'memory' | 'sqlite';

/** Statuses seeded for posts and pages; `protected` is a published item with a password. */
export const SEEDED_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'protected'] as const;
export const POST_PASSWORD = 'open sesame';

export interface SeededUser {
  id: number;
  login: string;
  /** An application password of the user, in its display form. */
  appPassword: string;
  uuid: string;
}

/** What the seeded site holds, as pools the request generator draws identifiers and words from. */
export interface SeededSite {
  cms: Cms;
  store: StoreKind;
  users: Record<Role, SeededUser>;
  ids: {
    post: number[];
    page: number[];
    media: number[];
    category: number[];
    tag: number[];
    user: number[];
    revision: number[];
    autosave: number[];
  };
  uuids: string[];
  /** Revisions and autosaves with the post or page they belong to. */
  children: { base: 'posts' | 'pages'; kind: 'revisions' | 'autosaves'; parent: number; id: number }[];
  /** Addresses of the seeded media files. */
  mediaUrls: string[];
  /** Words that occur in seeded titles, content and captions (search probes). */
  words: string[];
  /** Unexpected errors the site reported through `onError` since the last `takeErrors()`. */
  takeErrors(): unknown[];
  close(): Promise<void>;
}

/** A tiny PNG, used for uploads and as what the fixture image host serves. */
export const TINY_PNG: Uint8Array = (() => {
  const image = new Image(4, 3, { colorModel: 'RGB' });
  for (let x = 0; x < 4; x++) for (let y = 0; y < 3; y++) image.setPixel(x, y, [x * 60, y * 80, 200]);
  return encodePng(image);
})();

/**
 * Outbound HTTP for sideloads and embeds, without a network: `http://images.test/…` serves the tiny PNG,
 * `http://empty.test/…` an empty 200, `http://missing.test/…` a 404; anything else fails as an unknown host.
 */
export const fixtureHttpClient: HttpClient = {
  async fetch(request) {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new OutboundError('invalid_url', 'Not a URL.', request.url);
    }
    const answer = (status: number, type: string, body: Uint8Array) => ({ status, headers: { 'content-type': type }, body, url: request.url });
    if (url.hostname === 'images.test') return answer(200, 'image/png', TINY_PNG);
    if (url.hostname === 'empty.test') return answer(200, 'text/plain', new Uint8Array(0));
    if (url.hostname === 'missing.test') return answer(404, 'text/html', new TextEncoder().encode('<h1>Not found</h1>'));
    throw new OutboundError('dns_failure', `Cannot resolve ${url.hostname}.`, request.url);
  },
};

const WORDS = ['lighthouse', 'quasar', 'marmalade', 'zephyr', 'obsidian', 'tangerine', 'nebula', 'saffron'];

function storageOf(kind: StoreKind): StoragePort {
  return kind === 'memory' ? createMemoryStorage() : sqliteStorage({ path: ':memory:' });
}

function bodyOf(response: { body: unknown }): any {
  return response.body instanceof Uint8Array ? JSON.parse(new TextDecoder().decode(response.body)) : response.body;
}

/**
 * A site with one user per role (each with an application password), and posts and pages in every status by
 * several authors, with media attached to them, revisions, autosaves, categories and tags. The same calls give
 * the same identifiers every time, so a case replays against a fresh site.
 */
export async function seedSite(store: StoreKind): Promise<SeededSite> {
  const errors: unknown[] = [];
  const storage = storageOf(store);
  const cms = createCms({
    clock: fixedClock(NOW),
    storage,
    blobs: createMemoryBlobStore(),
    httpClient: fixtureHttpClient,
    site: { url: 'http://example.test' },
    onError: (error) => errors.push(error),
  });
  const users = {} as Record<Role, SeededUser>;
  for (const role of ROLES) {
    const user = await cms.users.create({ login: role, email: `${role}@example.test`, roles: [role], name: `The ${role}` });
    const created = await cms.users.createApplicationPassword(user.id, { name: 'fuzz', password: `${role}Password123` });
    users[role] = { id: user.id, login: role, appPassword: created.password, uuid: created.item.uuid };
  }
  const mediaUrls: string[] = [];
  const children: SeededSite['children'] = [];
  const ids: SeededSite['ids'] = { post: [], page: [], media: [], category: [], tag: [], user: ROLES.map((role) => users[role].id), revision: [], autosave: [] };

  async function call(role: Role, method: string, path: string, json?: unknown, extra: Partial<CmsRequest> = {}): Promise<any> {
    const request: CmsRequest = { method, path, user: { id: users[role].id }, headers: {}, ...extra };
    if (json !== undefined) {
      request.headers = { 'content-type': 'application/json' };
      request.body = JSON.stringify(json);
    }
    const response = await cms.handle(request);
    if (response.status >= 300) throw new Error(`seeding ${method} ${path} failed: ${response.status} ${JSON.stringify(bodyOf(response))}`);
    return bodyOf(response);
  }

  const parent = await call('administrator', 'POST', '/cms/v2/categories', { name: `${WORDS[0]} things`, description: 'Top' });
  ids.category.push(parent.id);
  ids.category.push((await call('editor', 'POST', '/cms/v2/categories', { name: 'Nested', parent: parent.id })).id);
  for (const name of ['alpha', 'beta']) ids.tag.push((await call('editor', 'POST', '/cms/v2/tags', { name })).id);

  let word = 0;
  const nextWord = () => WORDS[word++ % WORDS.length]!;
  for (const base of ['posts', 'pages'] as const) {
    const pool = base === 'posts' ? ids.post : ids.page;
    for (const author of ['administrator', 'author', 'contributor'] as const) {
      for (const status of SEEDED_STATUSES) {
        const secret = nextWord();
        const fields: Record<string, unknown> = {
          title: `${status} ${base} by ${author} ${secret}`,
          content: `<!-- wp:paragraph --><p>Body ${secret} [gallery] <a href="http://example.test/x">link</a></p><!-- /wp:paragraph -->`,
          excerpt: `Excerpt ${secret}`,
          author: users[author].id,
          status: status === 'protected' || status === 'trash' ? 'publish' : status,
        };
        if (status === 'protected') fields.password = POST_PASSWORD;
        if (status === 'future') fields.date = '2027-03-04T05:06:07';
        if (base === 'posts') Object.assign(fields, { categories: [ids.category[pool.length % 2]], tags: ids.tag, sticky: status === 'publish' && author === 'author' });
        if (base === 'pages' && pool.length > 0) fields.parent = pool[0];
        const created = await call('administrator', 'POST', `/cms/v2/${base}`, fields);
        pool.push(created.id);
        if (status === 'trash') await call('administrator', 'DELETE', `/cms/v2/${base}/${created.id}`);
      }
    }
    // Revisions of published, draft and private items; autosaves of published items by their author and by an
    // editor (an author's autosave of their own draft would update the draft itself). Authors cannot edit pages.
    for (const id of [pool[0]!, pool[9]!, pool[11]!]) {
      await call('administrator', 'POST', `/cms/v2/${base}/${id}`, { title: `Revised ${nextWord()}`, content: `Second body ${nextWord()}` });
    }
    for (const [role, id] of [[base === 'posts' ? 'author' : 'editor', pool[7]!], ['editor', pool[0]!]] as const) {
      await call(role, 'POST', `/cms/v2/${base}/${id}/autosaves`, { title: `Autosaved ${nextWord()}`, content: `Unsaved ${nextWord()}` });
    }
    for (const id of pool) {
      for (const kind of ['revisions', 'autosaves'] as const) {
        const found = await call('administrator', 'GET', `/cms/v2/${base}/${id}/${kind}`) as { id: number }[];
        for (const child of found) {
          children.push({ base, kind, parent: id, id: child.id });
          ids[kind === 'revisions' ? 'revision' : 'autosave'].push(child.id);
        }
      }
    }
  }

  // Media: attached to a post of every status, to an author's draft, to a page, and unattached.
  const attachTo: [number, Role][] = [
    ...ids.post.slice(0, SEEDED_STATUSES.length).map((post): [number, Role] => [post, 'administrator']),
    [ids.post[9]!, 'author'], [ids.page[3]!, 'editor'], [0, 'author'],
  ];
  for (const [index, [post, role]] of attachTo.entries()) {
    const secret = nextWord();
    const media = await call(role, 'POST', '/cms/v2/media', undefined, {
      query: `post=${post}&caption=Caption+${secret}&alt_text=Alt+${secret}&title=Image+${secret}&description=Described+${secret}`,
      headers: { 'content-type': 'image/png', 'content-disposition': `attachment; filename="image-${index}.png"` },
      body: TINY_PNG,
    });
    ids.media.push(media.id);
    mediaUrls.push(media.source_url);
  }
  await call('administrator', 'POST', `/cms/v2/posts/${ids.post[0]}`, { featured_media: ids.media[2] });
  await call('administrator', 'POST', `/cms/v2/posts/${ids.post[4]}`, { featured_media: ids.media[4] });

  return {
    cms,
    store,
    users,
    ids,
    uuids: ROLES.map((role) => users[role].uuid),
    mediaUrls,
    children,
    words: WORDS,
    takeErrors: () => errors.splice(0),
    close: async () => {
      await storage.close?.();
    },
  };
}
