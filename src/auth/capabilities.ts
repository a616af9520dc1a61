import { DEFAULT_CAPABILITY_RULES, type CapabilityRules, type PostMetaCapability } from './capability-rules.js';
import type { PostTypeCapabilities } from './object-capabilities.js';
import type {
  CapabilitySubject,
  CommentSubject,
  MetaSubject,
  PostSubject,
  Principal,
  TermSubject,
  UserSubject,
} from './types.js';

/** The capability nobody holds; a mapping containing it always fails. */
export const DO_NOT_ALLOW = 'do_not_allow';

const DENIED: readonly string[] = [DO_NOT_ALLOW];

/** Taxonomy capabilities can point at other meta capabilities; this bounds a host's accidental cycle. */
const MAX_MAPPING_DEPTH = 8;

const PUBLISHED_STATUSES = new Set(['publish', 'future']);

/**
 * The requirement of one primitive capability, made once per name and frozen (mappings are asked for on every
 * check, and most end in one name); past `MOST_SOLE_REQUIREMENTS` names they are made afresh.
 */
const soleRequirements = new Map<string, readonly string[]>();
const MOST_SOLE_REQUIREMENTS = 1024;

function sole(capability: string): readonly string[] {
  let required = soleRequirements.get(capability);
  if (required === undefined) {
    required = Object.freeze([capability]);
    if (soleRequirements.size < MOST_SOLE_REQUIREMENTS) soleRequirements.set(capability, required);
  }
  return required;
}

/** The reference's `*_blocks` primitive names, which count as their `*_posts` equivalents. */
const BLOCK_CAPABILITIES = new Set([
  'edit_blocks',
  'edit_others_blocks',
  'publish_blocks',
  'read_private_blocks',
  'delete_blocks',
  'delete_private_blocks',
  'delete_published_blocks',
  'delete_others_blocks',
  'edit_private_blocks',
  'edit_published_blocks',
]);

const OBJECT_META_CAPABILITY = /^(?:edit|delete|add)_(post|comment|term|user)_meta$/;

function isPostSubject(subject: CapabilitySubject | undefined): subject is PostSubject {
  return typeof subject === 'object' && subject !== null && 'type' in subject && 'status' in subject && 'authorId' in subject;
}

function isUserSubject(subject: CapabilitySubject | undefined): subject is UserSubject {
  return typeof subject === 'object' && subject !== null && 'userId' in subject;
}

function isTermSubject(subject: CapabilitySubject | undefined): subject is TermSubject {
  return typeof subject === 'object' && subject !== null && 'taxonomy' in subject;
}

function isCommentSubject(subject: CapabilitySubject | undefined): subject is CommentSubject {
  return typeof subject === 'object' && subject !== null && 'post' in subject;
}

function isMetaSubject(subject: CapabilitySubject | undefined): subject is MetaSubject {
  return typeof subject === 'object' && subject !== null && 'object' in subject;
}

/** "Own" needs a real author: a post with author 0 is someone else's for everyone. */
function isOwnPost(user: Principal | null, post: PostSubject): boolean {
  return user !== null && post.authorId !== 0 && post.authorId === user.id;
}

function isSelf(user: Principal | null, subject: CapabilitySubject | undefined): boolean {
  return user !== null && user.id > 0 && isUserSubject(subject) && subject.userId === user.id;
}

/** On a single site the reference's "super admin" is whoever may delete users. */
function isSuperAdmin(user: Principal | null): boolean {
  return user !== null && user.capabilities.has('delete_users');
}

/** A meta key starting with `_` (ignoring characters the reference strips first) is protected. */
function isProtectedMetaKey(key: string): boolean {
  const cleaned = key.replace(/[^\x20-\x7E\p{L}]/gu, '');
  return cleaned.startsWith('_');
}

/** The status read checks look at: attachments take their parent's, and unattached ones count as published. */
function effectiveReadStatus(post: PostSubject): string {
  if (post.type !== 'attachment') return post.status;
  if (post.status === 'inherit') {
    if (post.parentStatus === undefined || post.parentStatus === '' || post.parentStatus === 'trash') return 'publish';
    return post.parentStatus;
  }
  return ['private', 'trash', 'auto-draft'].includes(post.status) ? post.status : 'publish';
}

/** The type-level capability names each action looks at (spelled out: the checks run for every listed record). */
const OWNERSHIP_NAMES = {
  edit: { own: 'edit_posts', published: 'edit_published_posts', others: 'edit_others_posts', private: 'edit_private_posts' },
  delete: { own: 'delete_posts', published: 'delete_published_posts', others: 'delete_others_posts', private: 'delete_private_posts' },
} as const satisfies Record<'edit' | 'delete', Record<string, keyof PostTypeCapabilities>>;

