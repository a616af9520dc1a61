import assert from 'node:assert/strict';
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { SANITIZE_OFF_THREAD_CHARACTERS, sanitizePostHtmlWhereCheapest } from '../../src/content/render/pool/jobs.js';
import { WHOLE_TEXT_CHARS } from '../../src/core/chunked-text.js';
import { sanitizePostHtml } from '../../src/format/kses/sanitize.js';
import { phpTrim } from '../../src/format/php.js';
import { MAX_MAIL_TAGS } from '../../src/forms/mail-tags.js';
import { MAX_FORM_TAGS } from '../../src/forms/tags/scan.js';
import { longestGap } from '../helpers/event-loop.js';
import { formsSite } from './fixtures.js';

/** Markup an editor without `unfiltered_html` may send: kept, removed and rewritten parts. */
const SHAPES = '<p class="x" onclick="x()">Your name &amp; <b>more</b> & <script>alert(1)</script>'
  + '<a href="javascript:alert(1)">x</a><!-- a <b>comment</b> --></p>\n';
const markup = (characters: number) => SHAPES.repeat(Math.ceil(characters / SHAPES.length));

/** Editors without `unfiltered_html` (the reference's `DISALLOW_UNFILTERED_HTML`), whose markup is filtered. */
const filteredSite = () => formsSite({ capabilities: { allowUnfilteredHtml: false }, maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });

test('a large template and mail body are stored as the main thread sanitises them, while the event loop keeps turning', async () => {
  const site = await filteredSite();
  const form = `<label>[text* your-name]</label>\n${markup(WHOLE_TEXT_CHARS / 2)}`;
  const body = markup(4 * SANITIZE_OFF_THREAD_CHARACTERS);
  let created: Awaited<ReturnType<typeof site.request>> | undefined;
  const gap = await longestGap(async () => {
    created = await site.request('editor', 'POST', '/forms/v1/contact-forms', { json: { title: 'Large', form, mail: { body, recipient: 'a@example.test' } } });
  });
  assert.equal(created?.status, 200);
  const started = performance.now();
  // Templates and mail bodies are trimmed, then sanitised.
  const expected = { form: sanitizePostHtml(phpTrim(form)), body: sanitizePostHtml(phpTrim(body)) };
  const inPlaceMs = performance.now() - started;
  assert.ok(expected.form !== form && expected.body !== body, 'the texts have something to remove');
  const read = await site.request('editor', 'GET', `/forms/v1/contact-forms/${created!.json.id}`);
  assert.ok(read.json.properties.form.content === expected.form, 'the template is stored as the main thread sanitises it');
  assert.ok(read.json.properties.mail.body === expected.body, 'the mail body is stored as the main thread sanitises it');
  assert.deepEqual(read.json.properties.form.fields.map((field: { name: string }) => field.name), ['your-name'], 'the form-tags are read from the stored template');
  assert.ok(gap < inPlaceMs / 2, `longest gap ${gap.toFixed(1)} ms, sanitising in place ${inPlaceMs.toFixed(1)} ms`);

  // mail_2 too, on an update.
  const second = markup(SANITIZE_OFF_THREAD_CHARACTERS + 100);
  const updated = await site.request('editor', 'POST', `/forms/v1/contact-forms/${created!.json.id}`, { json: { mail_2: { active: true, body: second } } });
  assert.equal(updated.status, 200);
  assert.ok(updated.json.properties.mail_2.body === sanitizePostHtml(phpTrim(second)));
});

test(`a template of more than ${MAX_FORM_TAGS} form-tags is refused and changes nothing`, async () => {
  const site = await formsSite();
  const tags = (count: number) => Array.from({ length: count }, (_, index) => `[text field-${index}]`).join('\n');
  const atLimit = await site.request('administrator', 'POST', '/forms/v1/contact-forms', { json: { title: 'Many', form: tags(MAX_FORM_TAGS) } });
  assert.equal(atLimit.status, 200);
  assert.equal(atLimit.json.properties.form.fields.length, MAX_FORM_TAGS);
  const path = `/forms/v1/contact-forms/${atLimit.json.id}`;
  // Escaped tags cost a scan too, and count.
  for (const form of [tags(MAX_FORM_TAGS + 1), `${tags(MAX_FORM_TAGS)} [[text escaped]]`]) {
    const refused = await site.request('administrator', 'POST', path, { json: { form } });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json, {
      code: 'wpcf7_too_many_form_tags', message: `A form template may hold at most ${MAX_FORM_TAGS} form-tags.`, data: { status: 400, max: MAX_FORM_TAGS },
    });
  }
  const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', { json: { title: 'Too many', form: tags(MAX_FORM_TAGS + 1) } });
  assert.equal(created.status, 400);
  assert.equal(created.json.code, 'wpcf7_too_many_form_tags');
  const list = await site.request('administrator', 'GET', '/forms/v1/contact-forms');
  assert.deepEqual(list.json.map((form: { title: string }) => form.title), ['Many'], 'the refused create stored nothing');
  const kept = await site.request('administrator', 'GET', path);
  assert.equal(kept.json.properties.form.content, tags(MAX_FORM_TAGS), 'the refused update changed nothing');
});

