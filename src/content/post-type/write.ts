/**
 * A create or update request → the changes it asks for, checked (the reference's `prepare_item_for_database`).
 * Only fields that were sent appear; `null` dates reset the date to "unset".
 */
import type { JsonSchema } from '../../core/args/schema.js';
import { validateValue } from '../../core/args/validate.js';
import { CmsError, forbidden } from '../../core/errors.js';
import type { StoragePort } from '../../ports/storage.js';
import type { Abilities } from './capabilities.js';
import { dateWithGmt } from './dates.js';
import type { PostTypeCapabilities } from '../../auth/index.js';
import type { PostTypeDefinition } from './definition.js';
import { postsIn, type PostRecord } from './record.js';
import { isEmpty } from '../../format/php.js';
import type { Params } from '../../core/args/define.js';
import type { ItemArgs } from './args.js';

export interface PostChanges {
  title?: string;
  content?: string;
  excerpt?: string;
  status?: string;
  /** An explicit date: site-local and UTC. */
  date?: { local: string; gmt: string };
  /** A `null` date or date_gmt: back to "unset" (now, or floating for drafts). */
  resetDate?: boolean;
  slug?: string;
  author?: number;
  password?: string;
  parent?: number;
  menuOrder?: number;
  commentStatus?: string;
  pingStatus?: string;
  sticky?: boolean;
  featuredMedia?: number;
  format?: string;
  template?: string;
  /** Term ids per taxonomy field (`categories`, `tags`), as sent. */
  terms: Record<string, number[]>;
  /** Registered meta values to set (`null` deletes). */
  meta?: Record<string, unknown>;
}

export interface WriteInput {
  params: Params<ItemArgs>;
  has(name: string): boolean;
}

export interface WriteEnvironment {
  definition: PostTypeDefinition;
  capabilities: PostTypeCapabilities;
  abilities: Abilities;
  storage: StoragePort;
  site: { timezone: string; gmtOffset: number };
  /** Templates the post type may use (file → name). */
  templates: Readonly<Record<string, string>>;
  /** The type's fields: only those it has are written (a reusable block has no author or comment status). */
  fields: Readonly<Record<string, JsonSchema>>;
}

const isSet = (value: unknown) => value !== undefined && value !== null;

/** A text field sent as a string or as `{raw}`; for titles an empty `raw` counts as not sent. */
function textOf(value: unknown, emptyRawIgnored: boolean): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const raw = (value as Record<string, unknown>).raw;
  if (emptyRawIgnored ? isEmpty(raw) : !isSet(raw)) return undefined;
  if (typeof raw === 'string') return raw;
  return typeof raw === 'number' ? String(raw) : undefined;
}

function invalidField(message: string): CmsError {
  return new CmsError('rest_invalid_field', message, 400);
}

/** The check a status change needs (`handle_status_param`). */
function checkStatus(status: string, environment: WriteEnvironment): void {
  const { abilities, capabilities } = environment;
  if (status === 'private' && !abilities.can(capabilities.publish_posts)) {
    throw forbidden(abilities.user, 'rest_cannot_publish', 'Sorry, you are not allowed to create private posts in this post type.');
  }
  if ((status === 'publish' || status === 'future') && !abilities.can(capabilities.publish_posts)) {
    throw forbidden(abilities.user, 'rest_cannot_publish', 'Sorry, you are not allowed to publish posts in this post type.');
  }
}

function templateError(allowed: Readonly<Record<string, string>>): CmsError {
  const message = `template is not one of ${Object.keys(allowed).join(', ')}.`;
  return new CmsError('rest_invalid_param', 'Invalid parameter(s): template', 400, {
    params: { template: message },
    details: { template: { code: 'rest_invalid_param', message, data: null } },
  });
}

/** The sent values of the type's registered meta keys, each checked against its schema; other keys are ignored. */
function metaChanges(value: unknown, registered: Readonly<Record<string, JsonSchema>>): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || (Array.isArray(value) && value.length > 0)) {
    throw new CmsError('rest_invalid_param', 'Invalid parameter(s): meta', 400, {
      params: { meta: 'Invalid parameter.' },
      details: {},
    });
  }
  const changes: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(registered)) {
    if (!Object.hasOwn(value, key)) continue;
    const sent = (value as Record<string, unknown>)[key];
    if (sent === null) changes[key] = null;
    else if (sent !== undefined) {
      const issue = validateValue(sent, schema, `meta.${key}`);
      if (issue) throw new CmsError(issue.code, issue.message, 400);
      changes[key] = sent;
    }
  }
  return changes;
}

