/**
 * The same sequence of requests — reads of every route declared `cache` in many shapes, writes between them —
 * run on a site with the response cache and on one without: every answer is the same, byte for byte.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms, type Cms } from '../../../src/cms.js';
import { encodeResponse, isFromKeptBytes } from '../../../src/core/encode.js';
import { WRITTEN_OUT } from '../../../src/core/mount.js';
import type { CmsRequest } from '../../../src/core/types.js';

/** The media item is record 1, the first post 2, the second 3; the administrator is user 1, the editor 2. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

type Who = 'admin' | 'editor' | null;
type Step =
  | { read: string; as?: Who; head?: true; revalidate?: true }
  | { write: string; method?: string; as?: Who; json?: unknown }
  | { tick: number }
  | ((cms: Cms) => Promise<unknown>);

const READS: Step[] = [
  { read: '/' }, { read: '/cms/v2' }, { read: '/?_fields=name,url' }, { read: '/cms/v2/posts' },
  { read: '/cms/v2/posts?per_page=2&page=2' }, { read: '/cms/v2/posts?_embed' }, { read: '/cms/v2/posts?_embed=author' },
  { read: '/cms/v2/posts?_fields=id,title' }, { read: '/cms/v2/posts?_envelope' }, { read: '/cms/v2/posts?_jsonp=cb' },
  { read: '/cms/v2/posts?_pretty' }, { read: '/cms/v2/posts?search=second' }, { read: '/cms/v2/posts?context=edit', as: 'admin' },
  { read: '/cms/v2/posts?context=edit', as: 'editor' }, { read: '/cms/v2/posts?status=draft', as: 'admin' },
  { read: '/cms/v2/posts/2' }, { read: '/cms/v2/posts/2', head: true }, { read: '/cms/v2/posts/2', revalidate: true },
  { read: '/cms/v2/posts/3?context=edit', as: 'admin' }, { read: '/cms/v2/posts/999' }, { read: '/cms/v2/pages' },
  { read: '/cms/v2/media' }, { read: '/cms/v2/categories' }, { read: '/cms/v2/tags?hide_empty=true' },
  { read: '/cms/v2/users' }, { read: '/cms/v2/users/me', as: 'editor' }, { read: '/cms/v2/users?context=edit', as: 'admin' },
  { read: '/cms/v2/comments' }, { read: '/cms/v2/comments?context=edit', as: 'admin' }, { read: '/cms/v2/search?search=post' },
  { read: '/cms/v2/types' }, { read: '/cms/v2/statuses', as: 'editor' }, { read: '/cms/v2/taxonomies' },
  { read: '/cms/v2/settings', as: 'admin' }, { read: '/cms/v2/settings' }, { read: '/cms/v2/posts?rest_route=/cms/v2/pages' },
];

const SEQUENCE: Step[] = [
  ...READS,
  { write: '/cms/v2/posts', json: { title: 'Second post', content: '<p>More.</p>', status: 'publish', categories: [1] } },
  ...READS,
  { write: '/cms/v2/posts/2', json: { title: 'First, renamed', excerpt: 'Short.' } },
  { write: '/cms/v2/posts', json: { title: 'Scheduled', status: 'publish', date_gmt: '2024-05-01T12:30:00' } },
  { write: '/cms/v2/posts', json: { title: 'Draft', status: 'draft' } },
  { write: '/cms/v2/tags', json: { name: 'news' } },
  ...READS,
  { tick: 45 * 60 * 1000 },
  ...READS,
  { write: '/batch/v1', json: { requests: [{ method: 'POST', path: '/cms/v2/posts/3', body: { tags: [2] } }, { method: 'DELETE', path: '/cms/v2/posts/2' }] } },
  (cms) => cms.comments.create({ post: 3, content: 'A visitor says hi.', authorName: 'V', authorEmail: 'v@site.test' }),
  (cms) => cms.users.update(2, { name: 'Eddie Editor', roles: ['author'] }),
  ...READS,
  { write: '/cms/v2/settings', json: { title: 'Renamed site', timezone: 'Europe/Paris' } },
  ...READS,
];

async function seeded(responseCache: boolean) {
  const clock = { at: Date.parse('2024-05-01T12:00:00Z') };
  const cms = createCms({
    clock: { now: () => new Date(clock.at) }, site: { url: 'http://site.test' },
    ...(responseCache ? {} : { responseCache: false }),
  });
  const headers: Record<string, Record<string, string>> = {};
  for (const [login, role] of [['admin', 'administrator'], ['editor', 'editor']] as const) {
    const user = await cms.users.create({ login, email: `${login}@site.test`, roles: [role] });
    await cms.users.createApplicationPassword(user.id, { name: 'tests', password: `${login}password12345` });
    headers[login] = { authorization: `Basic ${Buffer.from(`${login}:${login}password12345`).toString('base64')}` };
  }
  const media = await cms.handle({
    method: 'POST', path: '/cms/v2/media', body: GIF,
    headers: { ...headers.admin, 'content-type': 'image/gif', 'content-disposition': 'attachment; filename="pixel.gif"' },
  });
  assert.equal(media.status, 201);
  const first = await cms.handle({
    method: 'POST', path: '/cms/v2/posts', headers: { ...headers.admin, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'First post', content: '<!-- wp:paragraph --><p>Hello "world".</p><!-- /wp:paragraph -->', status: 'publish', featured_media: (media.body as { id: number }).id }),
  });
  assert.equal(first.status, 201);
  return { cms, clock, headers };
}

/** `writtenOut`: every request marked as an adapter that only writes the answer out marks it. */
async function run(responseCache: boolean, writtenOut = false): Promise<{ answers: string[]; kept: number }> {
  const { cms, clock, headers } = await seeded(responseCache);
  const answers: string[] = [];
  let kept = 0;
  let lastTag: string | undefined;
  const send = async (request: CmsRequest) => {
    const response = await cms.handle(writtenOut ? { ...request, [WRITTEN_OUT]: true } as CmsRequest : request);
    // A kept answer written out comes as its bytes, with the headers all its hits share (frozen).
    if (isFromKeptBytes(response) || (response.body instanceof Uint8Array && Object.isFrozen(response.headers))) kept += 1;
    const encoded = encodeResponse(response);
    lastTag = encoded.headers.ETag ?? lastTag;
    answers.push(`${request.method} ${request.path}?${request.query} → ${encoded.status} ${JSON.stringify(encoded.headers)}\n${Buffer.from(encoded.body ?? new Uint8Array(0)).toString('latin1')}`);
  };
  for (const step of SEQUENCE) {
    if (typeof step === 'function') await step(cms);
    else if ('tick' in step) clock.at += step.tick;
    else {
      const target = 'read' in step ? step.read : step.write;
      const [path, query = ''] = target.split('?') as [string, string?];
      const auth = step.as === null ? {} : headers[step.as ?? ('write' in step ? 'admin' : '')] ?? {};
      if ('write' in step) {
        await send({ method: step.method ?? 'POST', path, query, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(step.json) });
      } else {
        const method = step.head ? 'HEAD' : 'GET';
        // Each read twice: the second is the one a cache would answer.
        await send({ method, path, query, headers: { ...auth } });
        await send({ method, path, query, headers: { ...auth, ...(step.revalidate && lastTag ? { 'if-none-match': lastTag } : {}) } });
      }
    }
  }
  return { answers, kept };
}

describe('cached and uncached answers', () => {
  it('are byte for byte the same over a sequence of reads and writes', async () => {
    const cached = await run(true);
    const uncached = await run(false);
    assert.equal(uncached.kept, 0);
    assert.ok(cached.kept > READS.length * 4, `most second reads were kept (${cached.kept})`);
    assert.equal(cached.answers.length, uncached.answers.length);
    for (const [index, answer] of cached.answers.entries()) assert.equal(answer, uncached.answers[index], `answer ${index}`);
    assert.ok(cached.answers.some((answer) => / → 304 /.test(answer)), 'a revalidation was answered 304');
    assert.ok(cached.answers.some((answer) => answer.includes('Scheduled')), 'the scheduled post went live on the way');
  });

  it('are byte for byte the same when the adapter only writes them out', async () => {
    const writtenOut = await run(true, true);
    const uncached = await run(false);
    assert.ok(writtenOut.kept > READS.length * 4, `most second reads were kept (${writtenOut.kept})`);
    assert.equal(writtenOut.answers.length, uncached.answers.length);
    for (const [index, answer] of writtenOut.answers.entries()) assert.equal(answer, uncached.answers[index], `answer ${index}`);
  });
});
