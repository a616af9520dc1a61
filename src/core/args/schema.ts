/** The JSON-schema subset the reference uses for arguments and item schemas (draft-04 flavoured). */

export type SchemaType = 'array' | 'object' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

export interface JsonSchema {
  type?: SchemaType | SchemaType[];
  title?: string;
  description?: string;
  default?: unknown;
  format?: string;
  enum?: readonly unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  minProperties?: number;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  /** `true` on a property (v3 style) or a list of property names on an object (v4 style). */
  required?: boolean | string[];
  /** Contexts (`view`, `embed`, `edit`) a response field appears in. */
  context?: string[];
  readonly?: boolean;
}

/** Keywords that the route index publishes for a top-level argument, in this order of preference. */
export const INDEX_KEYWORDS = [
  'title', 'description', 'default', 'type', 'format', 'enum', 'items', 'properties', 'additionalProperties',
  'patternProperties', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems',
  'anyOf', 'oneOf',
] as const;
