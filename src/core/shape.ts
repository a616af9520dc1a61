import type { JsonSchema } from './args/schema.js';
import type { Links, LinkTarget } from './context.js';
import { ChunkedText } from './chunked-text.js';

const API_REL_PREFIX = 'https://api.w.org/';

/**
 * Removes fields whose schema `context` list does not include the requested context, recursively. Every record of
 * an answer built afresh passes here, so it loops in place (no entry arrays) and compiles each pattern once.
 */
export function filterByContext(data: unknown, schema: JsonSchema, context: string): unknown {
  if (data === null || typeof data !== 'object' || data instanceof ChunkedText) return data;
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  if (type === undefined) return data;
  const hasArray = type === 'array' || (Array.isArray(type) && type.includes('array'));
  const hasObject = type === 'object' || (Array.isArray(type) && type.includes('object'));
  const isList = Array.isArray(data);
  const asArray = hasArray && (isList || !hasObject);
  const asObject = !asArray && hasObject;
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const schemaOf = (key: string | number): JsonSchema | undefined => {
    if (asArray) return schema.items;
    if (asObject) return schema.properties?.[key] ?? patternSchema(String(key), schema) ?? additional;
    return undefined;
  };

  if (isList) {
    const output: unknown[] = [];
    for (let index = 0; index < data.length; index += 1) {
      const fieldSchema = schemaOf(index);
      if (fieldSchema?.context && !fieldSchema.context.includes(context)) continue;
      output.push(fieldSchema ? filterByContext(data[index], fieldSchema, context) : data[index]);
    }
    return output;
  }
  const output: Record<string, unknown> = {};
  const source = data as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const fieldSchema = schemaOf(key);
    if (fieldSchema?.context && !fieldSchema.context.includes(context)) continue;
    output[key] = fieldSchema ? filterByContext(source[key], fieldSchema, context) : source[key];
  }
  return output;
}

const compiledPatterns = new Map<string, RegExp>();

function patternSchema(key: string, schema: JsonSchema): JsonSchema | undefined {
  const patterns = schema.patternProperties;
  if (!patterns) return undefined;
  for (const pattern of Object.keys(patterns)) {
    let compiled = compiledPatterns.get(pattern);
    if (!compiled) {
      compiled = new RegExp(pattern, 'u');
      // Patterns come from route schemas, a fixed few; the bound only guards against a host registering many.
      if (compiledPatterns.size < 1000) compiledPatterns.set(pattern, compiled);
    }
    if (compiled.test(key)) return patterns[pattern];
  }
  return undefined;
}

/**
 * Splits `_fields` (a comma/space list) into trimmed, non-empty names; a list or map gives its scalar values
 * (`wp_parse_list`).
 */
export function parseList(value: unknown): string[] {
  if (value === undefined || value === null || value === false) return [];
  const parts = typeof value === 'object'
    ? Object.values(value).filter(isScalar).map(String)
    : String(value).split(/[\s,]+/);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

type FieldTree = { [key: string]: FieldTree | true };

/** The requested field paths as a tree of prototype-less nodes, so any name is just a key. */
function fieldTree(fields: readonly string[]): FieldTree {
  const tree = Object.create(null) as FieldTree;
  for (const field of fields) {
    const parts = field.split('.');
    let node = tree;
    let covered = false;
    while (parts.length > 1) {
      const next = parts.shift()!;
      const existing = node[next];
      if (existing === true) {
        covered = true;
        break;
      }
      node = (node[next] = existing ?? Object.create(null) as FieldTree);
    }
    if (!covered) node[parts[0]!] = true;
  }
  return tree;
}

function intersect(data: unknown, tree: FieldTree): unknown {
  if (data === null || typeof data !== 'object' || data instanceof ChunkedText) return data;
  const output: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const spec = tree[key];
    if (spec === undefined) continue;
    const kept = spec !== true && value !== null && typeof value === 'object' ? intersect(value, spec) : value;
    Object.defineProperty(output, key, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  return Array.isArray(data) ? Object.values(output) : output;
}

/** Applies `_fields` to a body: each element of a list, or the object itself. Nothing left gives `[]`. */
export function filterFields(data: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || data === null || typeof data !== 'object') return data;
  const tree = fieldTree(fields);
  if (Array.isArray(data)) return data.map((item) => emptyAsList(intersect(item, tree)));
  return emptyAsList(intersect(data, tree));
}

function emptyAsList(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0 ? [] : value;
}

/** Whether a top-level field is wanted by `_fields` (the reference's `rest_is_field_included`). */
export function isFieldIncluded(field: string, fields: readonly string[]): boolean {
  if (fields.length === 0) return true;
  return fields.some((accepted) => accepted === field || accepted.startsWith(`${field}.`) || field.startsWith(`${accepted}.`));
}

/**
 * Links for output: `https://api.w.org/x` rels shortened to `wp:x`, `curies` appended, attributes before `href`.
 * Every fresh record and every write's answer passes here, so it builds each list once, without spreads.
 */
export function compactLinks(links: Links | undefined): Record<string, Record<string, unknown>[]> | null {
  if (!links) return null;
  const output: Record<string, Record<string, unknown>[]> = {};
  let shortened = false;
  let any = false;
  for (const rel of Object.keys(links)) {
    const targets = links[rel]!;
    if (targets.length === 0) continue;
    const name = rel.startsWith(API_REL_PREFIX) ? `wp:${rel.slice(API_REL_PREFIX.length)}` : rel;
    if (name !== rel) shortened = true;
    // Two rels may shorten to one name: the second's targets follow the first's.
    let list = Object.hasOwn(output, name) ? output[name] : undefined;
    if (list === undefined) output[name] = list = [];
    for (const target of targets) list.push(orderLink(target));
    any = true;
  }
  if (shortened) output.curies = [{ name: 'wp', href: `${API_REL_PREFIX}{rel}`, templated: true }];
  return any ? output : null;
}

function orderLink(target: LinkTarget): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  const attributes = target as unknown as Record<string, unknown>;
  for (const key of Object.keys(attributes)) {
    if (key === 'href') continue;
    const value = attributes[key];
    if (value !== undefined) ordered[key] = value;
  }
  ordered.href = target.href;
  return ordered;
}
