import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAnchorForm, formsSite, postFeedback } from './fixtures.js';

describe('feedback schema, refill and rendering', async () => {
  const site = await formsSite();
  const { request, cms } = site;
  const { id, quizHash } = await createAnchorForm(site, { additional_settings: 'skip_mail: on' });

  it('serves the SWV schema in the plugin order, thresholds typed as observed', async () => {
    const { json } = await request('anonymous', 'GET', `/forms/v1/contact-forms/${id}/feedback/schema`);
    assert.deepEqual(Object.keys(json), ['version', 'locale', 'rules']);
    assert.equal(json.version, 'Contact Form 7 SWV Schema 2024-10');
    assert.equal(json.locale, 'en_US');
    assert.deepEqual(json.rules.map((rule: { rule: string; field: string }) => `${rule.rule}:${rule.field}`), [
      'date:preferred-date', 'mindate:preferred-date', 'maxdate:preferred-date',
      'file:attachment', 'maxfilesize:attachment',
      'required:seats', 'number:seats', 'minnumber:seats', 'maxnumber:seats',
      'required:your-topic',
      'required:your-name', 'maxlength:your-name', 'required:your-email', 'email:your-email', 'maxlength:your-email',
      'tel:phone', 'maxlength:phone', 'url:website', 'maxlength:website',
      'required:your-message', 'minlength:your-message', 'maxlength:your-message',
      'enum:interests', 'enum:your-topic',
    ]);
    const rule = (name: string, field: string) => json.rules.find((item: { rule: string; field: string }) => item.rule === name && item.field === field);
    assert.deepEqual(rule('maxlength', 'your-name'), { rule: 'maxlength', field: 'your-name', threshold: 400, error: 'This field has a too long input.' });
    assert.equal(rule('minlength', 'your-message').threshold, 10);
    assert.equal(rule('maxfilesize', 'attachment').threshold, 1048576);
    assert.equal(rule('minnumber', 'seats').threshold, '1');
    assert.equal(rule('maxnumber', 'seats').threshold, '20');
    assert.equal(rule('mindate', 'preferred-date').threshold, '2020-01-01');
    assert.deepEqual(rule('file', 'attachment').accept, ['.txt', '.pdf', '.png']);
    assert.deepEqual(rule('enum', 'your-topic').accept, ['Sales', 'Support']);
    assert.deepEqual(rule('enum', 'interests'), { rule: 'enum', field: 'interests', accept: ['News', 'Events'], error: 'Undefined value was submitted through this field.' });
  });

  it('resolves relative date limits and range defaults', async () => {
    const created = await request('administrator', 'POST', '/forms/v1/contact-forms', {
      json: { title: 'Dates', form: '[date when min:today max:+1_week] [range level] [checkbox more free_text "a" "b"] [select s first_as_label "Pick" "x"]' },
    });
    const { json } = await request('anonymous', 'GET', `/forms/v1/contact-forms/${created.json.id}/feedback/schema`);
    const thresholds = json.rules.filter((rule: { threshold?: unknown }) => rule.threshold !== undefined)
      .map((rule: { rule: string; threshold: unknown }) => [rule.rule, rule.threshold]);
    assert.deepEqual(thresholds, [['mindate', '2026-03-04'], ['maxdate', '2026-03-11'], ['minnumber', '0'], ['maxnumber', '100']]);
    assert.deepEqual(json.rules.filter((rule: { rule: string }) => rule.rule === 'enum').map((rule: { field: string; accept: string[] }) => [rule.field, rule.accept]), [['s', ['x']]]);
  });

  it('refills quizzes with a stable hash for one question, [] without a quiz', async () => {
    const first = await request('anonymous', 'GET', `/forms/v1/contact-forms/${id}/refill`);
    const second = await request('anonymous', 'GET', `/forms/v1/contact-forms/${id}/refill`);
    assert.deepEqual(first.json, { quiz: { 'anchor-quiz': ['What is 2+3?', quizHash] } });
    assert.deepEqual(second.json, first.json);
    assert.match(quizHash, /^[0-9a-f]{32}$/);
    const plain = await request('administrator', 'POST', '/forms/v1/contact-forms', { json: { title: 'Plain' } });
    assert.deepEqual((await request('anonymous', 'GET', `/forms/v1/contact-forms/${plain.json.id}/refill`)).json, []);
    assert.equal((await request('anonymous', 'GET', '/forms/v1/contact-forms/999999/refill')).json.code, 'wpcf7_not_found');
    assert.equal((await request('anonymous', 'GET', '/forms/v1/contact-forms/999999/feedback/schema')).json.code, 'wpcf7_not_found');
  });

  it('renders the form: wrapper, hidden fields, controls, multipart for files, a working quiz', async () => {
    const html = (await cms.forms.render(id, { unitTag: 'wpcf7-f1-p7-o2', containerPost: 7, action: '/contact/#old' }))!;
    assert.match(html, /<div class="wpcf7 no-js" id="wpcf7-f1-p7-o2" lang="en-US" dir="ltr" data-wpcf7-id="\d+">/);
    assert.match(html, /<form action="\/contact\/#wpcf7-f1-p7-o2" method="post" class="wpcf7-form init" aria-label="Contact form" enctype="multipart\/form-data" novalidate="novalidate" data-status="init">/);
    assert.match(html, /<input type="hidden" name="_wpcf7_unit_tag" value="wpcf7-f1-p7-o2" \/>/);
    assert.match(html, /<input type="hidden" name="_wpcf7_container_post" value="7" \/>/);
    assert.match(html, /<select class="wpcf7-form-control wpcf7-select wpcf7-validates-as-required" aria-required="true" aria-invalid="false" name="your-topic"><option value="Sales">Sales<\/option><option value="Support">Support<\/option><\/select>/);
    assert.match(html, /<input class="wpcf7-form-control wpcf7-number wpcf7-validates-as-required wpcf7-validates-as-number" min="1" max="20" aria-required="true" aria-invalid="false" value="" type="number" name="seats" \/>/);
    assert.match(html, /<input type="checkbox" name="interests\[\]" value="News" \/><span class="wpcf7-list-item-label">News<\/span>/);
    assert.match(html, /<input size="40" class="wpcf7-form-control wpcf7-file" accept=".txt,.pdf,.png" aria-invalid="false" type="file" name="attachment" \/>/);
    assert.match(html, /<span class="wpcf7-list-item-label">I agree to the terms<\/span>/);
    assert.match(html, /<input class="wpcf7-form-control wpcf7-submit has-spinner" type="submit" value="Send" \/>/);
    assert.match(html, /<div class="wpcf7-response-output" aria-hidden="true"><\/div>\n<\/form>/);
    const quiz = /<span class="wpcf7-quiz-label">(.*?)<\/span>.*?name="_wpcf7_quiz_answer_anchor-quiz" value="([0-9a-f]{32})"/.exec(html)!;
    assert.equal(quiz[1], 'What is 2+3?');
    assert.equal(quiz[2], quizHash);
    assert.equal(await cms.forms.render(999999), null);
  });

  it('renders the subscribers-only notice to visitors', async () => {
    const members = await cms.forms.create({ title: 'Members', additional_settings: 'subscribers_only: on' });
    assert.equal(await cms.forms.render(members.id), '<p class="wpcf7-subscribers-only">This contact form is available only for logged in users.</p>');
    assert.match((await cms.forms.render(members.id, { loggedIn: true }))!, /<form /);
  });

  it('lists kept submissions for editors, newest first, with paging headers', async () => {
    const fields = { _wpcf7_unit_tag: 'u', 'your-name': 'Ann', 'your-email': 'a@example.org', 'your-topic': 'Sales', seats: '2', 'your-message': 'A long enough note', 'anchor-quiz': '5', '_wpcf7_quiz_answer_anchor-quiz': quizHash, terms: '1' };
    for (const name of ['First', 'Second', 'Third']) {
      site.clock.advance(60_000);
      assert.equal((await postFeedback(cms, id, { ...fields, 'your-name': name })).json.status, 'mail_sent');
    }
    const page = await request('editor', 'GET', `/forms/v1/contact-forms/${id}/submissions?per_page=2`);
    assert.equal(page.status, 200);
    assert.equal(page.headers['X-WP-Total'], '3');
    assert.equal(page.headers['X-WP-TotalPages'], '2');
    assert.deepEqual(page.json.map((item: { fields: Record<string, string> }) => item.fields['your-name']), ['Third', 'Second']);
    assert.deepEqual(Object.keys(page.json[0]), ['id', 'contact_form_id', 'status', 'date_gmt', 'fields', 'files', 'meta']);
    assert.equal((await request('editor', 'GET', `/forms/v1/contact-forms/${id}/submissions?per_page=500`)).json.code, 'rest_invalid_param');
    assert.equal((await request('author', 'GET', `/forms/v1/contact-forms/${id}/submissions`)).status, 403);
    await cms.forms.delete(id);
    assert.equal((await cms.forms.submissions(id)).total, 0);
  });
});
