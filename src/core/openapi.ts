import type { JsonSchema } from './args/schema.js';
import type { Registry, Route } from './registry.js';
import type { Site } from './site.js';

const NON_SCHEMA_KEYWORDS = new Set(['context', 'readonly', 'required', 'arg_options']);

/** JSON schema keywords OpenAPI 3.1 understands; the reference's boolean exclusive bounds become numbers. */
function toOpenApiSchema(schema: JsonSchema): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (value === undefined || NON_SCHEMA_KEYWORDS.has(key)) continue;
    if (key === 'items' || key === 'additionalProperties') {
      output[key] = typeof value === 'object' ? toOpenApiSchema(value as JsonSchema) : value;
    } else if (key === 'properties' || key === 'patternProperties') {
      output[key] = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [name, toOpenApiSchema(child)]));
    } else if (key === 'anyOf' || key === 'oneOf') {
      output[key] = (value as JsonSchema[]).map(toOpenApiSchema);
    } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
      const bound = key === 'exclusiveMinimum' ? schema.minimum : schema.maximum;
      if (value === true && bound !== undefined) output[key] = bound;
    } else {
      output[key] = value;
    }
  }
  if (output.exclusiveMinimum !== undefined) delete output.minimum;
  if (output.exclusiveMaximum !== undefined) delete output.maximum;
  return output;
}

/** `/cms/v2/posts/(?P<id>[\d]+)` → `/cms/v2/posts/{id}`, and the names of its path parameters. */
function openApiPath(route: Route): { path: string; names: string[] } {
  const names: string[] = [];
  const path = route.pattern.replace(/\(\?P<(\w+)>(?:[^()]|\((?:[^()])*\))*\)/g, (_, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path, names };
}

/** An OpenAPI 3.1 description of every route, read from the same definitions as the index and the validators. */
export function openApiDocument(registry: Registry, site: Site): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of registry.routes) {
    const { path, names } = openApiPath(route);
    const operations: Record<string, unknown> = (paths[path] ??= {});
    for (const endpoint of route.endpoints) {
      if (!endpoint.showInIndex) continue;
      for (const method of endpoint.methods) {
        const parameters: Record<string, unknown>[] = names.map((name) => ({
          name, in: 'path', required: true, schema: toOpenApiSchema(endpoint.args.get(name)?.schema ?? { type: 'string' }),
        }));
        const bodyProperties: Record<string, unknown> = {};
        const bodyRequired: string[] = [];
        for (const [name, compiled] of endpoint.args) {
          if (names.includes(name)) continue;
          const schema = toOpenApiSchema(compiled.schema);
          if (method === 'GET' || method === 'DELETE') {
            parameters.push({ name, in: 'query', required: compiled.required, schema });
          } else {
            bodyProperties[name] = schema;
            if (compiled.required) bodyRequired.push(name);
          }
        }
        const operation: Record<string, unknown> = {
          operationId: `${method.toLowerCase()} ${path}`,
          parameters,
          responses: { default: { description: 'A JSON record, a list of records, or an error `{code, message, data}`.' } },
        };
        if (route.namespace !== '') operation.tags = [route.namespace];
        if (Object.keys(bodyProperties).length > 0) {
          const schema: Record<string, unknown> = { type: 'object', properties: bodyProperties };
          if (bodyRequired.length > 0) schema.required = bodyRequired;
          operation.requestBody = {
            content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
          };
        }
        if (endpoint.allowBatch) operation['x-allow-batch'] = { v1: true };
        operations[method.toLowerCase()] = operation;
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: site.name, description: site.description, version: '1' },
    servers: [{ url: site.apiUrl }],
    paths,
  };
}
