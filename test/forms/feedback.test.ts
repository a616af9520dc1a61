import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { send } from '../helpers/request.js';
import { BROWSER, createAnchorForm, formsSite, postFeedback, validAnchorFields } from './fixtures.js';

describe('feedback: request checks in the reference order', async () => {
  const site = await formsSite();
  const { cms } = site;
  const { id } = await createAnchorForm(site, { additional_settings: 'skip_mail: on' });
  const post = (path: string, contentType: string, body: string) =>
    cms.handle({ method: 'POST', path, headers: { 'content-type': contentType, 'user-agent': BROWSER }, body });

  it('refuses other content types with 415 before looking for the form', async () => {
    for (const type of ['Multipart/Form-Data; boundary=x', 'multipart/mixed; boundary=x', 'text/plain']) {
      for (const formId of [id, 999999]) {
        const response = await post(`/forms/v1/contact-forms/${formId}/feedback`, type, '--x--\r\n');
        assert.equal(response.status, 415, `${type} to ${formId}`);
        assert.deepEqual(response.body, {
          code: 'wpcf7_unsupported_media_type', message: 'The request payload format is not supported.', data: { status: 415 },
        });
      }
    }
  });

  it('answers 404 for an unknown form, then 400 for a missing or unusable unit tag', async () => {
    const unknown = await post('/forms/v1/contact-forms/999999/feedback', 'application/x-www-form-urlencoded', '_wpcf7_unit_tag=x');
    assert.equal((unknown.body as { code: string }).code, 'wpcf7_not_found');
    for (const body of ['your-name=x', '_wpcf7_unit_tag=', '_wpcf7_unit_tag=%21%40%23', '_wpcf7_unit_tag[]=a']) {
      const response = await post(`/forms/v1/contact-forms/${id}/feedback`, 'application/x-www-form-urlencoded', body);
      assert.equal(response.status, 400, body);
      assert.deepEqual(response.body, { code: 'wpcf7_unit_tag_not_found', message: 'There is no valid unit tag.', data: { status: 400 } });
    }
  });

  it('takes multipart, urlencoded and JSON bodies, sanitising the unit tag into `into`', async () => {
    const multipart = await postFeedback(cms, id, { _wpcf7_unit_tag: 'qa unit!1' });
    assert.equal(multipart.status, 200);
    assert.equal(multipart.json.into, '#qaunit1');
    const urlencoded = await post(`/forms/v1/contact-forms/${id}/feedback`, 'application/x-www-form-urlencoded', '_wpcf7_unit_tag=u1');
    assert.equal((urlencoded.body as { status: string }).status, 'validation_failed');
    const json = await send(cms, 'POST', `/forms/v1/contact-forms/${id}/feedback`, {
      json: { _wpcf7_unit_tag: 'u2', 'your-name': 'Ann' }, headers: { 'user-agent': BROWSER },
    });
    assert.equal(json.json.status, 'validation_failed');
    assert.equal(json.json.into, '#u2');
    assert.ok(!json.json.invalid_fields.some((field: { field: string }) => field.field === 'your-name'));
  });
});

