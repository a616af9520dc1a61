import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formsSite, postFeedback } from './fixtures.js';

const FORM = `[text* your-name] [email* your-email] [select topic "Sales|sales@example.com" "Support|support@example.com"]
[checkbox extras "Tea" "Cake"] [date when] [textarea your-message] [acceptance terms] I agree [/acceptance]
[file upload filetypes:txt|png limit:10kb]`;

describe('mail through the Mailer port', async () => {
  const site = await formsSite({ site: { description: 'Where anchors are' } });
  const { cms, outbox, request } = site;
  const create = async (json: Record<string, unknown>) =>
    (await request('administrator', 'POST', '/forms/v1/contact-forms', { json: { form: FORM, ...json } })).json.id as number;
  const fields = (extra: Record<string, string | string[]> = {}) => ({
    _wpcf7_unit_tag: 'wpcf7-f9-o1', _wpcf7_container_post: '0', 'your-name': 'Ann <b>Example</b>', 'your-email': 'ann@example.org',
    topic: 'Support', 'extras[]': ['Tea', 'Cake'], when: '2026-05-01', 'your-message': 'Line one\nLine two', terms: '1', ...extra,
  });

  it('replaces field, piped, raw, formatted and special tags', async () => {
    const id = await create({
      title: 'Tags',
      mail: {
        sender: '[_site_title] <forms@example.test>', recipient: '[topic], [_site_admin_email]', subject: 'From [your-name]',
        body: 'Topic: [topic] / raw [_raw_topic]\nExtras: [extras]\nWhen: [_format_when "l, F j, Y"]\nTerms: [terms]\n'
          + 'Site: [_site_title] [_site_url] [_site_domain] [_site_description]\nFrom [_remote_ip] at [_date] [_time]\n'
          + 'Form: [_contact_form_title] / unknown [nope] / escaped [[your-name]] / [_user_login]',
      },
    });
    outbox.clear();
    const { json } = await postFeedback(cms, id, fields(), { remoteAddress: '198.51.100.7' });
    assert.equal(json.status, 'mail_sent');
    assert.equal(outbox.messages.length, 1);
    const [mail] = outbox.messages;
    assert.equal(mail!.from, 'Anchor Site <forms@example.test>');
    assert.deepEqual(mail!.to, ['support@example.com', 'admin@example.test']);
    assert.equal(mail!.subject, 'From Ann <b>Example</b>');
    assert.equal(mail!.text, [
      'Topic: support@example.com / raw Support',
      'Extras: Tea, Cake',
      'When: Friday, May 1, 2026',
      'Terms: Consented: I agree',
      'Site: Anchor Site http://example.test example.test Where anchors are',
      'From 198.51.100.7 at March 4, 2026 5:06 am',
      'Form: Tags / unknown [nope] / escaped [your-name] / ',
    ].join('\n'));
  });

  it('never lets posted text add headers or recipients', async () => {
    const id = await create({
      title: 'Headers',
      mail: {
        sender: 'Site <forms@example.test>', recipient: 'owner@example.test', subject: 'About [your-name]', body: '[your-message]',
        additional_headers: 'Reply-To: [your-email]\nX-Form: [your-name]\nnot a header',
      },
    });
    outbox.clear();
    await postFeedback(cms, id, fields({ 'your-name': 'Eve\r\nBcc: victim@example.org', 'your-email': 'eve@example.org' }));
    const [mail] = outbox.messages;
    assert.deepEqual(mail!.to, ['owner@example.test']);
    assert.equal(mail!.bcc, undefined);
    assert.equal(mail!.replyTo, 'eve@example.org');
    assert.doesNotMatch(mail!.subject, /[\r\n]/);
    assert.doesNotMatch(mail!.headers!['X-Form']!, /[\r\n]/);
    assert.equal(Object.keys(mail!.headers!).length, 1);
  });

  it('sends mail_2 when active, and leaves out blank lines with exclude_blank', async () => {
    const id = await create({
      title: 'Two',
      mail: { sender: 'Site <forms@example.test>', recipient: 'owner@example.test', subject: 's', body: 'Name: [your-name]\nMessage: [your-message]\nPlain line', exclude_blank: true },
      mail_2: { active: true, sender: 'Site <forms@example.test>', recipient: '[your-email]', subject: 'Copy', body: 'Thanks [your-name]' },
    });
    outbox.clear();
    await postFeedback(cms, id, fields({ 'your-message': '' }));
    assert.equal(outbox.messages.length, 2);
    assert.equal(outbox.messages[0]!.text, 'Name: Ann <b>Example</b>\nPlain line');
    assert.deepEqual(outbox.messages[1]!.to, ['ann@example.org']);
    assert.equal(outbox.messages[1]!.text, 'Thanks Ann <b>Example</b>');
  });

  it('wraps the body in an HTML document with use_html, escaping posted text', async () => {
    const id = await create({
      title: 'Html',
      mail: { sender: 'Site <forms@example.test>', recipient: 'owner@example.test', subject: 'Hi [your-name]', body: '<p>From <strong>[your-name]</strong> <[your-email]></p>', use_html: true },
    });
    outbox.clear();
    await postFeedback(cms, id, fields());
    const [mail] = outbox.messages;
    assert.match(mail!.html!, /^<!doctype html>\n<html xmlns="http:\/\/www.w3.org\/1999\/xhtml" dir="ltr" lang="en-US">/);
    assert.match(mail!.html!, /<title>Hi Ann &lt;b&gt;Example&lt;\/b&gt;<\/title>/);
    assert.match(mail!.html!, /<strong>Ann &lt;b&gt;Example&lt;\/b&gt;<\/strong> &lt;ann@example.org&gt;/);
    assert.doesNotMatch(mail!.html!, /<b>Example/);
    assert.match(mail!.text, /From Ann/);
  });

  it('attaches the uploads a [field] line names, and stored files by key', async () => {
    await cms.deps.blobs.put('docs/terms.txt', new TextEncoder().encode('The terms.'), { contentType: 'text/plain' });
    const id = await create({
      title: 'Files',
      mail: { sender: 'Site <forms@example.test>', recipient: 'owner@example.test', subject: 's', body: 'File: [upload]', attachments: '[upload]\ndocs/terms.txt\n../../etc/passwd' },
    });
    outbox.clear();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const { json } = await postFeedback(cms, id, fields(), { files: [{ name: 'upload', filename: '../evil name.png', type: 'image/png', content: png }] });
    assert.equal(json.status, 'mail_sent');
    const [mail] = outbox.messages;
    assert.deepEqual(mail!.attachments!.map((file) => [file.filename, file.contentType, file.content.byteLength]), [
      ['evil-name.png', 'image/png', png.byteLength], ['terms.txt', 'text/plain', 10],
    ]);
    assert.equal(mail!.text, 'File: evil-name.png');
    const kept = await cms.forms.submissions(id);
    assert.equal(kept.items[0]!.files.upload![0]!.name, 'evil-name.png');
    assert.match(kept.items[0]!.files.upload![0]!.sha256, /^[0-9a-f]{64}$/);
    assert.equal((kept.items[0] as unknown as { bytes?: unknown }).bytes, undefined);
  });

  it('reports attachment and sender problems as configuration errors', async () => {
    const response = await request('administrator', 'POST', '/forms/v1/contact-forms', {
      json: { title: 'Bad', form: FORM, mail: { sender: 'nobody', recipient: 'owner@example.test', subject: '', body: '[your-message]', attachments: 'missing/file.pdf' } },
    });
    const errors = response.json.config_errors;
    assert.deepEqual(Object.keys(errors), ['mail.subject', 'mail.sender', 'mail.body', 'mail.attachments']);
    assert.equal(errors['mail.subject'][0].message, 'There is a possible empty field.');
    assert.equal(errors['mail.sender'][0].message, 'Invalid mailbox syntax is used.');
    assert.equal(errors['mail.body'][0].link, 'https://contactform7.com/configuration-errors/maybe-empty');
    assert.equal(errors['mail.attachments'][0].message, 'Attachment file does not exist at missing/file.pdf.');
  });

  it('reports the other configuration errors', async () => {
    const response = await request('administrator', 'POST', '/forms/v1/contact-forms', {
      json: {
        title: 'Worse',
        form: '<form><label>[text name] [text first.name] [text a:b]</label></form>\n[file big limit:20mb]',
        mail: { sender: 'Site <forms@elsewhere.example>', recipient: '[first.name]', subject: 's', body: 'b', additional_headers: 'Cc: [your-email]\nBroken header' },
        messages: { spam: '<b>No</b>' },
        additional_settings: 'on_sent_ok: "alert()"',
      },
    });
    const errors = response.json.config_errors;
    const codes = Object.fromEntries(Object.entries(errors).map(([section, list]) => [section, (list as { link: string }[]).map((error) => error.link.split('/').pop())]));
    assert.deepEqual(codes, {
      'form.body': ['multiple-controls-in-label', 'unavailable-names', 'unavailable-html-elements', 'dots-in-names', 'colons-in-names', 'upload-filesize-overlimit'],
      'mail.sender': ['email-not-in-site-domain'],
      'mail.recipient': ['invalid-mailbox-syntax'],
      'mail.additional_headers': ['invalid-mail-header', 'invalid-mailbox-syntax'],
      'messages.spam': ['html-in-message'],
      'additional_settings.body': ['deprecated-settings'],
    });
    assert.equal(errors['form.body'][1].message, 'Unavailable names ("name") are used for form controls.');
    assert.equal(errors['form.body'][5].message, 'Uploadable file size exceeds PHP\u2019s maximum acceptable size.');
  });

  it('flags an email field used as recipient without protection', async () => {
    const response = await request('administrator', 'POST', '/forms/v1/contact-forms', {
      json: { title: 'Unsafe', form: '[email* your-email]', mail: { sender: 'Site <forms@example.test>', recipient: '[your-email]', subject: 's', body: 'b' } },
    });
    assert.deepEqual(Object.keys(response.json.config_errors), ['mail.recipient']);
    assert.equal(response.json.config_errors['mail.recipient'][0].message, 'Unsafe email config is used without sufficient protection.');
  });
});
