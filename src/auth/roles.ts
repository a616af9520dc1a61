import { SealedSet } from '../core/sealed-set.js';
import type { Principal } from './types.js';

/** A role: its slug, display name and capability map (`true` grants, `false` denies). */
export interface RoleDefinition {
  slug: string;
  name: string;
  capabilities: Readonly<Record<string, boolean>>;
}

export type RoleTable = ReadonlyMap<string, RoleDefinition>;

/** How a host adds a role or changes one. */
export interface RoleChange {
  name?: string;
  /** A list grants each capability; a map grants (`true`) or denies (`false`) each one. */
  capabilities?: readonly string[] | Readonly<Record<string, boolean>>;
  /** A new role starts from a copy of this role's capabilities. */
  basedOn?: string;
}

/** Role slug → change; `null` removes the role. */
export type RoleChanges = Readonly<Record<string, RoleChange | null>>;

const levels = (highest: number): string[] => Array.from({ length: highest + 1 }, (_, level) => `level_${level}`);

const POST_CAPABILITIES = [
  'edit_posts',
  'edit_others_posts',
  'edit_published_posts',
  'publish_posts',
  'read',
  'delete_posts',
  'delete_others_posts',
  'delete_published_posts',
  'delete_private_posts',
  'edit_private_posts',
  'read_private_posts',
];

const PAGE_CAPABILITIES = [
  'edit_pages',
  'edit_others_pages',
  'edit_published_pages',
  'publish_pages',
  'delete_pages',
  'delete_others_pages',
  'delete_published_pages',
  'delete_private_pages',
  'edit_private_pages',
  'read_private_pages',
];

const ADMINISTRATOR_CAPABILITIES = [
  'switch_themes',
  'edit_themes',
  'activate_plugins',
  'edit_plugins',
  'edit_users',
  'edit_files',
  'manage_options',
  'moderate_comments',
  'manage_categories',
  'manage_links',
  'upload_files',
  'import',
  'unfiltered_html',
  ...POST_CAPABILITIES,
  ...PAGE_CAPABILITIES,
  'delete_users',
  'create_users',
  'list_users',
  'remove_users',
  'promote_users',
  'unfiltered_upload',
  'edit_dashboard',
  'update_plugins',
  'delete_plugins',
  'install_plugins',
  'update_themes',
  'install_themes',
  'update_core',
  'edit_theme_options',
  'delete_themes',
  'export',
  ...levels(10),
];

const EDITOR_CAPABILITIES = [
  'moderate_comments',
  'manage_categories',
  'manage_links',
  'upload_files',
  'unfiltered_html',
  ...POST_CAPABILITIES,
  ...PAGE_CAPABILITIES,
  ...levels(7),
];

const AUTHOR_CAPABILITIES = [
  'upload_files',
  'edit_posts',
  'edit_published_posts',
  'publish_posts',
  'read',
  'delete_posts',
  'delete_published_posts',
  ...levels(2),
];

const CONTRIBUTOR_CAPABILITIES = ['edit_posts', 'read', 'delete_posts', ...levels(1)];

const SUBSCRIBER_CAPABILITIES = ['read', ...levels(0)];

function grantAll(capabilities: readonly string[]): Record<string, boolean> {
  return Object.fromEntries(capabilities.map((capability) => [capability, true]));
}

function freezeRole(slug: string, name: string, capabilities: Record<string, boolean>): RoleDefinition {
  return Object.freeze({ slug, name, capabilities: Object.freeze(capabilities) });
}

/** The five roles of a single-site install, in the reference's order (most to least powerful). */
export const DEFAULT_ROLES: RoleTable = new Map(
  [
    freezeRole('administrator', 'Administrator', grantAll(ADMINISTRATOR_CAPABILITIES)),
    freezeRole('editor', 'Editor', grantAll(EDITOR_CAPABILITIES)),
    freezeRole('author', 'Author', grantAll(AUTHOR_CAPABILITIES)),
    freezeRole('contributor', 'Contributor', grantAll(CONTRIBUTOR_CAPABILITIES)),
    freezeRole('subscriber', 'Subscriber', grantAll(SUBSCRIBER_CAPABILITIES)),
  ].map((role) => [role.slug, role]),
);

function asCapabilityMap(capabilities: RoleChange['capabilities']): Record<string, boolean> {
  if (capabilities === undefined) return {};
  if (Array.isArray(capabilities)) return grantAll(capabilities);
  return { ...(capabilities as Readonly<Record<string, boolean>>) };
}

