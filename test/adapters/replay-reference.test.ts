import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCms, type Cms } from '../../src/index.js';
import { SITE, adapters, assertMatchesTable, inProcess, replayEverywhere, type Case, type Target } from './replay-targets.js';

/**
 * Answers where quire follows the reference's observed behaviour, replayed in-process and through every adapter,
 * under both naming schemes. Each request leaves the site as it found it, so every target sees the same state.
 */

interface Seeded {
  /** The API root and the content namespace of the naming scheme. */
  root: string;
  ns: string;
  admin: string;
  author: string;
  authorsComment: number;
  existingCategory: number;
}

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const JSON_BODY = { 'content-type': 'application/json' };

async function seed(cms: Cms, root: string, ns: string): Promise<Seeded> {
  const chief = await cms.users.create({ login: 'chief', email: 'chief@example.test', roles: ['administrator'] });
  const writer = await cms.users.create({ login: 'writer', email: 'writer@example.test', roles: ['author'] });
  await cms.users.createApplicationPassword(chief.id, { name: 'replay', password: 'chiefpassword1' });
  await cms.users.createApplicationPassword(writer.id, { name: 'replay', password: 'writerpassword1' });
  const admin = basic('chief', 'chiefpassword1');
  const author = basic('writer', 'writerpassword1');
  const local = inProcess(cms, root);
  const post = async (authorization: string, path: string, json: unknown) => {
    const answer = await local.send({ method: 'POST', target: `${root}/${ns}${path}`, headers: { ...JSON_BODY, authorization }, body: JSON.stringify(json) });
    assert.ok(answer.status < 300, `seeding ${path}: ${answer.body.toString()}`);
    return JSON.parse(answer.body.toString()) as { id: number };
  };
  await post(admin, '/posts', { title: 'Public tomatoes', status: 'publish' });
  await post(admin, '/posts', { title: 'Secret tomatoes', status: 'publish', password: 'pw' });
  const authorsPost = await post(author, '/posts', { title: 'The author\'s post', status: 'publish' });
  const comment = await cms.comments.create({ post: authorsPost.id, content: 'On the author\'s post' });
  const category = await post(admin, '/categories', { name: 'Existing' });
  return { root, ns, admin, author, authorsComment: comment.id, existingCategory: category.id };
}

function cases(s: Seeded): Case[] {
  const at = (path: string) => `${s.root}/${s.ns}${path}`;
  return [
    {
      name: 'a logged-out search text never finds password-protected posts, nor counts them',
      method: 'GET', target: at('/search?search=tomatoes'), status: 200, expectHeaders: { 'x-wp-total': '1' },
      check: (json) => assert.deepEqual(json.map((result: { title: string }) => result.title), ['Public tomatoes']),
    },
    {
      name: 'a logged-in search finds them',
      method: 'GET', target: at('/search?search=tomatoes&_fields=title'), headers: { authorization: s.admin }, status: 200,
      expectHeaders: { 'x-wp-total': '2' },
      check: (json) => assert.deepEqual(json.map((result: { title: string }) => result.title).sort(), ['Public tomatoes', 'Secret tomatoes']),
    },
    {
      name: 'a search page past the end is an empty list that counts nothing',
      method: 'GET', target: at('/search?page=9'), status: 200, json: [], expectHeaders: { 'x-wp-total': '0', 'x-wp-totalpages': '0' },
    },
    {
      name: 'an anonymous comment with a bad email: the argument before the login',
      method: 'POST', target: at('/comments'), headers: JSON_BODY, body: JSON.stringify({ post: 1, content: 'Hi', author_email: 'nope' }),
      status: 400,
      json: {
        code: 'rest_invalid_param', message: 'Invalid parameter(s): author_email',
        data: {
          status: 400, params: { author_email: 'Invalid email address.' },
          details: { author_email: { code: 'rest_invalid_email', message: 'Invalid email address.', data: null } },
        },
      },
    },
    {
      name: 'a comment update with an unknown status: 200, the status unchanged',
      method: 'POST', target: at(`/comments/${s.authorsComment}?_fields=id,status`), headers: { ...JSON_BODY, authorization: s.admin },
      body: JSON.stringify({ status: 'published' }), status: 200, json: { id: s.authorsComment, status: 'approved' },
      expectHeaders: { allow: 'GET, POST, PUT, PATCH, DELETE' },
    },
    {
      name: 'after an update by the post\'s author, who does not moderate, Allow has no GET',
      method: 'POST', target: at(`/comments/${s.authorsComment}?_fields=id`), headers: { ...JSON_BODY, authorization: s.author },
      body: JSON.stringify({ content: 'On the author\'s post' }), status: 200, json: { id: s.authorsComment },
      expectHeaders: { allow: 'POST, PUT, PATCH, DELETE' },
    },
    {
      name: 'a category name taken: term_exists with the existing id in data and additional_data',
      method: 'POST', target: at('/categories'), headers: { ...JSON_BODY, authorization: s.admin }, body: JSON.stringify({ name: 'existing' }),
      status: 400,
      json: {
        code: 'term_exists', message: 'A term with the name provided already exists with this parent.',
        data: { status: 400, term_id: s.existingCategory }, additional_data: [s.existingCategory, s.existingCategory],
      },
    },
    {
      name: '_fields on the index selects _links like everywhere else',
      method: 'GET', target: `${s.root}/?_fields=name,url`, status: 200, json: { name: 'quire', url: SITE },
    },
    {
      name: 'the term routes carry allow_batch',
      method: 'OPTIONS', target: at('/tags'), status: 200,
      check: (json) => assert.deepEqual(json.endpoints.map((endpoint: { allow_batch?: unknown }) => endpoint.allow_batch), [{ v1: true }, { v1: true }]),
    },
    {
      name: 'term writes run in a batch, each with its own permission check',
      method: 'POST', target: `${s.root}/batch/v1`, headers: { ...JSON_BODY, authorization: s.author },
      body: JSON.stringify({ requests: [{ path: `/${s.ns}/categories`, body: { name: 'Batched' } }, { method: 'DELETE', path: `/${s.ns}/tags/999` }] }),
      status: 207,
      check: (json) => {
        assert.deepEqual(json.responses.map((entry: { status: number; body: { code: string } }) => [entry.status, entry.body.code]), [
          [403, 'rest_cannot_create'], [404, 'rest_term_invalid'],
        ]);
      },
    },
  ];
}

for (const [names, root, ns] of [['neutral', '/cms-json', 'cms/v2'], ['wordpress', '/wp-json', 'wp/v2']] as const) {
  describe(`replay of the reference's answers (${names} names)`, () => {
    const cms = createCms({ names, comments: { floodSeconds: 0 } });
    const targets: { name: string; target: Target }[] = [];
    let seeded: Seeded;

    before(async () => {
      seeded = await seed(cms, root, ns);
      targets.push({ name: 'in-process', target: inProcess(cms, root) });
      for (const [name, make] of Object.entries(adapters)) targets.push({ name, target: await make(cms, root) });
    });

    after(async () => {
      for (const { target } of targets) await target.close?.();
    });

    test('every case, through every target', async (t) => {
      for (const replay of cases(seeded)) {
        await t.test(replay.name, async () => assertMatchesTable(replay, await replayEverywhere(targets, replay)));
      }
    });
  });
}
