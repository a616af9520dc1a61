import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_FORM, DEFAULT_MESSAGES } from '../../src/forms/defaults.js';
import { formsSite } from './fixtures.js';

describe('forms/v1 records', async () => {
  const site = await formsSite();
  const { request, cms } = site;
  const create = (json: Record<string, unknown>) => request('administrator', 'POST', '/forms/v1/contact-forms', { json });

  it('creates from the default template: 200, slug null, default mail without `active` and with integer flags', async () => {
    const response = await create({});
    assert.equal(response.status, 200);
    assert.equal(response.headers.Location, undefined);
    const { json } = response;
    assert.deepEqual(Object.keys(json), ['id', 'slug', 'title', 'locale', 'properties', 'config_errors']);
    assert.equal(typeof json.id, 'number');
    assert.equal(json.slug, null);
    assert.equal(json.title, 'Untitled');
    assert.equal(json.locale, 'en_US');
    assert.equal(json.properties.form.content, DEFAULT_FORM);
    assert.deepEqual(json.properties.form.fields.map((field: { name: string }) => field.name), ['your-name', 'your-email', 'your-subject', 'your-message', '']);
    assert.deepEqual(json.properties.mail, {
      subject: '[_site_title] "[your-subject]"',
      sender: '[_site_title] <admin@example.test>',
      body: 'From: [your-name] [your-email]\nSubject: [your-subject]\n\nMessage Body:\n[your-message]\n\n-- \nThis is a notification that a contact form was submitted on your website ([_site_title] [_site_url]).',
      recipient: '[_site_admin_email]',
      additional_headers: 'Reply-To: [your-email]',
      attachments: '',
      use_html: 0,
      exclude_blank: 0,
    });
    assert.equal(json.properties.mail_2.active, false);
    assert.equal(json.properties.mail_2.recipient, '[your-email]');
    assert.equal(Object.keys(json.properties.messages).length, 23);
    assert.deepEqual(json.properties.additional_settings, { content: '', settings: [] });
    assert.deepEqual(json.config_errors, []);
    const stored = await request('administrator', 'GET', `/forms/v1/contact-forms/${json.id}`);
    assert.equal(stored.json.slug, 'untitled');
    assert.deepEqual(Object.keys(stored.json), ['id', 'slug', 'title', 'locale', 'properties']);
  });

  it('persists by default, and only validates with context=dry-run', async () => {
    const before = (await request('administrator', 'GET', '/forms/v1/contact-forms')).json.length;
    const dry = await create({ title: 'Dry', context: 'dry-run' });
    assert.equal(dry.status, 200);
    assert.equal(dry.json.id, null);
    assert.equal(dry.json.title, 'Dry');
    assert.equal((await request('administrator', 'GET', '/forms/v1/contact-forms')).json.length, before);

    const saved = await create({ title: 'Kept' });
    const update = await request('administrator', 'PUT', `/forms/v1/contact-forms/${saved.json.id}`, { json: { title: 'Changed', context: 'dry-run' } });
    assert.equal(update.json.title, 'Changed');
    assert.equal(update.json.slug, 'kept');
    assert.equal((await request('administrator', 'GET', `/forms/v1/contact-forms/${saved.json.id}`)).json.title, 'Kept');
    const real = await request('administrator', 'PATCH', `/forms/v1/contact-forms/${saved.json.id}`, { json: { title: 'Changed' } });
    assert.equal(real.json.slug, 'kept');
    assert.equal((await request('administrator', 'GET', `/forms/v1/contact-forms/${saved.json.id}`)).json.title, 'Changed');
  });

  it('replaces the whole mail object, forces mail.active, trims and drops blank header lines', async () => {
    const { json } = await create({ title: 'Mail' });
    const update = await request('administrator', 'POST', `/forms/v1/contact-forms/${json.id}`, {
      json: {
        mail: { active: false, subject: '  Hi  ', additional_headers: 'Reply-To: a@example.org\n\n  \nCc: b@example.org', use_html: '1' },
        mail_2: { active: true },
      },
    });
    assert.deepEqual(update.json.properties.mail, {
      active: true, subject: 'Hi', sender: '', recipient: '', body: '', additional_headers: 'Reply-To: a@example.org\nCc: b@example.org',
      attachments: '', use_html: true, exclude_blank: false,
    });
    assert.deepEqual(update.json.properties.mail_2, {
      active: true, subject: '', sender: '', recipient: '', body: '', additional_headers: '', attachments: '', use_html: false, exclude_blank: false,
    });
    const read = await request('administrator', 'GET', `/forms/v1/contact-forms/${json.id}`);
    assert.equal(read.json.properties.mail.subject, 'Hi');
    assert.equal(read.json.properties.mail_2.active, true);
  });

  it('keeps only known message keys; the update echoes the sent keys, a later read fills all 23', async () => {
    const { json } = await create({ title: 'Messages' });
    const update = await request('administrator', 'POST', `/forms/v1/contact-forms/${json.id}`, {
      json: { messages: { mail_sent_ok: '  Done!  ', unknown_key: 'x', spam: ['not text'] } },
    });
    assert.deepEqual(update.json.properties.messages, { mail_sent_ok: 'Done!' });
    const read = await request('administrator', 'GET', `/forms/v1/contact-forms/${json.id}`);
    assert.equal(Object.keys(read.json.properties.messages).length, 23);
    assert.equal(read.json.properties.messages.mail_sent_ok, 'Done!');
    assert.equal(read.json.properties.messages.spam, DEFAULT_MESSAGES.spam);
  });

  it('strips tags from titles, falls back to Untitled, and checks locales', async () => {
    assert.equal((await create({ title: '  <b>Bold</b> title ' })).json.title, 'Bold title');
    assert.equal((await create({ title: '<i></i>' })).json.title, 'Untitled');
    assert.equal((await create({ title: 'x', locale: 'fr_FR' })).json.locale, 'fr_FR');
    assert.equal((await create({ title: 'x', locale: 'xx-bad' })).json.locale, 'en_US');
  });

  it('reads additional settings: booleans, and numeric keys where a line was dropped', async () => {
    const { json } = await create({ title: 'Settings', additional_settings: 'demo_mode: on\nnot a setting\nskip_mail: off\nacceptance_as_validation: true\nflamingo_email: [your-email]' });
    assert.deepEqual(json.properties.additional_settings.settings, {
      0: ['demo_mode', true], 2: ['skip_mail', false], 3: ['acceptance_as_validation', true], 4: ['flamingo_email', '[your-email]'],
    });
    const clean = await create({ title: 'Clean', additional_settings: 'skip_mail: on\nsubscribers_only: 1' });
    assert.deepEqual(clean.json.properties.additional_settings.settings, [['skip_mail', true], ['subscribers_only', '1']]);
  });

  it('refuses a create carrying an id, and deletes permanently', async () => {
    const refused = await create({ id: 12, title: 'x' });
    assert.deepEqual(refused.json, { code: 'wpcf7_post_exists', message: 'Cannot create existing contact form.', data: { status: 400 } });
    const { json } = await create({ title: 'Doomed' });
    assert.deepEqual((await request('administrator', 'DELETE', `/forms/v1/contact-forms/${json.id}?force=false`)).json, { deleted: true });
    const again = await request('administrator', 'DELETE', `/forms/v1/contact-forms/${json.id}`);
    assert.equal(again.json.code, 'wpcf7_not_found');
    assert.equal(await cms.deps.storage.get('posts', json.id), null);
  });

  it('reports configuration errors with the reference codes, messages and links', async () => {
    const noEmail = await create({ title: 'No email', form: '[text* your-name]\n[submit]' });
    assert.deepEqual(noEmail.json.config_errors, {
      'mail.additional_headers': [{
        message: 'Invalid mailbox syntax is used in the Reply-To field.',
        link: 'https://contactform7.com/configuration-errors/invalid-mailbox-syntax',
      }],
    });
    const skipped = await create({ title: 'Skipped', form: '[text* your-name]', additional_settings: 'skip_mail: on' });
    assert.deepEqual(skipped.json.config_errors, []);
  });
});

