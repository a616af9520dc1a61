/**
 * Slug uniqueness (the reference's `wp_unique_post_slug`): a taken or reserved slug gets `-2`, `-3`, ... until
 * it is free. Flat types are unique per type; hierarchical types per type and parent (attachments under the
 * same parent count too); attachments across every type.
 */
import type { Condition, StoragePort } from '../../ports/storage.js';
import { FLOATING_STATUSES } from './dates.js';
import { postsIn } from './record.js';
import { truncateSlug } from './slug.js';

const FEED_SLUGS = new Set(['feed', 'rdf', 'rss', 'rss2', 'atom', 'embed']);
const MAX_SLUG_LENGTH = 200;

export interface SlugOwner {
  /** 0 for a record not stored yet. */
  id: number;
  status: string;
  type: string;
  parent: number;
  hierarchical: boolean;
  /** The slug the record has now, if stored (a post may keep an all-digit slug it already has). */
  currentSlug?: string;
}

function scope(owner: SlugOwner): Condition[] {
  if (owner.type === 'attachment') return [];
  if (owner.hierarchical) {
    return [{ field: 'type', op: 'in', values: [owner.type, 'attachment'] }, { field: 'parent', op: 'eq', value: owner.parent }];
  }
  return [{ field: 'type', op: 'eq', value: owner.type }];
}

async function isTaken(storage: StoragePort, slug: string, owner: SlugOwner): Promise<boolean> {
  // The reference tests the found slug's truthiness, so `''` and `'0'` never count as taken.
  if (slug === '' || slug === '0') return false;
  const where: Condition[] = [{ field: 'slug', op: 'eq', value: slug }, ...scope(owner)];
  if (owner.id > 0) where.push({ field: 'id', op: 'ne', value: owner.id });
  // Only counted: a store may hand over its own record rather than a copy.
  const { items } = await postsIn(storage).list({ where, limit: 1, shared: true });
  return items.length > 0;
}

/** An all-digit post slug that a date archive URL could shadow, given where `%postname%` sits in the structure. */
function conflictsWithDateArchive(slug: string, owner: SlugOwner, permalinkStructure: string): boolean {
  if (owner.type !== 'post' || owner.currentSlug === slug || !/^[0-9]+$/.test(slug)) return false;
  const number = Number.parseInt(slug, 10);
  if (number === 0) return false;
  const segments = permalinkStructure.split('/').filter((segment) => segment !== '');
  const position = segments.indexOf('%postname%');
  if (position === 0) return true;
  if (position > 0 && segments[position - 1] === '%year%' && number < 13) return true;
  return position > 0 && segments[position - 1] === '%monthnum%' && number < 32;
}

function isReserved(slug: string, owner: SlugOwner, permalinkStructure: string): boolean {
  if (FEED_SLUGS.has(slug)) return true;
  if (owner.type === 'attachment') return false;
  if (owner.hierarchical) return /^(page)?\d+$/.test(slug);
  return conflictsWithDateArchive(slug, owner, permalinkStructure);
}

export async function uniquePostSlug(storage: StoragePort, slug: string, owner: SlugOwner, permalinkStructure: string): Promise<string> {
  if (FLOATING_STATUSES.has(owner.status) || (owner.type === 'revision' && owner.status === 'inherit')) return slug;
  if (!(await isTaken(storage, slug, owner)) && !isReserved(slug, owner, permalinkStructure)) return slug;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${truncateSlug(slug, MAX_SLUG_LENGTH - (String(suffix).length + 1))}-${suffix}`;
    if (!(await isTaken(storage, candidate, owner))) return candidate;
  }
}
