/**
 * Which of this site's posts or pages a URL names (the reference's `url_to_postid`), and whether it may be
 * embedded. The URL is never matched by rules of its own: a candidate found by slug or id counts only when the
 * posts module's own permalink for it (`permalinkOf`) is the URL's path, so both directions always agree.
 */
import type { CapabilityRules } from '../auth/index.js';
import { isPublicStatus, pageUri, permalinkOf, postsIn, type LinkEnvironment, type PostRecord } from '../content/post-type/index.js';
import type { Site } from '../core/site.js';
import type { StoragePort } from '../ports/storage.js';

export interface LocalSite {
  storage: StoragePort;
  site: Site;
  permalinkStructure: string;
  capabilityRules: CapabilityRules;
}

const EMBEDDABLE_TYPES = new Set(['post', 'page']);
const ID_IN_URL = /[?&](?:p|page_id|attachment_id)=(\d+)/;
/** Slugs sharing one path are rare; a bound keeps a crafted path from loading a whole collection. */
const MAX_CANDIDATES = 20;

const TAG_PATTERNS: Readonly<Record<string, string>> = {
  '%year%': '\\d{4}',
  '%monthnum%': '\\d{1,2}',
  '%day%': '\\d{1,2}',
  '%hour%': '\\d{1,2}',
  '%minute%': '\\d{1,2}',
  '%second%': '\\d{1,2}',
  '%post_id%': '\\d+',
  '%postname%': '[^/]+',
  '%category%': '.+?',
  '%author%': '[^/]+',
};

export function linkEnvironment(local: LocalSite): LinkEnvironment {
  return { storage: local.storage, home: local.site.home, permalinkStructure: local.permalinkStructure, pageOnFront: local.site.pageOnFront };
}

/** The reference's "publicly viewable": an embeddable type in a public status (password-protected posts included). */
export function isPubliclyViewable(post: PostRecord, rules: CapabilityRules): boolean {
  return EMBEDDABLE_TYPES.has(post.type) && isPublicStatus(post.status, rules);
}

/** The post the URL names if it is one of this site's posts or pages and may be embedded; null otherwise. */
export async function findEmbeddablePost(url: string, local: LocalSite): Promise<PostRecord | null> {
  const post = await findPost(url, local);
  return post && isPubliclyViewable(post, local.capabilityRules) ? post : null;
}

/** Whether the URL's host is this site's (ignoring a leading `www.`, as the reference does). */
export function isOwnHost(url: string, site: Site): boolean {
  const host = hostOf(url);
  const home = hostOf(site.home);
  return host !== null && home !== null && host === home;
}

async function findPost(url: string, local: LocalSite): Promise<PostRecord | null> {
  let parsed: URL;
  let home: URL;
  try {
    parsed = new URL(url);
    home = new URL(local.site.home);
  } catch {
    return null;
  }
  if (!isOwnHost(url, local.site)) return null;

  const byId = ID_IN_URL.exec(url);
  if (byId) {
    const id = Number(byId[1]);
    if (Number.isSafeInteger(id) && id > 0) return load(local.storage, id);
  }

  const homePath = home.pathname.replace(/\/+$/, '');
  const path = parsed.pathname;
  if (homePath !== '' && path !== homePath && !path.startsWith(`${homePath}/`)) return null;
  const relative = trimSlashes(path.slice(homePath.length));
  if (relative === '') {
    const { showOnFront, pageOnFront } = local.site;
    return showOnFront === 'page' && pageOnFront > 0 ? load(local.storage, pageOnFront) : null;
  }
  if (local.permalinkStructure === '') return null;

  const segments = relative.split('/');
  for (const page of await withSlug(local.storage, 'page', segments[segments.length - 1]!)) {
    if (await isPermalinkOf(page, relative, local)) return page;
  }
  const named = structureMatcher(local.permalinkStructure).exec(relative)?.groups ?? {};
  const candidates = named.post_id !== undefined
    ? [await load(local.storage, Number(named.post_id))].filter((post): post is PostRecord => post?.type === 'post')
    : named.postname !== undefined ? await withSlug(local.storage, 'post', named.postname) : [];
  for (const post of candidates) {
    if (await isPermalinkOf(post, relative, local)) return post;
  }
  return null;
}

async function load(storage: StoragePort, id: number): Promise<PostRecord | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return postsIn(storage).get(id);
}

/** Records of a type whose slug is the path segment, as sent or percent-encoded the way slugs are stored. */
async function withSlug(storage: StoragePort, type: string, segment: string): Promise<PostRecord[]> {
  const decoded = safeDecode(segment);
  const variants = [...new Set([segment, segment.toLowerCase(), decoded.toLowerCase(), encodeURIComponent(decoded).toLowerCase()])];
  const { items } = await postsIn(storage).list({
    where: [{ field: 'type', op: 'eq', value: type }, { field: 'slug', op: 'in', values: variants }],
    limit: MAX_CANDIDATES,
  });
  return items;
}

async function isPermalinkOf(post: PostRecord, relative: string, local: LocalSite): Promise<boolean> {
  // The page on the front keeps answering at its own path too, as its rewrite rule still matches there.
  if (post.type === 'page' && post.id === local.site.pageOnFront && normalise(await pageUri(local.storage, post)) === normalise(relative)) {
    return true;
  }
  const link = await permalinkOf(post, linkEnvironment(local));
  if (!link.startsWith(local.site.home) || link.includes('?')) return false;
  return normalise(link.slice(local.site.home.length)) === normalise(relative);
}

/** The permalink structure as a pattern over a site-relative path, capturing the post id or name. */
function structureMatcher(structure: string): RegExp {
  const seen = new Set<string>();
  const source = trimSlashes(structure).split(/(%[a-z_]+%)/).map((part) => {
    const tag = TAG_PATTERNS[part];
    if (tag === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const name = part.slice(1, -1);
    if ((name === 'post_id' || name === 'postname') && !seen.has(name)) {
      seen.add(name);
      return `(?<${name}>${tag})`;
    }
    return `(?:${tag})`;
  }).join('');
  return new RegExp(`^${source}$`, 'i');
}

function hostOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host.startsWith('www.') ? host.slice(4) : host;
  } catch {
    return null;
  }
}

function trimSlashes(text: string): string {
  return text.replace(/^\/+|\/+$/g, '');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function normalise(path: string): string {
  return safeDecode(trimSlashes(path)).toLowerCase();
}