function titleCase(slug: string): string {
  return slug
    .split(/[_-]+/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * The default roles with a host's changes applied. Changing an existing role merges into its capability map;
 * a new role starts empty, or from `basedOn`. Changes apply in key order, so a new role may be based on one added
 * before it.
 */
export function createRoleTable(changes: RoleChanges = {}): RoleTable {
  const table = new Map(DEFAULT_ROLES);
  for (const [slug, change] of Object.entries(changes)) {
    if (change === null) {
      table.delete(slug);
      continue;
    }
    const existing = table.get(slug);
    const base = existing ?? (change.basedOn === undefined ? undefined : table.get(change.basedOn));
    if (existing === undefined && change.basedOn !== undefined && base === undefined) {
      throw new Error(`Role "${slug}" is based on the unknown role "${change.basedOn}".`);
    }
    const capabilities = { ...(base?.capabilities ?? {}), ...asCapabilityMap(change.capabilities) };
    const name = change.name ?? existing?.name ?? titleCase(slug);
    table.set(slug, freezeRole(slug, name, capabilities));
  }
  return table;
}

/** Capabilities the reference grants on the fly to holders of others (its `user_has_cap` filters). */
const IMPLIED_CAPABILITIES: ReadonlyArray<readonly [granted: string, holdersOfAny: readonly string[]]> = [
  ['install_languages', ['update_core', 'install_plugins', 'install_themes']],
  ['resume_plugins', ['activate_plugins']],
  ['resume_themes', ['switch_themes']],
  ['view_site_health_checks', ['install_plugins']],
];

/**
 * The capability map of a user as the reference's `allcaps` holds it, in its order: the capability maps of their
 * known roles merged in order (a later value overrides an earlier one), then the role names themselves, then the
 * user's own grants and denials. Denials stay in the map as `false`.
 */
export function allCapabilitiesOf(
  roles: readonly string[],
  table: RoleTable,
  userCapabilities: Readonly<Record<string, boolean>> = {},
): Record<string, boolean> {
  const merged: Record<string, boolean> = {};
  const knownRoles = roles.filter((role) => table.has(role));
  for (const role of knownRoles) Object.assign(merged, table.get(role)?.capabilities ?? {});
  for (const role of knownRoles) merged[role] = true;
  Object.assign(merged, userCapabilities);
  return merged;
}

/**
 * Every capability a user holds: the granted entries of `allCapabilitiesOf`, plus the capabilities the reference
 * implies from others. `do_not_allow` is never granted.
 */
export function capabilitiesOf(
  roles: readonly string[],
  table: RoleTable,
  userCapabilities: Readonly<Record<string, boolean>> = {},
): Set<string> {
  const granted = new Set<string>();
  for (const [capability, isGranted] of Object.entries(allCapabilitiesOf(roles, table, userCapabilities))) {
    if (isGranted) granted.add(capability);
  }
  for (const [capability, holdersOfAny] of IMPLIED_CAPABILITIES) {
    if (holdersOfAny.some((holder) => granted.has(holder))) granted.add(capability);
  }
  granted.delete('do_not_allow');
  return granted;
}

/** What the principal is built from: a stored user's identity, roles and own capability grants. */
export interface PrincipalSource {
  id: number;
  login: string;
  roles: readonly string[];
  capabilities?: Readonly<Record<string, boolean>>;
}

/** The principal for a user; roles the table does not know are dropped, as the reference does. */
export function createPrincipal(user: PrincipalSource, table: RoleTable): Principal {
  const roles = Object.freeze(user.roles.filter((role) => table.has(role)));
  return Object.freeze({
    id: user.id,
    login: user.login,
    roles,
    capabilities: sharedCapabilitiesOf(roles, table, user.capabilities),
  });
}

/**
 * Every request builds its caller's principal, and the capability set of a role mix is the same every time, so
 * sets are shared per table and mix (bounded), sealed so that no holder can change another's.
 */
const sharedSets = new WeakMap<RoleTable, Map<string, ReadonlySet<string>>>();
const SHARED_SETS_PER_TABLE = 256;

function sharedCapabilitiesOf(roles: readonly string[], table: RoleTable, userCapabilities: Readonly<Record<string, boolean>> = {}): ReadonlySet<string> {
  let sets = sharedSets.get(table);
  if (!sets) sharedSets.set(table, (sets = new Map()));
  const key = `${JSON.stringify(roles)}${JSON.stringify(userCapabilities)}`;
  let set = sets.get(key);
  if (!set) {
    if (sets.size >= SHARED_SETS_PER_TABLE) sets.clear();
    set = new SealedSet(capabilitiesOf(roles, table, userCapabilities));
    sets.set(key, set);
  }
  return set;
}

