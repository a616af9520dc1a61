/**
 * A NUL inside a text filter (`?search=hel%00lo`, a slug, an email...) on every list route of every namespace, on
 * every store: never a 500, and a NUL inside a search term is compared literally, so it finds nothing that lacks it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoragePort } from '../../src/ports/storage.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { makeSite } from '../content/posts/helpers.js';
import { postgresForTests } from './postgres-setup.js';

const VALUES = ['hel\u0000lo', 'hello\u0000', '\u0000', 'a\u0000b@example.test'];
/** Text arguments that take a fixed vocabulary or shape rather than free text: not text filters. */
const NOT_FILTERS = new Set(['context', 'order', 'orderby', 'status', '_fields', '_embed', '_jsonp', 'search_columns', 'type', 'subtype']);

const stores: [string, () => StoragePort | Promise<StoragePort> | undefined][] = [
  ['memory', () => undefined],
  ['SQLite', () => sqliteStorage({ path: ':memory:' })],
];
const postgres = await postgresForTests('NUL in text filters on PostgreSQL', { schemaPrefix: 'quire_nul' });
if (postgres) stores.push(['PostgreSQL', () => postgresStorage({ connectionString: postgres.server.connectionString, schema: postgres.freshSchema(), max: 4 })]);

for (const [name, open] of stores) {
  describe(`a NUL in a text filter (${name})`, () => {
    it('is never a 500 on any list route, and matches nothing that lacks it', async () => {
      const storage = await open();
      const site = await makeSite(storage ? { storage } : {});
      const post = await site.create({ title: 'hello', slug: 'hello', content: 'hello there', status: 'publish', comment_status: 'open' });
      const comment = await site.admin('POST', '/cms/v2/comments', { json: { post: post.id, content: 'hello' } });
      assert.equal(comment.status, 201);
      assert.equal((await site.admin('POST', '/cms/v2/tags', { json: { name: 'hello' } })).status, 201);

      const tried: string[] = [];
      for (const route of site.cms.registry.routes) {
        if (route.pathParams.size > 0) continue;
        const endpoint = route.endpoints.find((candidate) => candidate.methods.includes('GET'));
        if (endpoint === undefined) continue;
        for (const [arg, definition] of endpoint.args) {
          if (definition.schema.type !== 'string' || definition.schema.enum !== undefined || NOT_FILTERS.has(arg)) continue;
          for (const value of VALUES) {
            const target = `${route.pattern}?${arg}=${encodeURIComponent(value)}`;
            for (const caller of [site.admin, site.anonymous]) {
              const response = await caller('GET', target);
              assert.ok(response.status < 500, `${target}: ${response.status} ${JSON.stringify(response.json)}`);
              // Search terms are trimmed of NULs at their ends, as PHP's trim() does in the reference.
              if (response.status === 200 && Array.isArray(response.json) && arg === 'search' && /.\u0000./.test(value)) {
                assert.deepEqual(response.json, [], `${target} found something`);
              }
            }
            tried.push(`${route.pattern}?${arg}`);
          }
        }
      }
      for (const filter of ['/cms/v2/posts?search', '/cms/v2/search?search', '/cms/v2/comments?search', '/cms/v2/users?search', '/cms/v2/tags?search']) {
        assert.ok(tried.includes(filter), `${filter} was tried`);
      }
      // The same filters without the NUL find the records, so the empty answers above were not for want of data.
      for (const target of ['/cms/v2/posts?search=hello', '/cms/v2/search?search=hello', '/cms/v2/comments?search=hello', '/cms/v2/tags?search=hello']) {
        const response = await site.admin('GET', target);
        assert.equal(response.status, 200, target);
        assert.ok(response.json.length > 0, target);
      }
      await storage?.close?.();
    });
  });
}
