import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openApiDocument } from '../../src/core/openapi.js';
import { resolveSite } from '../../src/core/site.js';
import { makeCore } from './fixture.js';

describe('the OpenAPI document', () => {
  const core = makeCore();
  const document = openApiDocument(core.options.registry, resolveSite({ name: 'T', url: 'http://example.test' }, undefined)) as any;

  it('lists every route with path parameters in OpenAPI form', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.deepEqual(document.servers, [{ url: 'http://example.test/cms-json' }]);
    const item = document.paths['/test/v1/things/{id}'];
    assert.deepEqual(Object.keys(item), ['get', 'post', 'put', 'patch', 'delete']);
    assert.deepEqual(item.get.parameters[0], { name: 'id', in: 'path', required: true, schema: { type: 'integer' } });
  });

  it('turns GET args into query parameters and write args into a body schema, from the same definitions', () => {
    const list = document.paths['/test/v1/things'];
    const perPage = list.get.parameters.find((parameter: any) => parameter.name === 'per_page');
    assert.deepEqual(perPage, { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', default: 10, minimum: 1, maximum: 100 } });
    assert.deepEqual(list.post.requestBody.content['application/json'].schema, {
      type: 'object', properties: { title: { type: 'string', minLength: 1 } }, required: ['title'],
    });
    assert.deepEqual(list.get['x-allow-batch'], { v1: true });
  });
});
