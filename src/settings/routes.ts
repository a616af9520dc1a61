/** The route of `cms/v2/settings`. */
import { userCan, type CapabilityRules } from '../auth/index.js';
import type { RequestContext } from '../core/context.js';
import { EDITABLE, READABLE, type RouteTable } from '../core/registry.js';
import { updateArgs } from './args.js';
import { readSettings, updateSettings, type SettingsDeps } from './handlers.js';
import { settingsSchema } from './schema.js';

/** Only those who manage options; a refusal is the plain `rest_forbidden`, as the reference's check answers false. */
const canManageOptions = (rules: CapabilityRules) => (context: RequestContext) => userCan(context.user, 'manage_options', undefined, rules);

export function settingsRoutes(deps: SettingsDeps & { capabilityRules: CapabilityRules }): RouteTable {
  const permission = canManageOptions(deps.capabilityRules);
  return [
    { path: '/settings', schema: settingsSchema, cache: { varies: 'capabilities' }, endpoints: [
      { methods: READABLE, args: {}, permission, handler: (c) => readSettings(c, deps) },
      { methods: EDITABLE, args: updateArgs(), permission, handler: (c) => updateSettings(c, deps) },
    ] },
  ];
}
