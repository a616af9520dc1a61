/**
 * What post reads keep between requests and checks (status verdicts per caller, edit verdicts per record kind,
 * one-name capability requirements, records as a route loads them, shared refusals) must never answer for a state
 * they were not made for: a role or capability change, another caller, a post falling due, another route.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mapMetaCapability, userCan } from '../../../src/auth/index.js';
import { createPrincipal, DEFAULT_ROLES } from '../../../src/auth/roles.js';
import { createCapabilityRules, DEFAULT_CAPABILITY_RULES } from '../../../src/auth/capability-rules.js';
import { CORE_POST_TYPE_CAPABILITIES } from '../../../src/auth/index.js';
import type { Principal } from '../../../src/core/context.js';
import { abilitiesFor, subjectOf } from '../../../src/content/post-type/capabilities.js';
import type { PostRecord } from '../../../src/content/post-type/record.js';
import { send } from '../../helpers/request.js';
import { ids, makeSite } from '../posts/helpers.js';

const UNCACHED = { responseCache: false } as const;
const EDIT_DRAFTS = '/cms/v2/posts?context=edit&status=draft';

describe('post reads: kept verdicts follow the caller', () => {
  it('sees a role change on the next list', async () => {
    const site = await makeSite(UNCACHED);
    const others = await site.create({ title: 'Editor draft', status: 'draft' }, { role: 'editor' });
    const own = await site.create({ title: 'Author draft', status: 'draft' }, { role: 'author' });
    const author = site.as('author');
    for (let round = 0; round < 2; round++) assert.deepEqual(ids((await author('GET', EDIT_DRAFTS)).json), [own.id]);

    const promoted = await site.admin('PUT', `/cms/v2/users/${site.ids.author}`, { json: { roles: ['editor'] } });
    assert.equal(promoted.status, 200);
    assert.deepEqual(ids((await author('GET', EDIT_DRAFTS)).json).sort(), [others.id, own.id].sort());

    await site.admin('PUT', `/cms/v2/users/${site.ids.author}`, { json: { roles: ['subscriber'] } });
    const refused = await author('GET', '/cms/v2/posts?context=edit');
    assert.equal(refused.status, 403);
    assert.equal(refused.json.code, 'rest_forbidden_context');
  });

  it('tells apart callers of the same roles', async () => {
    const site = await makeSite(UNCACHED);
    const second = await site.cms.users.create({ login: 'author2', email: 'author2@example.test', roles: ['author'] });
    const first = await site.create({ title: 'First', status: 'draft' }, { role: 'author' });
    const asSecond = (method: string, path: string, init: Parameters<typeof send>[3] = {}) => send(site.cms, method, path, { ...init, user: { id: second.id } });
    const response = await asSecond('POST', '/cms/v2/posts', { json: { title: 'Second', status: 'draft' } });
    assert.equal(response.status, 201);
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(ids((await site.as('author')('GET', EDIT_DRAFTS)).json), [first.id]);
      assert.deepEqual(ids((await asSecond('GET', EDIT_DRAFTS)).json), [response.json.id]);
    }
  });

  it('works the verdicts out afresh for a caller whose capability set may change', async () => {
    let principal: Principal | null = null;
    const site = await makeSite({ ...UNCACHED, authenticate: () => principal });
    const others = await site.create({ title: 'Editor draft', status: 'draft' }, { role: 'editor' });
    const own = await site.create({ title: 'Author draft', status: 'draft' }, { role: 'author' });
    const capabilities = new Set(['read', 'edit_posts']);
    principal = { id: site.ids.author, login: 'author', roles: ['author'], capabilities };
    for (let round = 0; round < 2; round++) assert.deepEqual(ids((await site.anonymous('GET', EDIT_DRAFTS)).json), [own.id]);
    capabilities.add('edit_others_posts');
    assert.deepEqual(ids((await site.anonymous('GET', EDIT_DRAFTS)).json).sort(), [others.id, own.id].sort());
  });

  it('shows a scheduled post in the next uncached list and single read once it falls due', async () => {
    const site = await makeSite(UNCACHED);
    const shown = await site.create({ title: 'Now', status: 'publish' });
    const post = await site.create({ title: 'Soon', status: 'publish', date: '2026-11-22T09:00:00' });
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts')).json), [shown.id]);
      assert.equal((await site.anonymous('GET', `/cms/v2/posts/${post.id}`)).status, 401);
    }
    site.clock.set('2026-11-22T09:00:00Z');
    assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts')).json), [post.id, shown.id]);
    const read = await site.anonymous('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.json.status, 'publish');
  });
});

describe('post reads: edit verdicts reused between records', () => {
  const principals: (Principal | null)[] = [
    null,
    ...(['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const)
      .map((role, index) => createPrincipal({ id: index + 1, login: role, roles: [role] }, DEFAULT_ROLES)),
  ];
  const site = { pageOnFront: 7, pageForPosts: 8 };
  const records: PostRecord[] = [];
  let id = 0;
  for (const type of ['post', 'page', 'revision']) {
    for (const status of ['publish', 'draft', 'private', 'future', 'pending', 'trash', 'inherit']) {
      for (const author of [0, 1, 2, 3, 4]) {
        for (const trashedFrom of ['', 'publish', 'draft']) {
          records.push({ id: ++id, type, status, author, parent: 1, trashed_from_status: trashedFrom } as unknown as PostRecord);
        }
      }
    }
  }

  it('answers as a check of each record alone, in any order', () => {
    for (const principal of principals) {
      for (const order of [records, [...records].reverse(), records.filter((_, index) => index % 3 === 0)]) {
        const abilities = abilitiesFor(principal, DEFAULT_CAPABILITY_RULES, site);
        for (const record of order) {
          const alone = userCan(principal, 'edit_post', subjectOf(record, site), DEFAULT_CAPABILITY_RULES);
          assert.equal(abilities.canEdit(record), alone, `${principal?.login ?? 'anonymous'} on ${record.type} ${record.status} by ${record.author}`);
        }
      }
    }
  });
});

describe('post reads: one-name requirements shared between checks', () => {
  it('hands every caller of mapMetaCapability a list of its own', () => {
    const first = mapMetaCapability('edit_posts', null);
    first.push('manage_options');
    assert.deepEqual(mapMetaCapability('edit_posts', null), ['edit_posts']);
    const editor = createPrincipal({ id: 2, login: 'editor', roles: ['editor'] }, DEFAULT_ROLES);
    assert.equal(userCan(editor, 'edit_posts'), true);
    assert.equal(userCan(editor, 'manage_options'), false);
    assert.equal(userCan(null, 'edit_posts'), false);
  });

  it('keeps a plain mapping per rules only, and never a mapping that reads the user or the subject', () => {
    const withBooks = createCapabilityRules({ postTypes: { book: { ...CORE_POST_TYPE_CAPABILITIES.post!, edit_post: 'edit_book' } } });
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(mapMetaCapability('edit_book', null), ['edit_book']);
      assert.deepEqual(mapMetaCapability('edit_book', null, undefined, withBooks), ['do_not_allow']);
      assert.deepEqual(mapMetaCapability('edit_blocks', null), ['edit_posts']);
    }
    const author = createPrincipal({ id: 3, login: 'author', roles: ['author'] }, DEFAULT_ROLES);
    for (let round = 0; round < 2; round++) {
      assert.equal(userCan(author, 'edit_book', { type: 'book', status: 'draft', authorId: 3 }, withBooks), true);
      assert.equal(userCan(author, 'edit_book', { type: 'book', status: 'draft', authorId: 9 }, withBooks), false);
      assert.equal(userCan(author, 'edit_user', { userId: 3 }), true);
      assert.equal(userCan(author, 'edit_user', { userId: 9 }), false);
    }
  });
});

describe('post reads: records as routes load them, and shared refusals', () => {
  it('loads a record for its own type only, and answers Allow per caller', async () => {
    const site = await makeSite(UNCACHED);
    const post = await site.create({ title: 'A post', status: 'publish' });
    const page = await site.create({ title: 'A page', status: 'publish' }, { base: 'pages' });
    for (let round = 0; round < 2; round++) {
      const asPage = await site.anonymous('GET', `/cms/v2/pages/${post.id}`);
      assert.equal(asPage.status, 404);
      assert.equal(asPage.json.code, 'rest_post_invalid_id');
      assert.equal((await site.anonymous('GET', `/cms/v2/posts/${page.id}`)).status, 404);
      const read = await site.anonymous('GET', `/cms/v2/posts/${post.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.headers.Allow, 'GET');
      assert.equal((await site.admin('GET', `/cms/v2/posts/${post.id}`)).headers.Allow, 'GET, POST, PUT, PATCH, DELETE');
      assert.equal((await site.admin('GET', `/cms/v2/pages/${page.id}`)).headers.Allow, 'GET, POST, PUT, PATCH, DELETE');
    }
  });

  it('refuses edits and deletes with each caller status, the same every time', async () => {
    const site = await makeSite(UNCACHED);
    const post = await site.create({ title: 'Kept', status: 'publish' });
    for (let round = 0; round < 2; round++) {
      const anonymous = await site.anonymous('PUT', `/cms/v2/posts/${post.id}`, { json: { title: 'No' } });
      assert.deepEqual([anonymous.status, anonymous.json], [401, {
        code: 'rest_cannot_edit', message: 'Sorry, you are not allowed to edit this post.', data: { status: 401 },
      }]);
      const subscriber = await site.as('subscriber')('DELETE', `/cms/v2/posts/${post.id}`);
      assert.deepEqual([subscriber.status, subscriber.json], [403, {
        code: 'rest_cannot_delete', message: 'Sorry, you are not allowed to delete this post.', data: { status: 403 },
      }]);
    }
    const edited = await site.admin('PUT', `/cms/v2/posts/${post.id}`, { json: { title: 'Changed' } });
    assert.equal(edited.status, 200);
    assert.equal(edited.json.title.raw, 'Changed');
  });
});
