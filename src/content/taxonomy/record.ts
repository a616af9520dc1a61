/**
 * Categories and tags as stored records. Posts refer to terms by id arrays on the post record (`categories`,
 * `tags`).
 */
import { collection } from '../../ports/collection.js';
import type { StoredRecord } from '../../ports/storage.js';
import type { TaxonomyName } from './taxonomies.js';

export const TERMS_COLLECTION = 'terms';

/** The default category ("Uncategorized") every new store has. */
export const DEFAULT_CATEGORY_ID = 1;

export interface TermRecord extends StoredRecord {
  taxonomy: TaxonomyName;
  name: string;
  slug: string;
  description: string;
  /** 0 for top-level terms; always 0 for tags. */
  parent: number;
  /** Published posts carrying the term, kept up to date as posts are saved (the reference's stored count). */
  count: number;
  meta: Record<string, unknown>;
}

/** Fields a term is created or updated with; values are as received, sanitised here. */
export interface TermInput {
  name?: string;
  slug?: string;
  description?: string;
  parent?: number;
}

/** A stored record as a term, missing fields filled with their defaults. */
export function toTerm(record: StoredRecord): TermRecord {
  return {
    id: record.id,
    taxonomy: record.taxonomy as TaxonomyName,
    name: typeof record.name === 'string' ? record.name : '',
    slug: typeof record.slug === 'string' ? record.slug : '',
    description: typeof record.description === 'string' ? record.description : '',
    parent: typeof record.parent === 'number' ? record.parent : 0,
    count: typeof record.count === 'number' ? record.count : 0,
    meta: record.meta !== null && typeof record.meta === 'object' && !Array.isArray(record.meta) ? record.meta as Record<string, unknown> : {},
  };
}

/** Typed access to the `terms` collection through a storage handle. */
export const termsIn = collection<TermRecord>(TERMS_COLLECTION, toTerm);