describe('forms/v1 list', async () => {
  const site = await formsSite();
  const { request } = site;
  const titles = ['Bravo form', 'Alpha form', 'Charlie survey', 'Delta form'];
  const ids: number[] = [];
  for (const title of titles) ids.push((await request('administrator', 'POST', '/forms/v1/contact-forms', { json: { title } })).json.id);
  const list = async (query = '') => (await request('contributor', 'GET', `/forms/v1/contact-forms${query}`));

  it('lists {id, hash, slug, title, locale} by id, as a plain array without paging headers', async () => {
    const response = await list();
    assert.deepEqual(response.json.map((item: { id: number }) => item.id), ids);
    assert.deepEqual(Object.keys(response.json[0]), ['id', 'hash', 'slug', 'title', 'locale']);
    assert.match(response.json[0].hash, /^[0-9a-f]{7}$/);
    assert.equal(response.json[0].slug, 'bravo-form');
    assert.equal(response.headers['X-WP-Total'], undefined);
  });

  it('honours search, order, orderby, per_page and offset, and ignores posts_per_page', async () => {
    assert.deepEqual((await list('?search=survey')).json.map((item: { title: string }) => item.title), ['Charlie survey']);
    assert.deepEqual((await list('?search=nothing-like-this')).json, []);
    assert.deepEqual((await list('?order=DESC')).json.map((item: { id: number }) => item.id), [...ids].reverse());
    assert.deepEqual((await list('?orderby=title')).json.map((item: { title: string }) => item.title), ['Alpha form', 'Bravo form', 'Charlie survey', 'Delta form']);
    assert.deepEqual((await list('?per_page=2&offset=1')).json.map((item: { id: number }) => item.id), ids.slice(1, 3));
    assert.equal((await list('?posts_per_page=1')).json.length, 4);
    assert.equal((await list('?per_page[]=x')).json.length, 1);
  });

  it('reads an offset past what a store can hold as past the end of a page', async () => {
    for (const offset of [2 ** 53, -(2 ** 53), 1e300]) {
      const response = await request('contributor', 'GET', '/forms/v1/contact-forms', { json: { per_page: 2, offset } });
      assert.equal(response.status, 200, String(offset));
      assert.deepEqual(response.json, [], String(offset));
    }
  });
});
