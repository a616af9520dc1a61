/** Looking up the schema that applies to one property of an object value. */

import { matchesPattern } from '../../format/pcre.js';
import type { JsonSchema } from './schema.js';

export function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/** The schema a declared property of an object schema has, if any. */
export function propertySchema(schema: JsonSchema, name: string): JsonSchema | undefined {
  const properties = schema.properties;
  if (properties == null || !hasOwn(properties, name)) return undefined;
  return properties[name] ?? undefined;
}

/** The schema of the first `patternProperties` regex matching a property name, if any. */
export function patternPropertySchema(schema: JsonSchema, name: string): JsonSchema | undefined {
  for (const [pattern, child] of Object.entries(schema.patternProperties ?? {})) {
    if (matchesPattern(pattern, name)) return child;
  }
  return undefined;
}
