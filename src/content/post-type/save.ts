/**
 * Storing a post-type record the way the reference's `wp_insert_post` / `wp_update_post` do, followed by the
 * REST layer's extra steps (sticky, featured image, format, template, terms, meta): one call, one transaction.
 */
import type { PostTypeCapabilities } from '../../auth/index.js';
import { phpTrim } from '../../format/php.js';
import { CmsError } from '../../core/errors.js';
import type { StoragePort } from '../../ports/storage.js';
import { sanitizePostHtmlWhereCheapest, sanitizeTitleHtmlWhereCheapest } from '../render/pool/jobs.js';
import { defaultCategoryId, termsExist, type TaxonomyName } from '../taxonomy/index.js';
import type { Abilities } from './capabilities.js';
import { FLOATING_STATUSES, formatUtc, gmtToLocal, localToGmt, nowDates, parseStored } from './dates.js';
import type { PostEventHub, SaveReason } from './events.js';
import { permalinkOf, type LinkEnvironment } from './permalink.js';
import type { PostTypeDefinition } from './definition.js';
import { postsIn, type PostRecord } from './record.js';
import { sanitizeTitle, truncateSlug } from './slug.js';
import { uniquePostSlug } from './unique-slug.js';
import type { PostChanges } from './write.js';

export interface SaveEnvironment {
  definition: PostTypeDefinition;
  capabilities: PostTypeCapabilities;
  abilities: Abilities;
  /** The transaction's storage handle. */
  storage: StoragePort;
  events: PostEventHub;
  site: { timezone: string; gmtOffset: number };
  links: LinkEnvironment;
  now: Date;
  /** Templates the post type may use, for the create-time check. */
  templates: Readonly<Record<string, string>>;
}

const TRASHED_SUFFIX = '__trashed';
/** How far in the future a `publish` date must be to make the post scheduled, and vice versa. */
const SCHEDULING_MARGIN_MS = 60_000;

/** PHP's truthiness for stored text: `''` and `'0'` count as empty. */
const isBlank = (text: string) => text === '' || text === '0';

type Texts = { title: string; content: string; excerpt: string };

/**
 * Large HTML is sanitised on a worker thread, the three texts side by side. A user who may post unfiltered HTML
 * has them at once, with no promise to wait for.
 */
function sanitizeText(changes: PostChanges, existing: PostRecord | null, abilities: Abilities): Texts | Promise<Texts> {
  const unfiltered = abilities.can('unfiltered_html');
  const title = changes.title ?? existing?.title ?? '';
  const content = changes.content ?? existing?.content ?? '';
  const excerpt = changes.excerpt ?? existing?.excerpt ?? '';
  if (unfiltered) return { title: phpTrim(title), content, excerpt };
  return Promise.all([
    sanitizeTitleHtmlWhereCheapest(title), sanitizePostHtmlWhereCheapest(content), sanitizePostHtmlWhereCheapest(excerpt),
  ]).then(([safeTitle, safeContent, safeExcerpt]) => ({ title: phpTrim(safeTitle), content: safeContent, excerpt: safeExcerpt }));
}

/** The parent to store: 0 instead of the record itself or one of its descendants; at once for none. */
function parentWithoutLoop(storage: StoragePort, id: number, parent: number): number | Promise<number> {
  if (parent <= 0 || id <= 0) return Math.max(parent, 0);
  return ancestorsWithout(storage, id, parent);
}

async function ancestorsWithout(storage: StoragePort, id: number, parent: number): Promise<number> {
  const seen = new Set<number>();
  for (let ancestor = parent; ancestor > 0 && !seen.has(ancestor); ) {
    if (ancestor === id) return 0;
    seen.add(ancestor);
    const record = await postsIn(storage).get(ancestor);
    ancestor = record && typeof record.parent === 'number' ? record.parent : 0;
  }
  return parent;
}

/** Trashed records holding a slug another record now wants give it up (they keep it as their wanted slug). */
async function releaseSlugFromTrash(storage: StoragePort, slug: string, id: number): Promise<void> {
  const posts = postsIn(storage);
  const { items } = await posts.list({
    where: [{ field: 'slug', op: 'eq', value: slug }, { field: 'status', op: 'eq', value: 'trash' }, { field: 'id', op: 'ne', value: id }],
    shared: true,
  });
  for (const holder of items) {
    const current = String(holder.slug);
    if (current.endsWith(TRASHED_SUFFIX)) continue;
    await posts.update(holder.id, { slug: `${truncateSlug(current, 191)}${TRASHED_SUFFIX}`, trashed_slug: current });
  }
}

/** Image attachments may be featured; another existing record clears the featured image; an unknown id changes nothing. */
async function featuredMediaAfter(storage: StoragePort, requested: number, current: number): Promise<number> {
  const id = Math.abs(requested);
  if (id === 0) return 0;
  const target = await postsIn(storage).get(id);
  if (!target) return current;
  const mime = typeof target.mime_type === 'string' ? target.mime_type : '';
  return target.type === 'attachment' && mime.startsWith('image/') ? id : 0;
}