describe('feedback: statuses', async () => {
  const site = await formsSite();
  const { cms, outbox } = site;
  const { id, quizHash } = await createAnchorForm(site, { additional_settings: 'skip_mail: on' });
  const valid = () => validAnchorFields(quizHash);

  it('validation_failed: the first error per field, in schema order, then the quiz', async () => {
    const response = await postFeedback(cms, id, { _wpcf7_unit_tag: 'wpcf7-f1-o1' });
    assert.equal(response.status, 200);
    const { json } = response;
    assert.deepEqual(Object.keys(json), ['contact_form_id', 'status', 'message', 'invalid_fields', 'posted_data_hash', 'into', 'quiz']);
    assert.equal(json.status, 'validation_failed');
    assert.equal(json.message, 'One or more fields have an error. Please check and try again.');
    assert.equal(json.posted_data_hash, '');
    assert.deepEqual(json.invalid_fields.map((field: { field: string }) => field.field), ['seats', 'your-topic', 'your-name', 'your-email', 'your-message', 'anchor-quiz']);
    assert.deepEqual(json.invalid_fields.map((field: { message: string }) => field.message), [
      'Please fill out this field.', 'Please fill out this field.', 'Please fill out this field.', 'Please fill out this field.',
      'Please fill out this field.', 'The answer to the quiz is incorrect.',
    ]);
    assert.deepEqual(json.invalid_fields[0], { field: 'seats', message: 'Please fill out this field.', idref: null, error_id: 'wpcf7-f1-o1-ve-seats' });
    assert.equal(json.quiz['anchor-quiz'][0], 'What is 2+3?');
    assert.equal(json.quiz['anchor-quiz'][1], quizHash);
  });

  it('acceptance_missing: terms not ticked, with no invalid fields', async () => {
    const { terms: _terms, ...fields } = valid();
    const { json } = await postFeedback(cms, id, fields);
    assert.equal(json.status, 'acceptance_missing');
    assert.equal(json.message, 'You must accept the terms and conditions before sending your message.');
    assert.deepEqual(json.invalid_fields, []);
    assert.equal(json.posted_data_hash, '');
    assert.deepEqual(Object.keys(json), ['contact_form_id', 'status', 'message', 'posted_data_hash', 'into', 'invalid_fields', 'quiz']);
  });

  it('spam: a user agent shorter than two characters', async () => {
    for (const agent of ['x', '']) {
      const { json } = await postFeedback(cms, id, valid(), { headers: { 'user-agent': agent } });
      assert.equal(json.status, 'spam');
      assert.equal(json.message, 'There was an error trying to send your message. Please try again later.');
      assert.equal(json.posted_data_hash, '');
    }
  });

  it('mail_sent with skip_mail: a 32-hex posted-data hash, nothing mailed, the submission kept', async () => {
    outbox.clear();
    const { json } = await postFeedback(cms, id, { ...valid(), 'anchor-quiz': ' 5 ' });
    assert.equal(json.status, 'mail_sent');
    assert.equal(json.message, 'Thank you for your message. It has been sent.');
    assert.match(json.posted_data_hash, /^[0-9a-f]{32}$/);
    assert.equal(outbox.messages.length, 0);
    const kept = await cms.forms.submissions(id);
    assert.equal(kept.total, 1);
    assert.deepEqual(kept.items[0]!.fields['your-topic'], ['support@example.com']);
    assert.deepEqual(kept.items[0]!.fields.interests, ['News']);
    assert.equal(kept.items[0]!.fields['anchor-quiz'], undefined);
  });

  it('mail_failed when the transport refuses, never a 500; still kept', async () => {
    const failing = await formsSite({ mailer: { send: async () => { throw new Error('connection refused'); } } });
    const form = await createAnchorForm(failing);
    const { status, json } = await postFeedback(failing.cms, form.id, validAnchorFields(form.quizHash));
    assert.equal(status, 200);
    assert.equal(json.status, 'mail_failed');
    assert.equal(json.message, 'There was an error trying to send your message. Please try again later.');
    assert.match(json.posted_data_hash, /^[0-9a-f]{32}$/);
    assert.equal((await failing.cms.forms.submissions(form.id)).items[0]!.status, 'mail_failed');
  });

  it('mail_failed when the mail has no valid recipient', async () => {
    const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
      json: { title: 'Nobody', form: '[text your-name]', mail: { sender: 'Site <site@example.test>', recipient: '[your-name]', subject: 's', body: 'b' } },
    });
    const { json } = await postFeedback(cms, created.json.id, { _wpcf7_unit_tag: 'u', 'your-name': 'not an address' });
    assert.equal(json.status, 'mail_failed');
  });

  it('aborted by the host pre-send hook, with its message', async () => {
    const hooked = await formsSite({ forms: { beforeSendMail: (submission) => (submission.fields['your-name'] === 'Stop Me' ? { abort: true, message: 'Held for review.' } : undefined) } });
    const form = await createAnchorForm(hooked);
    const { json } = await postFeedback(hooked.cms, form.id, { ...validAnchorFields(form.quizHash), 'your-name': 'Stop Me' });
    assert.equal(json.status, 'aborted');
    assert.equal(json.message, 'Held for review.');
    assert.match(json.posted_data_hash, /^[0-9a-f]{32}$/);
    assert.equal(hooked.outbox.messages.length, 0);
    assert.equal((await hooked.cms.forms.submissions(form.id)).total, 0);
    const plain = await postFeedback(hooked.cms, form.id, validAnchorFields(form.quizHash));
    assert.equal(plain.json.status, 'mail_sent');
  });

  it('demo_mode: mail_sent without mail, `demo_mode: true`, nothing kept', async () => {
    const demo = await createAnchorForm(site, { additional_settings: 'demo_mode: on' });
    outbox.clear();
    const { json } = await postFeedback(cms, demo.id, validAnchorFields(demo.quizHash));
    assert.deepEqual(Object.keys(json), ['contact_form_id', 'status', 'message', 'posted_data_hash', 'demo_mode', 'into', 'invalid_fields', 'quiz']);
    assert.equal(json.status, 'mail_sent');
    assert.equal(json.demo_mode, true);
    assert.equal(outbox.messages.length, 0);
    assert.equal((await cms.forms.submissions(demo.id)).total, 0);
  });

  it('error for subscribers_only without a logged-in user, with no posted_data_hash key; a subscriber passes', async () => {
    const members = await createAnchorForm(site, { additional_settings: 'subscribers_only: on\nskip_mail: on' });
    const anonymous = await postFeedback(cms, members.id, validAnchorFields(members.quizHash));
    assert.equal(anonymous.json.status, 'error');
    assert.equal(anonymous.json.message, 'This contact form is available only for logged in users.');
    assert.equal('posted_data_hash' in anonymous.json, false);
    const subscriber = await postFeedback(cms, members.id, validAnchorFields(members.quizHash), { user: site.userOf('subscriber') });
    assert.equal(subscriber.json.status, 'mail_sent');
    // Logged-in subscribers skip the spam checks, as the reference does.
    const shortAgent = await postFeedback(cms, members.id, validAnchorFields(members.quizHash), { user: site.userOf('subscriber'), headers: { 'user-agent': 'x' } });
    assert.equal(shortAgent.json.status, 'mail_sent');
  });
});

