import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSiteSecret, deriveKey, SITE_SECRET_COLLECTION } from '../../src/auth/index.js';
import { createCms } from '../../src/cms.js';
import { isValidPreviewToken, previewToken } from '../../src/content/autosaves/index.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';

const folder = mkdtempSync(join(tmpdir(), 'quire-site-secret-'));
after(() => rmSync(folder, { recursive: true, force: true }));

describe('deriveKey', () => {
  it('gives each purpose its own 32-byte key, the same every time', () => {
    const quiz = deriveKey('a site secret of some length', 'forms/wpcf7_quiz');
    assert.equal(quiz.length, 32);
    assert.deepEqual(deriveKey('a site secret of some length', 'forms/wpcf7_quiz'), quiz);
    assert.notDeepEqual(deriveKey('a site secret of some length', 'preview'), quiz);
    assert.notDeepEqual(deriveKey('another site secret entirely', 'forms/wpcf7_quiz'), quiz);
  });
});

describe('createSiteSecret', () => {
  it('uses a given secret without touching the store, and refuses a short one', async () => {
    const storage = createMemoryStorage();
    const secret = createSiteSecret(storage, 'given secret, long enough');
    await secret.ready();
    assert.deepEqual(secret.key('preview'), deriveKey('given secret, long enough', 'preview'));
    assert.equal((await storage.list(SITE_SECRET_COLLECTION)).items.length, 0);
    assert.throws(() => createSiteSecret(storage, 'short'), /at least 16 characters/);
  });

  it('refuses to give a key before the secret is loaded', () => {
    assert.throws(() => createSiteSecret(createMemoryStorage()).key('preview'), /not loaded yet/);
  });

  it('creates one secret in a shared store however many open it at once, and keeps it', async () => {
    const path = join(folder, 'shared.db');
    const stores = Array.from({ length: 4 }, () => sqliteStorage({ path }));
    try {
      const secrets = stores.map((storage) => createSiteSecret(storage));
      await Promise.all(secrets.map((secret) => secret.ready()));
      const keys = secrets.map((secret) => secret.key('mailing/links').toString('hex'));
      assert.equal(new Set(keys).size, 1);
      assert.equal((await stores[0]!.list(SITE_SECRET_COLLECTION)).items.length, 1);
      const later = createSiteSecret(stores[1]!);
      await later.ready();
      assert.equal(later.key('mailing/links').toString('hex'), keys[0]);
    } finally {
      for (const storage of stores) await storage.close?.();
    }
  });

  it('gives two processes of one store without a secret the same keys: a preview link made by one holds in the other', async () => {
    const path = join(folder, 'two-processes.db');
    const stores = [sqliteStorage({ path }), sqliteStorage({ path })];
    try {
      const [first, second] = stores.map((storage) => createCms({ storage }));
      await Promise.all([first!.deps.secret.ready(), second!.deps.secret.ready()]);
      const now = new Date('2026-11-28T10:00:00Z');
      const token = previewToken(first!.deps.previewKey(), 1, 7, now);
      assert.equal(isValidPreviewToken(second!.deps.previewKey(), token, 1, 7, now), true);
      for (const purpose of ['mailing/links', 'auth/credential-memory', 'forms/wpcf7_quiz']) {
        assert.deepEqual(second!.deps.secret.key(purpose), first!.deps.secret.key(purpose), purpose);
      }
      const elsewhere = createCms({ storage: createMemoryStorage() });
      await elsewhere.deps.secret.ready();
      assert.equal(isValidPreviewToken(elsewhere.deps.previewKey(), token, 1, 7, now), false, 'another site\'s secret does not verify it');
    } finally {
      for (const storage of stores) await storage.close?.();
    }
  });

  it('is what a cms signs preview links with, unless posts.previewSecret is given', async () => {
    const storage = createMemoryStorage();
    const cms = createCms({ storage, secret: 'the shared site secret' });
    assert.deepEqual(cms.deps.previewKey(), deriveKey('the shared site secret', 'preview'));
    assert.equal(createCms({ storage, secret: 'the shared site secret', posts: { previewSecret: 'own' } }).deps.previewKey(), 'own');
    assert.throws(() => createCms({ secret: 'short' }), /at least 16 characters/);
  });
});
