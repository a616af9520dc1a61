import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CmsError } from '../../src/core/errors.js';
import { makeMailingSite, STORES } from './helpers.js';

for (const [storeName, makeStore] of STORES) {
  describe(`mailing/v1/forms: sign-up forms for administrators (${storeName})`, () => {
    const makeSite = () => makeMailingSite({ storage: makeStore() });
    it('creates a form: 201, a numeric id, Location, the reference\'s defaults', async () => {
      const site = await makeSite();
      const response = await site.admin('POST', '/mailing/v1/forms', { json: { title: '  Anchor <b>newsletter</b> ', settings: { lists: ['anchorlist01'] } } });
      assert.equal(response.status, 201);
      const form = response.json;
      assert.equal(typeof form.id, 'number');
      assert.equal(response.headers.Location, `http://example.test/cms-json/mailing/v1/forms/${form.id}`);
      assert.equal(form.title, 'Anchor newsletter');
      assert.equal(form.slug, 'anchor-newsletter');
      assert.equal(form.status, 'publish');
      assert.match(form.content, /name="EMAIL"/);
      assert.deepEqual(form.settings, {
        lists: ['anchorlist01'], double_optin: true, update_existing: false, replace_interests: true, required_fields: '',
        subscriber_tags: '', remove_subscriber_tags: '', redirect: '', hide_after_success: false, css: '', email_typo_check: false,
      });
      assert.equal(form.messages.subscribed, 'Thank you, your sign-up request was successful! Please check your email inbox to confirm.');
      assert.equal(form.messages.spam, 'Your submission was marked as spam.');
      assert.equal(Object.keys(form.messages).length, 10);
      assert.equal(form.date_gmt, '2026-11-21T17:11:35');
      assert.equal(form._links.self[0].href, `http://example.test/cms-json/mailing/v1/forms/${form.id}`);
    });

    it('takes the settings of an exported form, 0/1 integers included', async () => {
      const site = await makeSite();
      const id = await site.createForm({
        settings: { lists: ['a1', 'a1', 'b2'], double_optin: 0, update_existing: 1, replace_interests: '0', required_fields: 'EMAIL,FNAME ', css: 0, subscriber_tags: 'x,y' },
      });
      const form = (await site.admin('GET', `/mailing/v1/forms/${id}`)).json;
      assert.deepEqual(form.settings.lists, ['a1', 'b2']);
      assert.equal(form.settings.double_optin, false);
      assert.equal(form.settings.update_existing, true);
      assert.equal(form.settings.replace_interests, false);
      assert.equal(form.settings.required_fields, 'EMAIL,FNAME');
      assert.equal(form.settings.css, '');
      const commaList = await site.createForm({ settings: { lists: 'c3,d4' } });
      assert.deepEqual((await site.admin('GET', `/mailing/v1/forms/${commaList}`)).json.settings.lists, ['c3', 'd4'], 'a comma list is a list, as for every array argument');
    });

    it('refuses bad bodies with rest_invalid_param and stores nothing', async () => {
      const site = await makeSite();
      const bodies = [
        { settings: { lists: [['nested']] } },
        { settings: { lists: ['has space'] } },
        { settings: { lists: 'ok,bad!' } },
        { settings: { unknown_key: 1 } },
        { settings: { double_optin: 'maybe' } },
        { status: 'future' },
        { messages: { nonsense: 'x' } },
        { title: 'x'.repeat(501) },
        { settings: { lists: Array.from({ length: 21 }, (_, index) => `l${index}`) } },
      ];
      for (const json of bodies) {
        const response = await site.admin('POST', '/mailing/v1/forms', { json });
        assert.equal(response.status, 400, JSON.stringify(json).slice(0, 60));
        assert.equal(response.json.code, 'rest_invalid_param');
      }
      assert.deepEqual((await site.admin('GET', '/mailing/v1/forms')).json, []);
    });

    it('lists forms by id with paging headers, reads one, and gives unique slugs', async () => {
      const site = await makeSite();
      const ids = [];
      for (let index = 0; index < 3; index++) ids.push(await site.createForm({ title: 'Same name' }));
      const page = await site.admin('GET', '/mailing/v1/forms?per_page=2&page=2');
      assert.equal(page.headers['X-WP-Total'], '3');
      assert.equal(page.headers['X-WP-TotalPages'], '2');
      assert.deepEqual(page.json.map((form: { id: number }) => form.id), [ids[2]]);
      const all = await site.admin('GET', '/mailing/v1/forms');
      assert.deepEqual(all.json.map((form: { slug: string }) => form.slug), ['same-name', 'same-name-2', 'same-name-3']);
      const one = await site.admin('GET', `/mailing/v1/forms/${ids[1]}`);
      assert.equal(one.json.id, ids[1]);
    });

    it('updates with POST, PUT and PATCH: only what is sent changes, settings key by key', async () => {
      const site = await makeSite();
      const id = await site.createForm({ settings: { lists: ['l1'], required_fields: 'FNAME' }, messages: { spam: 'No.' } });
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const response = await site.admin(method, `/mailing/v1/forms/${id}`, { json: { settings: { double_optin: method !== 'PATCH' } } });
        assert.equal(response.status, 200, method);
      }
      site.clock.advance(60_000);
      const updated = await site.admin('PATCH', `/mailing/v1/forms/${id}`, { json: { title: 'Renamed', messages: { spam: '', error: 'Hmm.' } } });
      const form = updated.json;
      assert.equal(form.title, 'Renamed');
      assert.equal(form.slug, 'newsletter', 'the slug stays unless sent');
      assert.deepEqual(form.settings.lists, ['l1']);
      assert.equal(form.settings.required_fields, 'FNAME');
      assert.equal(form.settings.double_optin, false);
      assert.equal(form.messages.spam, 'Your submission was marked as spam.', 'an empty message restores the default');
      assert.equal(form.messages.error, 'Hmm.');
      assert.equal(form.modified_gmt, '2026-11-21T17:12:35');
      assert.equal(form.date_gmt, '2026-11-21T17:11:35');
    });

    it('deletes a form; afterwards it is 404 for the admin routes and for sign-ups', async () => {
      const site = await makeSite();
      const id = await site.createForm();
      const deleted = await site.admin('DELETE', `/mailing/v1/forms/${id}`);
      assert.equal(deleted.status, 200);
      assert.equal(deleted.json.deleted, true);
      assert.equal(deleted.json.previous.id, id);
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const response = await site.admin(method, `/mailing/v1/forms/${id}`, method === 'PATCH' ? { json: { title: 'x' } } : {});
        assert.deepEqual([response.status, response.json.code], [404, 'mailing_form_not_found'], method);
      }
      assert.equal((await site.signup({ ...site.hidden(id), EMAIL: 'a@example.com' })).status, 404);
    });

    it('is for users who may manage options only: 401 anonymous, 403 editors and subscribers', async () => {
      const site = await makeSite();
      const id = await site.createForm();
      const requests: [string, string][] = [
        ['GET', '/mailing/v1/forms'], ['POST', '/mailing/v1/forms'], ['GET', `/mailing/v1/forms/${id}`],
        ['PATCH', `/mailing/v1/forms/${id}`], ['DELETE', `/mailing/v1/forms/${id}`], ['GET', '/mailing/v1/subscribers?list=list01'],
      ];
      for (const [method, path] of requests) {
        const anonymous = await site.anonymous(method, path, { json: {} });
        assert.deepEqual([anonymous.status, anonymous.json.code], [401, 'rest_forbidden'], `${method} ${path}`);
        for (const role of ['editor', 'subscriber']) {
          const refused = await site.as(role)(method, path, { json: {} });
          assert.equal(refused.status, 403, `${role} ${method} ${path}`);
        }
      }
      assert.equal((await site.admin('GET', `/mailing/v1/forms/${id}`)).status, 200);
    });

    it('shares the post id space: post ids are not forms, form ids are not posts', async () => {
      const site = await makeSite();
      const post = (await site.admin('POST', '/cms/v2/posts', { json: { title: 'A post', status: 'publish' } })).json;
      const formId = await site.createForm({ title: 'Form title' });
      const page = (await site.admin('POST', '/cms/v2/pages', { json: { title: 'A page', status: 'publish' } })).json;
      assert.deepEqual([post.id < formId, formId < page.id], [true, true], 'one sequence');
      assert.equal((await site.admin('GET', `/mailing/v1/forms/${post.id}`)).status, 404);
      assert.equal((await site.admin('DELETE', `/mailing/v1/forms/${page.id}`)).status, 404);
      assert.equal((await site.admin('GET', `/cms/v2/pages/${page.id}`)).status, 200, 'the page survived');
    });

    it('never shows up in cms/v2 post and page queries', async () => {
      const site = await makeSite();
      await site.admin('POST', '/cms/v2/posts', { json: { title: 'Form title too', status: 'publish' } });
      const formId = await site.createForm({ title: 'Form title', status: 'publish' });
      const draftId = await site.createForm({ title: 'Form title draft', status: 'draft' });
      for (const path of ['/cms/v2/posts?status=any&per_page=100', '/cms/v2/posts?search=Form%20title', '/cms/v2/pages?status=any',
        `/cms/v2/posts?include[]=${formId}&include[]=${draftId}`, '/cms/v2/posts?slug=form-title', '/cms/v2/media']) {
        const response = await site.admin('GET', path);
        assert.equal(response.status, 200, path);
        const ids = response.json.map((item: { id: number }) => item.id);
        assert.ok(!ids.includes(formId) && !ids.includes(draftId), `${path} shows ${ids}`);
        const total = Number(response.headers['X-WP-Total']);
        assert.equal(total, ids.length, `${path} counts only what it shows`);
      }
      for (const path of [`/cms/v2/posts/${formId}`, `/cms/v2/pages/${formId}`, `/cms/v2/media/${formId}`, `/cms/v2/posts/${formId}/revisions`]) {
        const response = await site.admin('GET', path);
        assert.equal(response.status, 404, path);
      }
      const edit = await site.admin('POST', `/cms/v2/posts/${formId}`, { json: { title: 'hijack' } });
      assert.equal(edit.status, 404);
      const remove = await site.admin('DELETE', `/cms/v2/posts/${formId}?force=true`);
      assert.equal(remove.status, 404);
      assert.equal((await site.admin('GET', `/mailing/v1/forms/${formId}`)).json.title, 'Form title');
    });
  });
}

