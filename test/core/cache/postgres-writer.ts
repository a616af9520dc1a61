/**
 * The other process of the response cache's PostgreSQL test:
 *
 *   node --import tsx test/core/cache/postgres-writer.ts <connection string> <schema> <post id> <title>
 *
 * Renames a post through its own cms on the same database, as an administrator, and exits.
 */
import { createCms } from '../../../src/cms.js';
import { postgresStorage } from '../../../src/storage/postgres/index.js';

const [connectionString, schema, postId, title] = process.argv.slice(2);
const storage = await postgresStorage({ connectionString: connectionString!, schema: schema!, max: 2 });
try {
  const cms = createCms({ storage, site: { url: 'http://site.test' } });
  const admin = (await cms.users.find('admin'))!;
  const answer = await cms.handle({
    method: 'POST', path: `/cms/v2/posts/${postId}`, user: { id: admin.id },
    headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title }),
  });
  if (answer.status !== 200) throw new Error(`rename answered ${answer.status}: ${JSON.stringify(answer.body)}`);
} finally {
  await storage.close();
}
