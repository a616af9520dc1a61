import { createHash } from 'node:crypto';
import { allCapabilitiesOf, userCan } from '../../auth/index.js';
import type { Item, RequestContext } from '../../core/context.js';
import type { UserRecord } from '../records.js';
import { AVATAR_SIZES } from './schema.js';
import type { UsersDeps } from '../deps.js';

const SITE_LOCALE = 'en_US';

/** The reference's default avatars: Gravatar, "mystery person" fallback, rated G. */
export function avatarUrls(email: string): Record<string, string> {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  const urls: Record<string, string> = {};
  for (const size of AVATAR_SIZES) urls[String(size)] = `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
  return urls;
}

/** `YYYY-MM-DDTHH:MM:SS+00:00`, as PHP's `c` format prints a GMT date. */
function isoWithOffset(storedGmt: string): string {
  return storedGmt === '' ? '' : `${storedGmt}+00:00`;
}

export function userCollectionUrl(context: RequestContext): string {
  return context.url('/cms/v2/users');
}

export function userUrl(context: RequestContext, id: number): string {
  return context.url(`/cms/v2/users/${id}`);
}

/**
 * A user as the routes answer with it: every field (the core keeps those of the requested context), with
 * `roles` only for viewers who may list users or edit this one.
 */
export function userItem(user: UserRecord, context: RequestContext, deps: Pick<UsersDeps, 'roles' | 'capabilityRules'>): Item {
  const { roles, capabilityRules } = deps;
  const extraCapabilities: Record<string, boolean> = {};
  for (const role of user.roles) extraCapabilities[role] = true;
  Object.assign(extraCapabilities, user.capabilities);

  const data: Record<string, unknown> = {
    id: user.id,
    username: user.login,
    name: user.name,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    url: user.url,
    description: user.description,
    link: `${context.site.home}/author/${user.slug}/`,
    locale: user.locale !== '' ? user.locale : SITE_LOCALE,
    nickname: user.nickname,
    slug: user.slug,
  };
  const viewer = context.user;
  if (userCan(viewer, 'list_users', undefined, capabilityRules) || userCan(viewer, 'edit_user', { userId: user.id }, capabilityRules)) {
    data.roles = [...user.roles];
  }
  data.registered_date = isoWithOffset(user.registered);
  data.capabilities = allCapabilitiesOf(user.roles, roles, user.capabilities);
  data.extra_capabilities = extraCapabilities;
  data.avatar_urls = avatarUrls(user.email);
  data.meta = [];
  return {
    data,
    links: {
      self: [{ href: userUrl(context, user.id) }],
      collection: [{ href: userCollectionUrl(context) }],
    },
  };
}

/** The reference answers every write (create, update) in the edit context, whatever the request asked for. */
export const IN_EDIT_CONTEXT = { context: 'edit' } as const;
