/**
 * Public addresses of posts and pages (`link`, `guid`, `permalink_template`, `generated_slug`), built from the
 * permalink structure the way the reference's `get_permalink` and `get_sample_permalink` do.
 */
import type { StoragePort } from '../../ports/storage.js';
import { defaultCategoryId, getTerm } from '../taxonomy/index.js';
import { postsIn, type PostRecord } from './record.js';
import { sanitizeTitle } from './slug.js';
import { uniquePostSlug } from './unique-slug.js';

export interface LinkEnvironment {
  storage: StoragePort;
  /** The site's home address, without a trailing slash. */
  home: string;
  permalinkStructure: string;
  pageOnFront: number;
}

/** Statuses whose posts get plain links (they have no public address yet). */
const UNPUBLISHED_POST_STATUSES = new Set(['draft', 'pending', 'auto-draft', 'future']);
const UNPUBLISHED_PAGE_STATUSES = new Set(['draft', 'pending', 'auto-draft']);

function withTrailingSlash(path: string, structure: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return structure.endsWith('/') ? `${trimmed}/` : trimmed;
}

/** The slug path of a page: its ancestors' slugs, then its own (`parent/child`). */
export async function pageUri(storage: StoragePort, page: Pick<PostRecord, 'id' | 'slug' | 'parent'>): Promise<string> {
  let uri = page.slug;
  const seen = new Set([page.id]);
  for (let parentId = page.parent; parentId > 0 && !seen.has(parentId); ) {
    seen.add(parentId);
    const parent = await postsIn(storage).get(parentId);
    if (!parent) break;
    if (typeof parent.slug === 'string' && parent.slug !== '') uri = `${parent.slug}/${uri}`;
    parentId = typeof parent.parent === 'number' ? parent.parent : 0;
  }
  return uri;
}

async function categoryPath(storage: StoragePort, post: PostRecord): Promise<string> {
  const ids = [...(post.categories ?? [])].sort((a, b) => a - b);
  let term = ids.length > 0 ? await getTerm(storage, 'category', ids[0]!) : null;
  term ??= await getTerm(storage, 'category', await defaultCategoryId(storage));
  if (!term) return '';
  let path = term.slug;
  const seen = new Set([term.id]);
  for (let parentId = term.parent; parentId > 0 && !seen.has(parentId); ) {
    seen.add(parentId);
    const parent = await getTerm(storage, 'category', parentId);
    if (!parent) break;
    path = `${parent.slug}/${path}`;
    parentId = parent.parent;
  }
  return path;
}

async function authorSlug(storage: StoragePort, authorId: number): Promise<string> {
  const user = authorId > 0 ? await storage.get('users', authorId) : null;
  return user && typeof user.slug === 'string' ? user.slug : '';
}

/** The structure tags of post links, in the order they are replaced. */
const POST_TAGS = ['%year%', '%monthnum%', '%day%', '%hour%', '%minute%', '%second%', '%post_id%', '%postname%', '%category%', '%author%'] as const;

function tagValue(tag: (typeof POST_TAGS)[number], post: PostRecord, environment: LinkEnvironment, leaveName: boolean): Promise<string> | string {
  const { date } = post;
  const structure = environment.permalinkStructure;
  switch (tag) {
    case '%year%': return date.slice(0, 4);
    case '%monthnum%': return date.slice(5, 7);
    case '%day%': return date.slice(8, 10);
    case '%hour%': return date.slice(11, 13);
    case '%minute%': return date.slice(14, 16);
    case '%second%': return date.slice(17, 19);
    case '%post_id%': return String(post.id);
    case '%postname%': return leaveName ? '%postname%' : post.slug;
    case '%category%': return structure.includes('%category%') ? categoryPath(environment.storage, post) : '';
    case '%author%': return structure.includes('%author%') ? authorSlug(environment.storage, post.author) : '';
  }
}

async function postLink(post: PostRecord, environment: LinkEnvironment, leaveName: boolean): Promise<string> {
  const { home, permalinkStructure: structure } = environment;
  if (structure === '' || UNPUBLISHED_POST_STATUSES.has(post.status)) return `${home}/?p=${post.id}`;
  let path = structure;
  for (const tag of POST_TAGS) {
    if (!path.includes(tag)) continue;
    const value = tagValue(tag, post, environment, leaveName);
    path = path.replaceAll(tag, typeof value === 'string' ? value : await value);
  }
  return `${home}${withTrailingSlash(path, structure)}`;
}

async function pageLink(page: PostRecord, environment: LinkEnvironment, leaveName: boolean): Promise<string> {
  const { home, permalinkStructure: structure } = environment;
  if (environment.pageOnFront > 0 && environment.pageOnFront === page.id) return `${home}/`;
  if (structure === '' || UNPUBLISHED_PAGE_STATUSES.has(page.status)) return `${home}/?page_id=${page.id}`;
  const uri = leaveName ? '%pagename%' : await pageUri(environment.storage, page);
  return `${home}${withTrailingSlash(`/${uri}`, structure)}`;
}

/**
 * A record of a type without pretty links (a reusable block): by its query variable, `?wp_block={slug}`, once it
 * is published; by type and id before.
 */
function queryLink(post: PostRecord, environment: LinkEnvironment): string {
  const { home } = environment;
  if (UNPUBLISHED_POST_STATUSES.has(post.status) || post.slug === '') return `${home}/?post_type=${post.type}&p=${post.id}`;
  return `${home}/?${post.type}=${post.slug}`;
}

/** Post types whose records are linked by query, whatever the permalink structure. */
const QUERY_LINKED_TYPES: ReadonlySet<string> = new Set(['wp_block']);

/** The record's public address; with `leaveName`, the name part stays a `%postname%` / `%pagename%` placeholder. */
export function permalinkOf(post: PostRecord, environment: LinkEnvironment, leaveName = false): Promise<string> {
  if (QUERY_LINKED_TYPES.has(post.type)) return Promise.resolve(queryLink(post, environment));
  return post.type === 'page' ? pageLink(post, environment, leaveName) : postLink(post, environment, leaveName);
}

/**
 * The pretty address the post would have once published, with its name as a placeholder, and the slug its
 * title would give (made unique as if published).
 */
export async function samplePermalink(
  post: PostRecord, environment: LinkEnvironment, hierarchical: boolean,
): Promise<{ template: string; generatedSlug: string }> {
  const status = ['draft', 'pending', 'future'].includes(post.status) ? 'publish' : post.status;
  const generatedSlug = await uniquePostSlug(
    environment.storage,
    sanitizeTitle(post.title, String(post.id)),
    { id: post.id, status, type: post.type, parent: post.parent, hierarchical, currentSlug: post.slug },
    environment.permalinkStructure,
  );
  const asPublished: PostRecord = { ...post, status, slug: generatedSlug };
  let template = await permalinkOf(asPublished, environment, true);
  if (hierarchical && template.includes('%pagename%')) {
    const uri = await pageUri(environment.storage, { ...asPublished, slug: '' });
    const parentPath = uri.replace(/\/+$/, '');
    if (parentPath !== '') template = template.replace('%pagename%', `${parentPath}/%pagename%`);
  }
  return { template, generatedSlug };
}
