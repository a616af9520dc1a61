/**
 * The revision of a post-type record as its view fragment shows it (`KeyedItem.revision`): the stored record
 * whole, its revision history as its links show it (count, newest), and the names its term ids are ordered by.
 * Records whose fragment draws on more of other records (a parent's slug or type, the featured media's type, a
 * category or author in the permalink) name none, and their fragments live for one state of the store.
 */
import { createHash } from 'node:crypto';
import type { StoragePort } from '../../ports/storage.js';
import type { TaxonomyName } from '../taxonomy/index.js';
import type { PostTypeDefinition } from './definition.js';
import { revisionSummary } from './links.js';
import type { LinkEnvironment } from './permalink.js';
import type { PrepareOptions } from './prepare.js';
import type { PostRecord } from './record.js';

export interface RevisionSources {
  storage: StoragePort;
  definition: PostTypeDefinition;
  links: LinkEnvironment;
  /** The answer's term loader, the one its records are prepared with. */
  termsOf: NonNullable<PrepareOptions['termsOf']>;
}

export async function fragmentRevision(record: PostRecord, sources: RevisionSources): Promise<string | null> {
  const { definition, links } = sources;
  if (definition.hierarchical && record.parent > 0) return null;
  if (record.featured_media > 0) return null;
  if (links.permalinkStructure.includes('%category%') || links.permalinkStructure.includes('%author%')) return null;
  const history = await revisionSummary(sources.storage, record.id);
  const parts: unknown[] = [record, history.count, history.latestId];
  for (const taxonomy of definition.taxonomies) {
    const ids = (record[taxonomy.restBase] as number[] | undefined) ?? [];
    if (ids.length === 0) continue;
    const terms = await sources.termsOf(taxonomy.taxonomy as TaxonomyName);
    parts.push(taxonomy.taxonomy, ids.map((id) => terms.get(id)?.name ?? null));
  }
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64');
}
