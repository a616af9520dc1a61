/** Capability names and subjects for post-type checks. */
import { CORE_POST_TYPE_CAPABILITIES, userCan, type PostSubject, type PostTypeCapabilities } from '../../auth/index.js';
import type { Principal, Services } from '../../core/context.js';
import type { Site } from '../../core/site.js';
import type { PostTypeDefinition } from './post-types.js';
import type { PostRecord } from './record.js';

export function capabilitiesOf(definition: Pick<PostTypeDefinition, 'type'>, services: Services): PostTypeCapabilities {
  return services.capabilityRules.postTypes[definition.type] ?? CORE_POST_TYPE_CAPABILITIES.post!;
}

/** What the capability rules look at in a record. */
export function subjectOf(post: PostRecord, site: Pick<Site, 'pageOnFront' | 'pageForPosts'>): PostSubject {
  const subject: PostSubject = { type: post.type, status: post.status, authorId: post.author };
  if (post.status === 'trash' && post.trashed_from_status) subject.trashedFromStatus = post.trashed_from_status;
  if (post.type === 'page') {
    if (site.pageOnFront > 0 && site.pageOnFront === post.id) subject.isFrontPage = true;
    if (site.pageForPosts > 0 && site.pageForPosts === post.id) subject.isPostsPage = true;
  }
  return subject;
}

/** A capability check bound to one request's user, rules and site. */
export interface Abilities {
  readonly user: Principal | null;
  /** A primitive or type-level capability (`publish_posts`, `unfiltered_html`). */
  can(capability: string): boolean;
  canEdit(post: PostRecord): boolean;
  canRead(post: PostRecord): boolean;
  canDelete(post: PostRecord): boolean;
}

export function abilitiesFor(user: Principal | null, services: Services, site: Pick<Site, 'pageOnFront' | 'pageForPosts'>): Abilities {
  const rules = services.capabilityRules;
  return {
    user,
    can: (capability) => userCan(user, capability, undefined, rules),
    canEdit: (post) => userCan(user, 'edit_post', subjectOf(post, site), rules),
    canRead: (post) => userCan(user, 'read_post', subjectOf(post, site), rules),
    canDelete: (post) => userCan(user, 'delete_post', subjectOf(post, site), rules),
  };
}