/** The edit or delete requirement for a post, by ownership and status (the shape shared by both actions). */
function ownershipRequirement(
  action: 'edit' | 'delete',
  user: Principal | null,
  post: PostSubject,
  names: PostTypeCapabilities,
): readonly string[] {
  const keys = OWNERSHIP_NAMES[action];
  const own = names[keys.own];
  const published = names[keys.published];
  if (isOwnPost(user, post)) {
    if (PUBLISHED_STATUSES.has(post.status)) return sole(published);
    if (post.status === 'trash') {
      return sole(PUBLISHED_STATUSES.has(post.trashedFromStatus ?? '') ? published : own);
    }
    return sole(own);
  }
  const required = [names[keys.others]];
  if (PUBLISHED_STATUSES.has(post.status)) required.push(published);
  else if (post.status === 'private') required.push(names[keys.private]);
  return required;
}

/** A revision is checked through the post it belongs to. */
function revisionTarget(post: PostSubject): PostSubject | null {
  if (post.type !== 'revision') return post;
  return post.parent ?? null;
}

function mapPostCapability(
  capability: PostMetaCapability | 'publish_post',
  user: Principal | null,
  subject: CapabilitySubject | undefined,
  rules: CapabilityRules,
  depth: number,
): readonly string[] {
  if (!isPostSubject(subject)) return DENIED;

  if (capability === 'publish_post') {
    const names = rules.postTypes[subject.type];
    return names === undefined ? ['edit_others_posts'] : [names.publish_posts];
  }

  if (capability === 'delete_post') {
    if (subject.type === 'revision') return DENIED;
    if (subject.isFrontPage === true || subject.isPostsPage === true) return ['manage_options'];
  }

  const post = capability === 'delete_post' ? subject : revisionTarget(subject);
  if (post === null) return DENIED;
  const names = rules.postTypes[post.type];
  if (names === undefined) return ['edit_others_posts'];

  if (capability === 'read_post') {
    const visibility = rules.postStatuses[effectiveReadStatus(post)];
    if (visibility === undefined) return ['edit_others_posts'];
    if (visibility === 'public' || isOwnPost(user, post)) return sole(names.read);
    if (visibility === 'private') return sole(names.read_private_posts);
    return mapCapability('edit_post', user, post, rules, depth + 1);
  }

  const required = ownershipRequirement(capability === 'edit_post' ? 'edit' : 'delete', user, post, names);
  if (post.isPrivacyPolicyPage === true) {
    return [...required, ...mapCapability('manage_privacy_options', user, undefined, rules, depth + 1)];
  }
  return required;
}

function mapTermCapability(
  capability: 'edit_term' | 'delete_term' | 'assign_term',
  user: Principal | null,
  subject: CapabilitySubject | undefined,
  rules: CapabilityRules,
  depth: number,
): readonly string[] {
  if (!isTermSubject(subject)) return DENIED;
  const names = rules.taxonomies[subject.taxonomy];
  if (names === undefined) return DENIED;
  if (capability === 'delete_term' && subject.isDefault === true) return DENIED;
  return mapCapability(names[`${capability}s`], user, subject, rules, depth + 1);
}

function mapObjectMetaCapability(
  capability: string,
  objectType: string,
  user: Principal | null,
  subject: CapabilitySubject | undefined,
  rules: CapabilityRules,
  depth: number,
): readonly string[] {
  if (!isMetaSubject(subject)) return DENIED;
  const required = [...mapCapability(`edit_${objectType}`, user, subject.object, rules, depth + 1)];
  if (subject.metaKey !== undefined && subject.metaKey !== '') {
    const allowed = subject.metaKeyAuthorized ?? !isProtectedMetaKey(subject.metaKey);
    if (!allowed) required.push(capability);
  }
  return required;
}