describe('the route index of mailing/v1', () => {
  it('lists /form with "args": [] as the reference, and our routes with their arguments', async () => {
    const site = await makeMailingSite();
    for (const path of ['/mailing/v1', '/']) {
      const { routes } = (await site.anonymous('GET', path)).json;
      assert.deepEqual(routes['/mailing/v1/form'].endpoints, [{ methods: ['POST'], args: [] }], path);
      assert.equal(routes['/mailing/v1/form'].namespace, 'mailing/v1');
      const forms = routes['/mailing/v1/forms'];
      assert.deepEqual(forms.methods, ['GET', 'POST']);
      assert.deepEqual(Object.keys(forms.endpoints[1].args), ['title', 'slug', 'status', 'content', 'settings', 'messages']);
      assert.deepEqual(forms.endpoints[1].args.settings.properties.lists.items, { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' });
      assert.deepEqual(routes['/mailing/v1/forms/(?P<id>[\\d]+)'].methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      assert.equal(routes['/mailing/v1/subscribers'].endpoints[0].args.list.required, true);
      assert.equal(routes['/mailing/v1/confirm'].endpoints[0].args.token.required, true);
      assert.ok(routes['/mailing/v1/unsubscribe']);
    }
  });
});

describe('cms.mailing: the same forms in-process', () => {
  it('creates, lists, reads, updates and deletes sign-up forms with the route bodies', async () => {
    const site = await makeMailingSite();
    const api = site.cms.mailing;
    const form = await api.createSignupForm({ title: 'Imported', slug: 'imported-form', settings: { lists: ['x1'], double_optin: false } });
    assert.equal(form.slug, 'imported-form');
    assert.equal(form.settings.double_optin, false);
    const viaRoute = (await site.admin('GET', `/mailing/v1/forms/${form.id}`)).json;
    assert.equal(viaRoute.title, 'Imported');
    assert.deepEqual((await api.listSignupForms()).map((item) => item.id), [form.id]);
    const updated = await api.updateSignupForm(form.id, { settings: { update_existing: true } });
    assert.deepEqual([updated.settings.update_existing, updated.settings.double_optin], [true, false]);
    assert.equal((await api.getSignupForm(form.id))?.title, 'Imported');
    assert.equal(await api.getSignupForm(123456), null);
    assert.equal(await api.deleteSignupForm(form.id), true);
    assert.equal(await api.deleteSignupForm(form.id), false);
  });

  it('throws the routes\' errors for bad input and stores nothing', async () => {
    const site = await makeMailingSite();
    const api = site.cms.mailing;
    for (const input of [{ settings: { lists: [{}] } }, { status: 'gone' }, null, ['title'], { messages: { spam: 5 } }]) {
      await assert.rejects(api.createSignupForm(input as never), (error: unknown) => error instanceof CmsError && error.status === 400);
    }
    await assert.rejects(api.updateSignupForm(999, { title: 'x' }), (error: unknown) => error instanceof CmsError && error.status === 404);
    assert.deepEqual(await api.listSignupForms(), []);
  });

  it('lists subscribers in-process', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: ['list01'], double_optin: false } });
    await site.signup({ ...site.hidden(id), EMAIL: 'b@example.com' });
    await site.signup({ ...site.hidden(id), EMAIL: 'a@example.com' });
    const page = await site.cms.mailing.listSubscribers({ list: 'list01' });
    assert.equal(page.total, 2);
    assert.deepEqual(page.items.map((subscriber) => [subscriber.email, subscriber.status]), [['a@example.com', 'subscribed'], ['b@example.com', 'subscribed']]);
    const route = await site.admin('GET', '/mailing/v1/subscribers?list=list01&status=pending');
    assert.deepEqual(route.json, []);
    assert.equal(route.headers['X-WP-Total'], '0');
  });
});