describe('feedback: spam checks without a network', async () => {
  const site = await formsSite({
    site: { disallowedKeys: ['viagra', 'x', '203.0.113.9'] },
    forms: { spamCheck: (submission) => (submission.fields['your-name'] === 'Bot' ? 'flagged by host' : false) },
  });
  const form = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
    json: { title: 'Spam', form: '[text* your-name]\n[textarea your-message]\n[hidden website honeypot]', additional_settings: 'skip_mail: on' },
  });
  const id = form.json.id as number;
  const fields = (extra: Record<string, string>) => ({ _wpcf7_unit_tag: 'u', 'your-name': 'Ann', ...extra });

  it('passes a clean submission (one-letter words in the list are ignored)', async () => {
    assert.equal((await postFeedback(site.cms, id, fields({}))).json.status, 'mail_sent');
  });

  it('marks disallowed words in any value, the address or the user agent', async () => {
    assert.equal((await postFeedback(site.cms, id, fields({ 'your-message': 'cheap VIAGRA here' }))).json.status, 'spam');
    assert.equal((await postFeedback(site.cms, id, fields({}), { remoteAddress: '203.0.113.9' })).json.status, 'spam');
  });

  it('marks a filled honeypot field, renders it empty', async () => {
    assert.equal((await postFeedback(site.cms, id, fields({ website: 'http://spam.example' }))).json.status, 'spam');
    assert.match((await site.cms.forms.render(id))!, /<input class="wpcf7-form-control wpcf7-hidden" value="" type="hidden" name="website" \/>/);
  });

  it('asks the host hook last', async () => {
    assert.equal((await postFeedback(site.cms, id, fields({ 'your-name': 'Bot' }))).json.status, 'spam');
  });

  it('keeps none of the spam', async () => {
    assert.equal((await site.cms.forms.submissions(id)).total, 1);
  });
});
