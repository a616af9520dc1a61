import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { FORM_TYPE } from '../../src/forms/record.js';
import { DEFAULT_MESSAGES } from '../../src/forms/defaults.js';
import {
  formOf, listForms, listSubmissions, loadFormRecord, removeSubmissionsOf, saveForm, storeSubmission, templateForm,
} from '../../src/forms/service.js';
import { send } from '../helpers/request.js';
import { formsSite, postFeedback } from './fixtures.js';

const stores: [string, () => Promise<StoragePort> | StoragePort][] = [
  ['memory', () => createMemoryStorage()],
  ['sqlite', () => sqliteStorage({ path: ':memory:' })],
];

for (const [name, open] of stores) {
  describe(`forms storage on ${name}`, () => {
    const site = { timezone: '', gmtOffset: 0, home: 'http://example.test' };
    const save = (storage: StoragePort, form: ReturnType<typeof templateForm>, at = '2026-01-02T03:04:05Z') =>
      saveForm(form, { storage, now: new Date(at), site, userId: 1 });

    it('stores forms in the posts collection with their own type, unique slugs and a hash', async () => {
      const storage = await open();
      const first = await save(storage, { ...templateForm('en_US', 'admin@example.test'), title: 'Contact us' });
      const second = await save(storage, { ...templateForm('en_US', 'admin@example.test'), title: 'Contact us' });
      assert.equal(first.type, FORM_TYPE);
      assert.equal(first.status, 'publish');
      assert.deepEqual([first.slug, second.slug], ['contact-us', 'contact-us-2']);
      assert.match(first.hash, /^[0-9a-f]{64}$/);
      assert.notEqual(first.hash, second.hash);
      const post = await storage.insert('posts', { type: 'post', status: 'publish', title: 'Not a form' });
      assert.equal(await loadFormRecord(storage, post.id), null);
      const loaded = formOf((await loadFormRecord(storage, first.id))!, 'admin@example.test');
      assert.equal(loaded.title, 'Contact us');
      assert.equal(loaded.properties.messages.spam, DEFAULT_MESSAGES.spam);
      await storage.close?.();
    });

    it('lists with search, order and paging over forms only', async () => {
      const storage = await open();
      for (const title of ['Beta', 'Alpha', 'Gamma']) await save(storage, { ...templateForm('en_US', 'a@example.test'), title });
      await storage.insert('posts', { type: 'post', status: 'publish', title: 'Alpha post', content: 'Alpha' });
      const query = { perPage: -1, offset: 0, order: 'asc' as const, orderby: 'ID', search: null };
      assert.deepEqual((await listForms(storage, query)).map((form) => form.title), ['Beta', 'Alpha', 'Gamma']);
      assert.deepEqual((await listForms(storage, { ...query, orderby: 'title', order: 'desc' })).map((form) => form.title), ['Gamma', 'Beta', 'Alpha']);
      assert.deepEqual((await listForms(storage, { ...query, search: 'alpha' })).map((form) => form.title), ['Alpha']);
      assert.deepEqual((await listForms(storage, { ...query, perPage: 1, offset: 2 })).map((form) => form.title), ['Gamma']);
      await storage.close?.();
    });

    it('keeps submissions by form, newest first, and removes them with the form', async () => {
      const storage = await open();
      for (const [index, formId] of [7, 7, 8].entries()) {
        await storeSubmission(storage, {
          form_id: formId, status: 'mail_sent', fields: { name: `n${index}`, list: ['a', 'b'] }, files: {}, meta: { remote_ip: '' },
          date_gmt: `2026-01-0${index + 1}T00:00:00`,
        });
      }
      const page = await listSubmissions(storage, 7, 1, 10);
      assert.equal(page.total, 2);
      assert.deepEqual(page.items.map((item) => item.fields.name), ['n1', 'n0']);
      assert.deepEqual(page.items[0]!.fields.list, ['a', 'b']);
      assert.equal(await removeSubmissionsOf(storage, 7), 2);
      assert.equal((await listSubmissions(storage, 8, 1, 10)).total, 1);
      await storage.close?.();
    });
  });
}

describe('cms/v2 never shows forms', async () => {
  const site = await formsSite({ storage: sqliteStorage({ path: ':memory:' }) });
  const { request, cms } = site;
  const form = await cms.forms.create({ title: 'Secret form', form: '[text your-name]' });
  await cms.deps.storage.insert('posts', {
    type: 'post', status: 'publish', title: 'Visible post', slug: 'visible-post', content: '', excerpt: '', author: 1,
    date: '2026-01-01T00:00:00', date_gmt: '2026-01-01T00:00:00', modified: '2026-01-01T00:00:00', modified_gmt: '2026-01-01T00:00:00',
    parent: 0, menu_order: 0, password: '', comment_status: 'open', ping_status: 'open', guid: '', template: '', featured_media: 0, meta: {},
  });

  it('keeps forms out of post, page and media lists, searches included', async () => {
    for (const path of ['/cms/v2/posts?status=any', '/cms/v2/posts?search=Secret&status=any', '/cms/v2/pages?status=any', '/cms/v2/media']) {
      const response = await request('administrator', 'GET', path);
      assert.equal(response.status, 200, path);
      assert.ok(!response.json.some((item: { id: number }) => item.id === form.id), path);
    }
    const posts = await request('administrator', 'GET', '/cms/v2/posts?status=any');
    assert.deepEqual(posts.json.map((item: { title: { rendered: string } }) => item.title.rendered), ['Visible post']);
  });

  it('answers 404 for a form id on post, page, media and revision routes', async () => {
    for (const path of [`/cms/v2/posts/${form.id}`, `/cms/v2/pages/${form.id}`, `/cms/v2/media/${form.id}`, `/cms/v2/posts/${form.id}/revisions`]) {
      const response = await request('administrator', 'GET', path);
      assert.equal(response.status, 404, path);
    }
  });

  it('keeps a form when its creator is deleted', async () => {
    const user = await cms.users.create({ login: 'maker', email: 'maker@example.test', roles: ['editor'] });
    const created = await send(cms, 'POST', '/forms/v1/contact-forms', { json: { title: 'Made by someone' }, user: { id: user.id } });
    assert.equal(created.status, 200);
    await cms.users.delete(user.id);
    assert.ok(await cms.forms.get(created.json.id));
    assert.equal((await postFeedback(cms, created.json.id, { _wpcf7_unit_tag: 'u' })).status, 200);
  });
});