/** The term ids a write leaves on the record for one taxonomy: at once when the write sends none. */
function termsAfter(
  storage: StoragePort, taxonomy: TaxonomyName, sent: number[] | undefined, current: number[], creating: boolean,
): number[] | Promise<number[]> {
  if (sent !== undefined) {
    const unique = [...new Set(sent)];
    return termsExist(storage, taxonomy, unique).then((missing) => {
      const absent = new Set(missing);
      return unique.filter((id) => !absent.has(id));
    });
  }
  // A post always has a category unless a request removes them all; updating an uncategorised post restores it.
  if (taxonomy === 'category' && (creating || current.length === 0)) return defaultCategoryId(storage).then((id) => [id]);
  return current;
}

/**
 * The members of `fields` that a merge onto `existing` would change: a store then copies, checks and indexes only
 * those. The record it stores is the same, members in the same order (those left out keep their places).
 */
function changedFields(existing: PostRecord, fields: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key in fields) {
    const value = fields[key];
    const has = Object.hasOwn(existing, key);
    if (value === undefined ? has : !has || !sameJsonInOrder(existing[key], value)) changed[key] = value;
  }
  return changed;
}

/** Two JSON values alike, objects' members in the same order (a stored record keeps the order it was given). */
function sameJsonInOrder(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (key !== otherKeys[index] || !sameJsonInOrder((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** A record that vanished inside the write's own transaction: only a broken store does that. */
function missing(id: number): never {
  throw new Error(`Post ${id} disappeared while it was being saved.`);
}

/**
 * Saves `changes` onto `existing` (null: a new record) and returns the stored record. `reason` tells listeners
 * why; `trash` also remembers the status and slug the record had.
 */
export async function savePost(
  existing: PostRecord | null, changes: PostChanges, environment: SaveEnvironment, reason: SaveReason,
): Promise<PostRecord> {
  const { definition, abilities, capabilities, storage, site } = environment;
  const creating = existing === null;
  const previousStatus = existing?.status ?? 'new';
  const now = nowDates(environment.now, site);
  const id = existing?.id ?? 0;

  const sanitized = sanitizeText(changes, existing, abilities);
  const { title, content, excerpt } = sanitized instanceof Promise ? await sanitized : sanitized;
  if (definition.supportsExcerpt && isBlank(content) && isBlank(title) && isBlank(excerpt)) {
    throw new CmsError('empty_content', 'Content, title, and excerpt are empty.', 400);
  }

  let status = changes.status ?? existing?.status ?? 'draft';
  if (status === '') status = 'draft';

  let slug = changes.slug ?? existing?.slug ?? '';
  if (status === 'pending' && !abilities.can(capabilities.publish_posts)) slug = '';
  slug = slug === '' ? (FLOATING_STATUSES.has(status) ? '' : sanitizeTitle(title)) : sanitizeTitle(slug);

  let date = existing?.date ?? '';
  let dateGmt = existing?.date_gmt ?? '';
  if (changes.date) {
    date = changes.date.local;
    dateGmt = changes.date.gmt;
  }
  if (changes.resetDate) {
    date = '';
    dateGmt = '';
  }
  // A floating draft follows the time of each save until a date is given.
  if (existing && FLOATING_STATUSES.has(existing.status) && !changes.date && existing.date_gmt === null) {
    date = now.local;
    dateGmt = '';
  }
  if (date === '') date = dateGmt === '' ? now.local : gmtToLocal(dateGmt, site);
  const storedGmt: string | null = dateGmt !== '' ? dateGmt : FLOATING_STATUSES.has(status) ? null : localToGmt(date, site);

  const modified = creating ? date : now.local;
  const modifiedGmt = creating ? storedGmt : now.gmt;

  if (definition.type !== 'attachment' && storedGmt !== null) {
    const ahead = parseStored(storedGmt).getTime() - parseStored(now.gmt).getTime();
    if (status === 'publish' && ahead >= SCHEDULING_MARGIN_MS) status = 'future';
    else if (status === 'future' && ahead < SCHEDULING_MARGIN_MS) status = 'publish';
  }

  const commentStatus = changes.commentStatus ?? existing?.comment_status ?? '';
  const pingStatus = changes.pingStatus ?? existing?.ping_status ?? '';
  const password = status === 'private' ? '' : changes.password ?? existing?.password ?? '';
  const checkedParent = parentWithoutLoop(storage, id, changes.parent ?? existing?.parent ?? 0);
  const parent = typeof checkedParent === 'number' ? checkedParent : await checkedParent;

  const trash: Partial<PostRecord> = {};
  if (previousStatus === 'trash' && status !== 'trash') {
    if (existing?.trashed_slug) slug = existing.trashed_slug;
    Object.assign(trash, { trashed_slug: undefined, trashed_from_status: undefined, trashed_at: undefined });
  }
  if (status !== 'trash' && slug !== '') await releaseSlugFromTrash(storage, slug, id);
  if (status === 'trash' && previousStatus !== 'trash' && existing) {
    trash.trashed_from_status = existing.status;
    trash.trashed_at = formatUtc(environment.now);
    if (existing.slug.endsWith(TRASHED_SUFFIX)) slug = existing.slug;
    else {
      trash.trashed_slug = existing.slug;
      slug = `${truncateSlug(existing.slug, 191)}${TRASHED_SUFFIX}`;
    }
  }
  slug = await uniquePostSlug(storage, slug, {
    id, status, type: definition.type, parent, hierarchical: definition.hierarchical, ...(existing ? { currentSlug: existing.slug } : {}),
  }, environment.links.permalinkStructure);

  const fields: Record<string, unknown> = {
    type: definition.type,
    status,
    date,
    date_gmt: storedGmt,
    modified,
    modified_gmt: modifiedGmt,
    author: changes.author ?? existing?.author ?? abilities.user?.id ?? 0,
    parent,
    slug,
    menu_order: changes.menuOrder ?? existing?.menu_order ?? 0,
    title,
    content,
    excerpt,
    password,
    comment_status: commentStatus !== '' ? commentStatus : creating ? definition.defaultCommentStatus : 'closed',
    ping_status: pingStatus !== '' ? pingStatus : definition.defaultPingStatus,
    guid: existing?.guid ?? '',
    template: existing?.template ?? '',
    featured_media: existing?.featured_media ?? 0,
    meta: { ...existing?.meta },
    ...trash,
  };

  // The REST layer's steps after the insert, folded into the same write.
  if (definition.supportsSticky) {
    fields.sticky = changes.sticky ?? existing?.sticky === true;
  }
  if (changes.featuredMedia !== undefined) {
    fields.featured_media = await featuredMediaAfter(storage, changes.featuredMedia, existing?.featured_media ?? 0);
  }
  if (definition.supportsFormats) fields.format = changes.format ?? existing?.format ?? 'standard';
  if (changes.template !== undefined) {
    fields.template = creating && changes.template !== '' && !(changes.template in environment.templates) ? '' : changes.template;
  }
  for (const taxonomy of definition.taxonomies) {
    const current = (existing?.[taxonomy.restBase] as number[] | undefined) ?? [];
    const after = termsAfter(storage, taxonomy.taxonomy as TaxonomyName, changes.terms[taxonomy.restBase], current, creating);
    fields[taxonomy.restBase] = after instanceof Promise ? await after : after;
  }
  if (changes.meta) {
    const meta = fields.meta as Record<string, unknown>;
    for (const [key, value] of Object.entries(changes.meta)) {
      if (value === null) delete meta[key];
      else meta[key] = value;
    }
  }

  const posts = postsIn(storage);
  let saved = existing
    ? await posts.update(existing.id, changedFields(existing, fields)) ?? missing(existing.id)
    : await posts.insert(Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));

  const afterInsert: Partial<PostRecord> = {};
  if (saved.slug === '' && !FLOATING_STATUSES.has(saved.status)) {
    afterInsert.slug = await uniquePostSlug(storage, sanitizeTitle(saved.title, String(saved.id)), {
      id: saved.id, status: saved.status, type: saved.type, parent: saved.parent, hierarchical: definition.hierarchical,
    }, environment.links.permalinkStructure);
  }
  if (creating) afterInsert.guid = await permalinkOf({ ...saved, ...afterInsert }, { ...environment.links, storage });
  if (Object.keys(afterInsert).length > 0) saved = await posts.update(saved.id, afterInsert) ?? missing(saved.id);

  await environment.events.emitSaved({
    storage, post: saved, previous: existing, reason, user: abilities.user, now: environment.now, home: environment.links.home,
  });
  return saved;
}

/** Moves a record to the trash (the reference's `wp_trash_post`). */
export function trashPost(post: PostRecord, environment: SaveEnvironment): Promise<PostRecord> {
  return savePost(post, { status: 'trash', terms: {} }, environment, 'trash');
}

/**
 * Removes a record for good (the reference's `wp_delete_post`): its revisions go too, its child records of the
 * same type and its attachments move up to its parent.
 */
export async function deletePost(post: PostRecord, environment: SaveEnvironment): Promise<void> {
  const { storage } = environment;
  const posts = postsIn(storage);
  const children = async (type: string) => (await posts.list({
    where: [{ field: 'parent', op: 'eq', value: post.id }, { field: 'type', op: 'eq', value: type }],
  })).items;
  if (environment.definition.hierarchical) {
    for (const child of await children(post.type)) await posts.update(child.id, { parent: post.parent });
  }
  for (const revision of await children('revision')) await posts.remove(revision.id);
  for (const attachment of await children('attachment')) await posts.update(attachment.id, { parent: post.parent });
  await posts.remove(post.id);
  await environment.events.emitDeleted({ storage, post, user: environment.abilities.user, now: environment.now });
}
