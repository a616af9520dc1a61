/**
 * Creating, updating and deleting sign-up forms, shared by the admin routes and the in-process API. Input is
 * checked by the routes' own argument definitions (`args.ts`), so both accept exactly the same bodies.
 */
import { sanitizeHtml } from '../format/lazy-modules.js';
import { compileArg, type ArgMap, type Params } from '../core/args/define.js';
import { phpTrim } from '../format/php.js';
import { stripAllTags } from '../format/strip-tags.js';
import { ALLOWED_PROTOCOLS } from '../format/url.js';
import { CmsError } from '../core/errors.js';
import { ParamGroups, validateParams } from '../core/params.js';
import { resolveSite } from '../core/site.js';
import { nowDates } from '../content/post-type/index.js';
import type { MailingDeps } from './deps.js';
import {
  defaultSettings,
  FORM_TYPE,
  getFormRecord,
  insertFormRecord,
  removeFormRecord,
  settingsOf,
  toSignupForm,
  uniqueFormSlug,
  updateFormRecord,
  type SignupForm,
  type SignupFormFields,
} from './forms-store.js';
import type { formWriteArgs } from './args.js';
import { DEFAULT_CONTENT, MESSAGE_KEYS, SETTING_KEYS, type FormMessages, type FormSettings } from './settings.js';

/** Checked input: sanitised values and whether each was sent. */
/** A form create or update, checked by `formWriteArgs()`. */
export interface FormInput {
  readonly params: Params<typeof formWriteArgs>;
}

/** Runs a plain object through argument definitions as a JSON body would go (400 `rest_invalid_param` ...). */
export function checkInput<A extends ArgMap>(input: unknown, specs: A): { readonly params: Params<A>; has(name: string): boolean } {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new CmsError('rest_invalid_param', 'The input must be an object.', 400);
  }
  const declared = { args: new Map(Object.entries(specs).map(([name, spec]) => [name, compileArg(name, spec)])) };
  let json: unknown;
  try {
    json = JSON.parse(JSON.stringify(input));
  } catch {
    throw new CmsError('rest_invalid_param', 'The input must be JSON data.', 400);
  }
  const groups = new ParamGroups({ json, post: null, query: {}, url: {}, endpoint: declared });
  validateParams(groups, declared, { user: null, method: 'POST', param: (name) => groups.get(name) });
  // Checked by the engine against `specs`, so the parameters are what `Params<A>` says.
  return { params: groups.merged() as Params<A>, has: (name) => groups.has(name) };
}

export function formNotFound(): CmsError {
  return new CmsError('mailing_form_not_found', 'The requested sign-up form was not found.', 404);
}

const MESSAGE_HTML: sanitizeHtml.IOptions = {
  allowedTags: ['strong', 'b', 'em', 'i', 'a', 'br', 'span', 'img'],
  allowedAttributes: Object.fromEntries(['strong', 'b', 'em', 'i', 'a', 'br', 'span', 'img']
    .map((tag) => [tag, ['class', 'id', 'style', 'href', 'target', 'src', 'width', 'height', 'alt']])),
  allowedSchemes: [...ALLOWED_PROTOCOLS],
  disallowedTagsMode: 'discard',
  parser: { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
};

/** A slug from a title: accents dropped, lower-case ASCII letters, digits and dashes. */
export function slugOf(text: string): string {
  return stripAllTags(text)
    .normalize('NFKD').replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);
}

function datesNow(deps: MailingDeps): { local: string; gmt: string } {
  return nowDates(deps.clock.now(), resolveSite(deps.site, undefined, deps.names));
}

function settingsFrom(sent: Record<string, unknown>, current: FormSettings): FormSettings {
  const settings: FormSettings = { ...current, lists: [...current.lists] };
  for (const key of SETTING_KEYS) {
    const value = sent[key];
    if (value === undefined || value === null) continue;
    switch (key) {
      case 'lists':
        settings.lists = [...new Set(value as string[])];
        break;
      case 'css':
        settings.css = typeof value === 'string' && value !== '0' ? phpTrim(value) : '';
        break;
      case 'required_fields': case 'subscriber_tags': case 'remove_subscriber_tags': case 'redirect':
        settings[key] = phpTrim(String(value));
        break;
      default:
        settings[key] = value === true;
    }
  }
  return settings;
}

function messagesFrom(sent: Record<string, unknown>, current: Partial<FormMessages>): Partial<FormMessages> {
  const messages = { ...current };
  for (const key of MESSAGE_KEYS) {
    const value = sent[key];
    if (typeof value !== 'string') continue;
    const clean = phpTrim(sanitizeHtml(value, MESSAGE_HTML));
    if (clean === '') delete messages[key];
    else messages[key] = clean;
  }
  return messages;
}

const asObject = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};

const titleOf = (value: string) => phpTrim(stripAllTags(value));

export async function createForm(deps: MailingDeps, input: FormInput): Promise<SignupForm> {
  const { params } = input;
  const title = params.title !== undefined ? titleOf(params.title) : '';
  const dates = datesNow(deps);
  const base = slugOf(params.slug !== undefined && params.slug !== '' ? params.slug : title) || 'sign-up-form';
  const record = await insertFormRecord(deps.storage, {
    type: FORM_TYPE,
    status: params.status ?? 'publish',
    title,
    slug: await uniqueFormSlug(deps.storage, base),
    content: params.content ?? DEFAULT_CONTENT,
    date: dates.local,
    date_gmt: dates.gmt,
    modified: dates.local,
    modified_gmt: dates.gmt,
    author: 0,
    parent: 0,
    menu_order: 0,
    settings: settingsFrom(asObject(params.settings), defaultSettings()),
    messages: messagesFrom(asObject(params.messages), {}),
  });
  return toSignupForm(record);
}

export async function updateForm(deps: MailingDeps, id: number, input: FormInput): Promise<SignupForm> {
  const existing = await getFormRecord(deps.storage, id);
  if (!existing) throw formNotFound();
  const { params } = input;
  const patch: Partial<SignupFormFields> = {};
  if (params.title !== undefined) patch.title = titleOf(params.title);
  if (params.slug !== undefined) {
    const base = slugOf(params.slug) || slugOf(patch.title ?? existing.title) || 'sign-up-form';
    patch.slug = await uniqueFormSlug(deps.storage, base, id);
  }
  if (params.status !== undefined) patch.status = params.status;
  if (params.content !== undefined) patch.content = params.content;
  if (params.settings !== undefined) patch.settings = settingsFrom(asObject(params.settings), settingsOf(existing));
  if (params.messages !== undefined) patch.messages = messagesFrom(asObject(params.messages), existing.messages ?? {});
  const dates = datesNow(deps);
  patch.modified = dates.local;
  patch.modified_gmt = dates.gmt;
  const updated = await updateFormRecord(deps.storage, id, patch);
  if (!updated) throw formNotFound();
  return toSignupForm(updated);
}

export async function readForm(deps: MailingDeps, id: number): Promise<SignupForm> {
  const record = await getFormRecord(deps.storage, id);
  if (!record) throw formNotFound();
  return toSignupForm(record);
}

export async function deleteForm(deps: MailingDeps, id: number): Promise<SignupForm> {
  const record = await getFormRecord(deps.storage, id);
  if (!record) throw formNotFound();
  await removeFormRecord(deps.storage, id);
  return toSignupForm(record);
}
