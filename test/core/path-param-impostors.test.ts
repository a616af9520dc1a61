/**
 * A query or body parameter named like a path parameter takes the path's place (the reference's order), so it
 * must follow the path's rule: on every route of every namespace, an object, a list or a value the path would
 * not match is 400 rest_invalid_param, never a 500 and never a handler's own answer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from '../content/posts/helpers.js';

/** Values tried for a path group until one matches its pattern. */
const SAMPLES = ['1', 'me', 'abc', 'a1', 'slider-1', 'x'];
const IMPOSTOR_QUERIES = (name: string) => [`${name}[a]=1`, `${name}[]=1`, `${name}[toString]=x`];

describe('parameters named like path parameters', () => {
  it('are refused with 400 rest_invalid_param when the path would not match them, on every route', async (context) => {
    const site = await makeSite();
    const namespaces = new Set<string>();
    let tried = 0;
    for (const route of site.cms.registry.routes) {
      if (route.pathParams.size === 0) continue;
      let path = route.pattern;
      let filled = true;
      for (const [name, rule] of route.pathParams) {
        const sample = SAMPLES.find((candidate) => new RegExp(`^(?:${rule.source})$`).test(candidate));
        if (sample === undefined) filled = false;
        path = path.replace(new RegExp(`\\(\\?P<${name}>(?:[^()]|\\([^()]*\\))*\\)`), sample ?? '');
      }
      assert.ok(route.regex.test(path) || !filled, `${route.pattern} filled as ${path}`);
      if (!filled) continue;
      for (const endpoint of route.endpoints) {
        // The reference names missing required arguments before it checks the others.
        const codes = [...endpoint.args.values()].some((arg) => arg.required) ? ['rest_invalid_param', 'rest_missing_callback_param'] : ['rest_invalid_param'];
        for (const method of endpoint.methods) {
          for (const name of route.pathParams.keys()) {
            const answers = [];
            for (const query of IMPOSTOR_QUERIES(name)) answers.push([query, await site.admin(method, `${path}?${query}`)] as const);
            if (method !== 'GET') answers.push([`JSON ${name}`, await site.admin(method, path, { json: { [name]: { a: 1 } } })] as const);
            for (const [sent, response] of answers) {
              assert.equal(response.status, 400, `${method} ${path} ${sent}: ${response.status} ${JSON.stringify(response.json)}`);
              assert.ok(codes.includes(response.json.code), `${method} ${path} ${sent}: ${response.json.code}`);
              tried += 1;
            }
          }
        }
      }
      namespaces.add(route.namespace);
    }
    for (const namespace of ['cms/v2', 'forms/v1', 'mailing/v1', 'slider', 'webhooks/v1']) assert.ok(namespaces.has(namespace), `${namespace} was tried`);
    assert.ok(tried > 200, `${tried} requests`);
    context.diagnostic(`${tried} requests over ${[...namespaces].sort().join(', ')}`);
  });
});
