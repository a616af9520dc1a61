import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCms } from '../../src/cms.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import type { StoragePort } from '../../src/ports/storage.js';
import { send } from '../helpers/request.js';
import { basic, siteWithMembers } from './setup.js';

/**
 * A store that counts lookups of users by login or email: those happen only when a password is verified in
 * full (a remembered credential reads its user by id).
 */
function countingStorage(): { storage: StoragePort; userLookups: () => number } {
  const inner = createMemoryStorage();
  let lookups = 0;
  const storage: StoragePort = {
    ...inner,
    list: (collection, query) => {
      if (collection === 'users') lookups += 1;
      return inner.list(collection, query);
    },
  };
  return { storage, userLookups: () => lookups };
}

const me = '/cms/v2/users/me';

describe('remembered application-password credentials', () => {
  it('verify a credential once, then answer from memory while it stays valid', async () => {
    const { storage, userLookups } = countingStorage();
    const { cms, members } = await siteWithMembers({ storage });
    const before = userLookups();
    assert.equal((await send(cms, 'GET', me, { headers: members.editor.headers })).status, 200);
    const afterFirst = userLookups();
    assert.ok(afterFirst > before, 'the first request verifies the password');
    for (let round = 0; round < 3; round += 1) {
      assert.equal((await send(cms, 'GET', me, { headers: members.editor.headers })).status, 200);
    }
    assert.equal(userLookups(), afterFirst, 'later requests do not look the user up by login again');
  });

  it('verify every time when memory is turned off', async () => {
    const { storage, userLookups } = countingStorage();
    const { cms, members } = await siteWithMembers({ storage, credentialMemory: { rememberMs: 0 } });
    await send(cms, 'GET', me, { headers: members.editor.headers });
    const afterFirst = userLookups();
    await send(cms, 'GET', me, { headers: members.editor.headers });
    assert.ok(userLookups() > afterFirst);
  });

  it('forget a revoked password on the very next request', async () => {
    const { cms, members } = await siteWithMembers();
    assert.equal((await send(cms, 'GET', me, { headers: members.author.headers })).status, 200);
    const [password] = await cms.users.listApplicationPasswords(members.author.id);
    await cms.users.revokeApplicationPassword(members.author.id, password!.uuid);
    const refused = await send(cms, 'GET', me, { headers: members.author.headers });
    assert.equal(refused.status, 401);
    assert.equal((refused.body as { code: string }).code, 'incorrect_password');
  });

  it('follow a role change on the very next request', async () => {
    const { cms, members } = await siteWithMembers();
    const page = { json: { title: 'About', status: 'publish' } };
    assert.equal((await send(cms, 'POST', '/cms/v2/pages', { ...page, headers: members.editor.headers })).status, 201);
    await cms.users.update(members.editor.id, { roles: ['subscriber'] });
    assert.equal((await send(cms, 'POST', '/cms/v2/pages', { ...page, headers: members.editor.headers })).status, 403);
    const roles = await send(cms, 'GET', `${me}?context=edit`, { headers: members.editor.headers });
    assert.deepEqual((roles.body as { roles: string[] }).roles, ['subscriber']);
  });

  it('stop answering to an email address the user no longer has', async () => {
    const { cms, members } = await siteWithMembers();
    const byEmail = basic(members.author.email, members.author.password);
    assert.equal((await send(cms, 'GET', me, { headers: byEmail })).status, 200);
    await cms.users.update(members.author.id, { email: 'renamed@example.test' });
    assert.equal((await send(cms, 'GET', me, { headers: byEmail })).status, 401);
    assert.equal((await send(cms, 'GET', me, { headers: basic('renamed@example.test', members.author.password) })).status, 200);
  });

  it('never remember a failed attempt, and never let one through after a success', async () => {
    const { cms, members } = await siteWithMembers();
    const wrong = basic('author', 'aaaa bbbb cccc dddd eeee ffff');
    assert.equal((await send(cms, 'GET', me, { headers: wrong })).status, 401);
    assert.equal((await send(cms, 'GET', me, { headers: members.author.headers })).status, 200);
    assert.equal((await send(cms, 'GET', me, { headers: wrong })).status, 401);
    const otherUser = basic('editor', members.author.password);
    assert.equal((await send(cms, 'GET', me, { headers: otherUser })).status, 401);
  });

  it('read the user again once another store on the same file writes, however often it was recalled', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-credentials-'));
    const path = join(folder, 'site.db');
    const here = sqliteStorage({ path });
    const there = sqliteStorage({ path });
    try {
      const { cms, members } = await siteWithMembers({ storage: here });
      const other = createCms({ site: { url: 'http://example.test' }, storage: there });
      const page = { json: { title: 'About', status: 'publish' } };
      for (let round = 0; round < 3; round += 1) {
        assert.equal((await send(cms, 'GET', `${me}?context=edit`, { headers: members.editor.headers })).status, 200);
      }
      await other.users.update(members.editor.id, { roles: ['subscriber'] });
      assert.equal((await send(cms, 'POST', '/cms/v2/pages', { ...page, headers: members.editor.headers })).status, 403);
      const [password] = await other.users.listApplicationPasswords(members.author.id);
      assert.equal((await send(cms, 'GET', me, { headers: members.author.headers })).status, 200);
      assert.equal((await send(cms, 'GET', me, { headers: members.author.headers })).status, 200);
      await other.users.revokeApplicationPassword(members.author.id, password!.uuid);
      assert.equal((await send(cms, 'GET', me, { headers: members.author.headers })).status, 401);
    } finally {
      await here.close();
      await there.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('keep the principal across writes to other records, and read the user again after any write to it', async () => {
    const inner = createMemoryStorage();
    let userReads = 0;
    const storage: StoragePort & Pick<typeof inner, 'changeToken' | 'writtenSince'> = {
      ...inner,
      get: (collection, id) => {
        if (collection === 'users') userReads += 1;
        return inner.get(collection, id);
      },
    };
    const { cms, members } = await siteWithMembers({ storage });
    const headers = members.editor.headers;
    const created = await send(cms, 'POST', '/cms/v2/posts', { headers, json: { title: 'Kept', status: 'publish' } });
    assert.equal(created.status, 201);
    const path = `/cms/v2/posts/${(created.body as { id: number }).id}`;
    // The first write after the login may stamp its use; from then on the user is not read again.
    assert.equal((await send(cms, 'POST', path, { headers, json: { excerpt: 'One' } })).status, 200);
    const reads = userReads;
    for (let round = 0; round < 3; round += 1) {
      assert.equal((await send(cms, 'POST', path, { headers, json: { excerpt: `Round ${round}` } })).status, 200);
      await storage.update('posts', 1, { comment_status: round % 2 === 0 ? 'open' : 'closed' }).catch(() => null);
    }
    assert.equal(userReads, reads, 'writes to posts leave the remembered principal as it was');

    // A write straight to the user's record, outside the users service, is seen on the very next request.
    await storage.update('users', members.editor.id, { roles: ['subscriber'] });
    assert.equal((await send(cms, 'POST', path, { headers, json: { excerpt: 'Refused' } })).status, 403);
    assert.ok(userReads > reads);
    await storage.update('users', members.editor.id, { roles: ['editor'] });
    assert.equal((await send(cms, 'POST', path, { headers, json: { excerpt: 'Back' } })).status, 200);
    // So is a password revoked, with writes to other records in between.
    const [password] = await cms.users.listApplicationPasswords(members.editor.id);
    await cms.users.revokeApplicationPassword(members.editor.id, password!.uuid);
    await storage.update('posts', 1, { comment_status: 'open' }).catch(() => null);
    assert.equal((await send(cms, 'GET', me, { headers })).status, 401);
  });

  it('read the user again after every write when the store cannot tell what was written', async () => {
    const { storage, userReads } = (() => {
      const inner = createMemoryStorage();
      let reads = 0;
      const { writtenSince: _unused, ...rest } = inner;
      const port: StoragePort = {
        ...rest,
        get: (collection, id) => {
          if (collection === 'users') reads += 1;
          return inner.get(collection, id);
        },
      };
      return { storage: port, userReads: () => reads };
    })();
    const { cms, members } = await siteWithMembers({ storage });
    const headers = members.editor.headers;
    const created = await send(cms, 'POST', '/cms/v2/posts', { headers, json: { title: 'Read again', status: 'publish' } });
    const path = `/cms/v2/posts/${(created.body as { id: number }).id}`;
    assert.equal((await send(cms, 'POST', path, { headers, json: { excerpt: 'One' } })).status, 200);
    const before = userReads();
    assert.equal((await send(cms, 'POST', path, { headers, json: { excerpt: 'Two' } })).status, 200);
    assert.ok(userReads() > before);
    await storage.update('users', members.editor.id, { roles: ['subscriber'] });
    assert.equal((await send(cms, 'POST', path, { headers, json: { excerpt: 'Refused' } })).status, 403);
  });

  it('forget a credential once its time is up', async () => {
    const { storage, userLookups } = countingStorage();
    const { cms, members } = await siteWithMembers({ storage, credentialMemory: { rememberMs: 1 } });
    await send(cms, 'GET', me, { headers: members.editor.headers });
    const afterFirst = userLookups();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal((await send(cms, 'GET', me, { headers: members.editor.headers })).status, 200);
    assert.ok(userLookups() > afterFirst, 'the expired credential is verified again');
  });

  it('stamp the last use of a remembered credential again once a day has passed, and not before', async () => {
    const { cms, clock, members } = await siteWithMembers({ credentialMemory: { rememberMs: 7 * 24 * 60 * 60 * 1000 } });
    const lastUsed = async () => (await cms.users.listApplicationPasswords(members.editor.id))[0]!.lastUsed;
    assert.equal((await send(cms, 'GET', me, { headers: members.editor.headers })).status, 200);
    assert.equal(await lastUsed(), '2024-05-06T07:08:09');
    clock.advance(23 * 60 * 60 * 1000);
    for (let round = 0; round < 2; round += 1) assert.equal((await send(cms, 'GET', me, { headers: members.editor.headers })).status, 200);
    assert.equal(await lastUsed(), '2024-05-06T07:08:09', 'not stamped again within the day');
    clock.advance(2 * 60 * 60 * 1000);
    assert.equal((await send(cms, 'GET', me, { headers: members.editor.headers })).status, 200);
    assert.equal(await lastUsed(), '2024-05-07T08:08:09', 'stamped again once the day has passed');
  });
});