test(`a mail field of more than ${MAX_MAIL_TAGS} mail-tags is refused and changes nothing`, async () => {
  const site = await formsSite();
  const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', { json: { title: 'Mail', form: '[text your-name]' } });
  const path = `/forms/v1/contact-forms/${created.json.id}`;
  const mailTags = (count: number) => '[your-name] '.repeat(count).trim();
  const atLimit = await site.request('administrator', 'POST', path, { json: { mail: { subject: 'Hi', recipient: 'a@example.test', body: mailTags(MAX_MAIL_TAGS) } } });
  assert.equal(atLimit.status, 200);
  for (const mail of [{ body: mailTags(MAX_MAIL_TAGS + 1) }, { subject: mailTags(MAX_MAIL_TAGS + 1) }]) {
    for (const property of ['mail', 'mail_2']) {
      const refused = await site.request('administrator', 'POST', path, { json: { [property]: mail } });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.json, {
        code: 'wpcf7_too_many_mail_tags', message: `A field of a mail template may hold at most ${MAX_MAIL_TAGS} mail-tags.`, data: { status: 400, max: MAX_MAIL_TAGS },
      });
    }
  }
  const kept = await site.request('administrator', 'GET', path);
  assert.equal(kept.json.properties.mail.body, mailTags(MAX_MAIL_TAGS), 'the refused updates changed nothing');
  assert.equal(kept.json.properties.mail.subject, 'Hi');
});

test('a save finding the worker queue full is refused with 503 and Retry-After, and the form keeps its template', async () => {
  const site = await filteredSite();
  const created = await site.request('editor', 'POST', '/forms/v1/contact-forms', { json: { title: 'Kept', form: '<p>[text your-name]</p>' } });
  const path = `/forms/v1/contact-forms/${created.json.id}`;
  // Texts that keep the queue full for a while (some tens of milliseconds each).
  const busy = Array.from({ length: 48 }, () => sanitizePostHtmlWhereCheapest(markup(8 * SANITIZE_OFF_THREAD_CHARACTERS)));
  const update = await site.request('editor', 'POST', path, { json: { form: markup(SANITIZE_OFF_THREAD_CHARACTERS + 100) } });
  await Promise.allSettled(busy);
  assert.equal(update.status, 503);
  assert.equal(update.json.code, 'rest_render_busy');
  assert.match(update.headers['Retry-After'] ?? update.headers['retry-after'] ?? '', /^[1-9]\d*$/);
  const kept = await site.request('editor', 'GET', path);
  assert.equal(kept.json.properties.form.content, '<p>[text your-name]</p>', 'a refused save changes nothing');
});

test('a mail subject or body that may come to nothing is reported, whatever text or mail-tags it starts with', async () => {
  const site = await formsSite();
  const form = '[text optional] [text* required] [email* address]';
  const cases: [string, boolean][] = [
    ['', true], [' \n\t\u3000\ufeff', true], ['[optional]', true], [' \r\n[optional] [optional]\n', true], ['[[optional]]', false],
    ['[required]', false], ['Hello [optional]', false], ['[optional] Hello', false], ['  [optional]\n[required]', false],
    ['[optional', false], ['[_site_title]', false], ['[_user_email]', true],
  ];
  for (const [text, empty] of cases) {
    const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
      json: { title: 'Mail', form, mail: { subject: text, body: `${text}${' '.repeat(100)}`, sender: 'wordpress@example.test', recipient: 'owner@example.test' } },
    });
    const sections = Array.isArray(created.json.config_errors) ? [] : Object.keys(created.json.config_errors);
    const expected = empty ? ['mail.subject', 'mail.body'] : [];
    assert.deepEqual(sections.filter((section) => section === 'mail.subject' || section === 'mail.body'), expected, JSON.stringify(text));
  }
});
