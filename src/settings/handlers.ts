/** `GET /settings` and `POST /settings`. */
import type { HandlerResult, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import type { JsonObject } from '../core/types.js';
import { resolveSite, type SiteSettings } from '../core/site.js';
import { reply } from '../core/response.js';
import { SETTINGS } from './definitions.js';
import type { SiteSettingsStore } from './store.js';

export interface SettingsDeps {
  readonly settings: SiteSettingsStore;
}

/** Every setting's value: the stored one, else the host's, else the default. */
async function currentValues(context: RequestContext, deps: SettingsDeps): Promise<Record<string, unknown>> {
  const merged: SiteSettings = await deps.settings.current();
  const stored = await deps.settings.stored();
  const site = resolveSite(merged, merged.url === undefined ? context.site.apiUrl : undefined);
  const fromSite: Record<string, unknown> = {
    title: site.name, description: site.description, url: site.url, timezone: site.timezone, use_smilies: site.useSmilies,
    show_on_front: merged.showOnFront ?? 'posts', page_on_front: site.pageOnFront, page_for_posts: site.pageForPosts,
    site_logo: merged.siteLogo ?? null, site_icon: site.siteIcon,
  };
  const values: Record<string, unknown> = {};
  for (const setting of SETTINGS) {
    if (Object.hasOwn(stored, setting.name)) values[setting.name] = stored[setting.name];
    else if (setting.site && Object.hasOwn(fromSite, setting.name)) values[setting.name] = fromSite[setting.name];
    else values[setting.name] = setting.fallback;
  }
  return values;
}

export async function readSettings(context: RequestContext, deps: SettingsDeps): Promise<HandlerResult> {
  return reply(await currentValues(context, deps));
}

export async function updateSettings(context: RequestContext, deps: SettingsDeps): Promise<HandlerResult> {
  const changes: Record<string, unknown> = {};
  const failures: [string, string][] = [];
  for (const setting of SETTINGS) {
    if (!context.has(setting.name)) continue;
    const value = context.params[setting.name];
    if (value === null || value === undefined) {
      changes[setting.name] = null;
      continue;
    }
    const cleaned = setting.clean(value);
    if (cleaned.ok) changes[setting.name] = cleaned.value;
    else failures.push([setting.name, cleaned.message]);
  }
  if (failures.length > 0) {
    const params: Record<string, string> = {};
    const details: Record<string, JsonObject> = {};
    for (const [name, message] of failures) {
      params[name] = message;
      details[name] = { code: 'rest_invalid_param', message, data: null };
    }
    throw new CmsError('rest_invalid_param', `Invalid parameter(s): ${failures.map(([name]) => name).join(', ')}`, 400, { params, details });
  }
  if (Object.keys(changes).length > 0) await deps.settings.update(changes);
  return reply(await currentValues(context, deps));
}