function mapCapability(
  capability: string,
  user: Principal | null,
  subject: CapabilitySubject | undefined,
  rules: CapabilityRules,
  depth: number,
): readonly string[] {
  if (depth > MAX_MAPPING_DEPTH) return DENIED;
  const plain = plainMappingsOf(rules).get(capability);
  if (plain !== undefined) return plain;

  switch (capability) {
    case 'edit_post':
    case 'edit_page':
      return mapPostCapability('edit_post', user, subject, rules, depth);
    case 'read_post':
    case 'read_page':
      return mapPostCapability('read_post', user, subject, rules, depth);
    case 'delete_post':
    case 'delete_page':
      return mapPostCapability('delete_post', user, subject, rules, depth);
    case 'publish_post':
      return mapPostCapability('publish_post', user, subject, rules, depth);

    case 'edit_comment':
      if (!isCommentSubject(subject)) return DENIED;
      return subject.post === null
        ? mapCapability('edit_posts', user, undefined, rules, depth + 1)
        : mapCapability('edit_post', user, subject.post, rules, depth + 1);

    case 'edit_user':
      return isSelf(user, subject) ? [] : ['edit_users'];
    case 'edit_users':
      return ['edit_users'];
    case 'remove_user':
      return isSelf(user, subject) && !isSuperAdmin(user) ? DENIED : ['remove_users'];
    case 'promote_user':
    case 'add_users':
      return ['promote_users'];
    case 'delete_user':
    case 'delete_users':
      return ['delete_users'];
    case 'create_users':
      return ['create_users'];

    case 'create_app_password':
    case 'list_app_passwords':
    case 'read_app_password':
    case 'edit_app_password':
    case 'delete_app_passwords':
    case 'delete_app_password':
      return mapCapability('edit_user', user, subject, rules, depth + 1);

    case 'edit_term':
    case 'delete_term':
    case 'assign_term':
      return mapTermCapability(capability, user, subject, rules, depth);
    case 'manage_post_tags':
    case 'edit_categories':
    case 'edit_post_tags':
    case 'delete_categories':
    case 'delete_post_tags':
      return ['manage_categories'];
    case 'assign_categories':
    case 'assign_post_tags':
      return ['edit_posts'];

    case 'unfiltered_upload':
      return rules.allowUnfilteredUploads ? [capability] : DENIED;
    case 'edit_css':
    case 'unfiltered_html':
      return rules.allowUnfilteredHtml ? ['unfiltered_html'] : DENIED;
    case 'edit_files':
    case 'edit_plugins':
    case 'edit_themes':
      return rules.allowFileEdits && rules.allowFileModifications ? [capability] : DENIED;
    case 'update_plugins':
    case 'delete_plugins':
    case 'install_plugins':
    case 'update_themes':
    case 'delete_themes':
    case 'install_themes':
    case 'update_core':
      return rules.allowFileModifications ? [capability] : DENIED;
    case 'upload_plugins':
      return rules.allowFileModifications ? ['install_plugins'] : DENIED;
    case 'upload_themes':
      return rules.allowFileModifications ? ['install_themes'] : DENIED;
    case 'install_languages':
    case 'update_languages':
      return rules.allowFileModifications ? ['install_languages'] : DENIED;
    case 'activate_plugins':
    case 'deactivate_plugins':
    case 'activate_plugin':
    case 'deactivate_plugin':
      return ['activate_plugins'];
    case 'resume_plugin':
      return ['resume_plugins'];
    case 'resume_theme':
      return ['resume_themes'];
    case 'manage_links':
      return rules.linkManagerEnabled ? [capability] : DENIED;
    case 'customize':
      return ['edit_theme_options'];
    case 'delete_site':
      return DENIED;
    case 'setup_network':
      return ['manage_options'];
    case 'update_php':
      return ['update_core'];
    case 'update_https':
      return ['manage_options', 'update_core'];
    case 'export_others_personal_data':
    case 'erase_others_personal_data':
    case 'manage_privacy_options':
      return ['manage_options'];
  }

  const objectMeta = capability.endsWith('_meta') ? OBJECT_META_CAPABILITY.exec(capability) : null;
  if (objectMeta !== null) {
    return mapObjectMetaCapability(capability, objectMeta[1] ?? '', user, subject, rules, depth);
  }
  const postTypeAlias = rules.postMetaCapabilityAliases.get(capability);
  if (postTypeAlias !== undefined) return mapCapability(postTypeAlias, user, subject, rules, depth + 1);
  return keptPlainMapping(rules, capability, BLOCK_CAPABILITIES.has(capability) ? sole(capability.replace(/_blocks$/, '_posts')) : sole(capability));
}

/**
 * The mappings that depend on nothing but the capability and the rules (no user, no subject: the primitives and
 * the `*_blocks` names), per rules, so that a check of one skips the walk through every meta capability. Bounded
 * as `sole` is.
 */
const plainMappings = new WeakMap<CapabilityRules, Map<string, readonly string[]>>();
let lastRules: CapabilityRules | null = null;
let lastPlainMappings = new Map<string, readonly string[]>();

function plainMappingsOf(rules: CapabilityRules): Map<string, readonly string[]> {
  if (rules === lastRules) return lastPlainMappings;
  let mappings = plainMappings.get(rules);
  if (mappings === undefined) plainMappings.set(rules, mappings = new Map());
  lastRules = rules;
  lastPlainMappings = mappings;
  return mappings;
}

function keptPlainMapping(rules: CapabilityRules, capability: string, required: readonly string[]): readonly string[] {
  const mappings = plainMappingsOf(rules);
  if (mappings.size < MOST_SOLE_REQUIREMENTS) mappings.set(capability, required);
  return required;
}

/**
 * The primitive capabilities `user` must hold, all of them, to have `capability` (on `subject` for the meta
 * capabilities that need one). A list containing `do_not_allow` can never be satisfied. Capabilities with no
 * mapping stand for themselves.
 */
export function mapMetaCapability(
  capability: string,
  user: Principal | null,
  subject?: CapabilitySubject,
  rules: CapabilityRules = DEFAULT_CAPABILITY_RULES,
): string[] {
  return [...mapCapability(capability, user, subject, rules, 0)];
}

/**
 * Whether `user` (null = anonymous) has `capability`, mapping meta capabilities first. Everyone, anonymous
 * included, has `exist`, as in the reference; nobody has `do_not_allow`.
 */
export function userCan(
  user: Principal | null,
  capability: string,
  subject?: CapabilitySubject,
  rules: CapabilityRules = DEFAULT_CAPABILITY_RULES,
): boolean {
  const required = mapCapability(capability, user, subject, rules, 0);
  for (let at = 0; at < required.length; at++) {
    const primitive = required[at]!;
    if (primitive === DO_NOT_ALLOW || (primitive !== 'exist' && !(user?.capabilities.has(primitive) ?? false))) return false;
  }
  return true;
}