export async function prepareChanges(input: WriteInput, existing: PostRecord | null, environment: WriteEnvironment): Promise<PostChanges> {
  const { params } = input;
  const { definition, abilities, storage, site, fields } = environment;
  const changes: PostChanges = { terms: {} };

  const title = isSet(params.title) ? textOf(params.title, true) : undefined;
  if (title !== undefined) changes.title = title;
  const content = isSet(params.content) ? textOf(params.content, false) : undefined;
  if (content !== undefined) changes.content = content;
  const excerpt = isSet(params.excerpt) ? textOf(params.excerpt, false) : undefined;
  if (excerpt !== undefined) changes.excerpt = excerpt;

  if (params.status !== undefined && (!existing || existing.status !== params.status)) {
    checkStatus(params.status, environment);
    changes.status = params.status;
  }

  if (!isEmpty(params.date) && params.date !== null && params.date !== undefined) {
    const parsed = dateWithGmt(params.date, site);
    if (parsed && (!existing || existing.date !== parsed[0])) changes.date = { local: parsed[0], gmt: parsed[1] };
  } else if (!isEmpty(params.date_gmt) && params.date_gmt !== null && params.date_gmt !== undefined) {
    const parsed = dateWithGmt(params.date_gmt, site, true);
    if (parsed && (!existing || existing.date_gmt !== parsed[1])) changes.date = { local: parsed[0], gmt: parsed[1] };
  }
  if ((input.has('date_gmt') && params.date_gmt === null) || (input.has('date') && params.date === null)) {
    delete changes.date;
    changes.resetDate = true;
  }

  if (params.slug !== undefined) changes.slug = params.slug;

  if (fields.author && !isEmpty(params.author) && params.author !== undefined) {
    if (params.author !== abilities.user?.id && !(await storage.get('users', params.author))) {
      throw new CmsError('rest_invalid_author', 'Invalid author ID.', 400);
    }
    changes.author = params.author;
  }

  const wantsSticky = definition.supportsSticky && !isEmpty(params.sticky);
  if (fields.password && params.password !== undefined) {
    changes.password = params.password;
    if (params.password !== '') {
      if (wantsSticky) throw invalidField('A post can not be sticky and have a password.');
      if (existing?.sticky === true) throw invalidField('A sticky post can not be password protected.');
    }
  }
  if (wantsSticky && existing && existing.password !== '') {
    throw invalidField('A password protected post can not be set to sticky.');
  }

  if (definition.hierarchical && params.parent !== undefined) {
    const parent = Math.trunc(params.parent);
    if (parent !== 0 && !(await postsIn(storage).get(parent))) {
      throw new CmsError('rest_post_invalid_id', 'Invalid post parent ID.', 400);
    }
    changes.parent = parent;
  }
  if (definition.supportsPageAttributes && params.menu_order !== undefined) changes.menuOrder = Math.trunc(params.menu_order);
  if (fields.comment_status && !isEmpty(params.comment_status) && params.comment_status !== undefined) changes.commentStatus = params.comment_status;
  if (fields.ping_status && !isEmpty(params.ping_status) && params.ping_status !== undefined) changes.pingStatus = params.ping_status;

  if (params.template !== undefined) {
    const template = params.template;
    if (template !== '' && template !== existing?.template && !(template in environment.templates)) throw templateError(environment.templates);
    changes.template = template;
  }
  if (isSet(params.meta)) changes.meta = metaChanges(params.meta, fields.meta?.properties ?? {});
  if (definition.supportsSticky && isSet(params.sticky)) changes.sticky = params.sticky === true;
  if (fields.featured_media && params.featured_media !== undefined) changes.featuredMedia = Math.trunc(params.featured_media);
  if (definition.supportsFormats && !isEmpty(params.format) && params.format !== undefined) changes.format = params.format;
  for (const taxonomy of definition.taxonomies) {
    const value = params[taxonomy.restBase];
    if (!isSet(value)) continue;
    changes.terms[taxonomy.restBase] = (Array.isArray(value) ? value : [value]).map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
  }
  return changes;
}
