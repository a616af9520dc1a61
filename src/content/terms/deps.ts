/** What the terms routes are given, and a taxonomy bound to it (as a post type is bound to the kit's). */
import type { CapabilityRules } from '../../auth/index.js';
import type { StoragePort } from '../../ports/storage.js';
import type { PostEvents } from '../post-type/index.js';
import type { TaxonomyDefinition } from '../taxonomy/index.js';

export interface TermsDeps {
  readonly storage: StoragePort;
  readonly capabilityRules: CapabilityRules;
  /** Post saves and deletes, which keep the term counts right. */
  readonly postEvents: PostEvents;
}

export interface TermType {
  readonly definition: TaxonomyDefinition;
  readonly deps: TermsDeps;
}
