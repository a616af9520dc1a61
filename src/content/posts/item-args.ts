/**
 * Create and update arguments, derived from the item schema as the reference's
 * `get_endpoint_args_for_item_schema` does: writable fields only, each validated against its own schema, with
 * the reference's own callbacks where it has them (slug sanitising; title, content, excerpt and meta checked by
 * the handler instead of the schema).
 */
import { arg, type ArgSpec } from '../../core/args/define.js';
import type { JsonSchema } from '../../core/args/schema.js';
import { sanitizeTitle } from './slug.js';
import type { ItemSchema } from './schema.js';

/** Fields whose raw value goes to the handler unchecked (strings or `{raw}` objects; meta is checked there). */
const UNCHECKED = new Set(['title', 'content', 'excerpt', 'meta']);

export function itemArgs(schema: ItemSchema): Record<string, ArgSpec> {
  const result: Record<string, ArgSpec> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (property.readonly) continue;
    const { context: _context, readonly: _readonly, ...published } = property;
    const argSchema: JsonSchema = published;
    if (UNCHECKED.has(name)) {
      result[name] = arg(argSchema, { phase: 'none' });
    } else if (name === 'slug') {
      result[name] = arg(argSchema, { transform: (value) => sanitizeTitle(String(value)) });
    } else {
      result[name] = arg(argSchema);
    }
  }
  return result;
}
