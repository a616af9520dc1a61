/** The item schema of `/settings`: one property per setting. */
import type { JsonSchema } from '../core/args/schema.js';
import { SETTINGS } from './definitions.js';

let cached: (JsonSchema & { properties: Record<string, JsonSchema> }) | undefined;

export function settingsSchema(): JsonSchema {
  cached ??= {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'settings',
    type: 'object',
    properties: Object.fromEntries(SETTINGS.map((setting) => [setting.name, setting.schema])),
  } as JsonSchema & { properties: Record<string, JsonSchema> };
  return cached;
}
