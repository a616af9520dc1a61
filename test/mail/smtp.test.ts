import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createSmtpMailer } from '../../src/mail/smtp.js';
import { formsSite, postFeedback } from '../forms/fixtures.js';

/** A local SMTP server on loopback that keeps every message it accepts and refuses one recipient. */
function localSmtpServer() {
  const received: { envelope: { from: string; to: string[] }; mail: ParsedMail }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    closeTimeout: 200,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address === 'refuse@example.test') callback(new Error('550 No such user'));
      else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        received.push({
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
          },
          mail,
        });
        callback();
      }, callback);
    },
  });
  return { server, received };
}

describe('SMTP mail end to end', () => {
  const { server, received } = localSmtpServer();
  let url = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses addresses that are not SMTP URLs', () => {
    assert.throws(() => createSmtpMailer('http://mail.example.test'), /smtp:\/\/ or smtps:\/\//);
    assert.throws(() => createSmtpMailer('not a url'), /Not an SMTP address/);
  });

  it('delivers a form submission with its upload, headers and the second mail', async () => {
    const mailer = createSmtpMailer(url);
    try {
      const site = await formsSite({ mailer });
      const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
        json: {
          title: 'Over SMTP',
          form: '[text* your-name] [email* your-email] [textarea your-message] [file upload filetypes:txt]',
          mail: {
            sender: '[_site_title] <forms@example.test>', recipient: 'owner@example.test', subject: 'Message from [your-name]',
            body: 'Message: [your-message]', additional_headers: 'Reply-To: [your-email]\nCc: copy@example.test', attachments: '[upload]',
          },
          mail_2: { active: true, sender: 'Anchor <forms@example.test>', recipient: '[your-email]', subject: 'Receipt', body: 'We got it, [your-name].', use_html: true },
        },
      });
      const { json } = await postFeedback(site.cms, created.json.id, {
        _wpcf7_unit_tag: 'u1', 'your-name': 'Zoë', 'your-email': 'zoe@example.org', 'your-message': 'Héllo over SMTP',
      }, { files: [{ name: 'upload', filename: 'notes.txt', type: 'text/plain', content: 'attached notes' }] });
      assert.equal(json.status, 'mail_sent');
      assert.equal(received.length, 2);
      const [first, second] = received;
      assert.deepEqual(first!.envelope, { from: 'forms@example.test', to: ['owner@example.test', 'copy@example.test'] });
      assert.equal(first!.mail.subject, 'Message from Zoë');
      assert.equal(first!.mail.from!.text, '"Anchor Site" <forms@example.test>');
      assert.equal(first!.mail.replyTo!.text, 'zoe@example.org');
      assert.equal(first!.mail.text!.trim(), 'Message: Héllo over SMTP');
      assert.deepEqual(first!.mail.attachments.map((file) => [file.filename, file.content.toString()]), [['notes.txt', 'attached notes']]);
      assert.deepEqual(second!.envelope.to, ['zoe@example.org']);
      assert.match(second!.mail.html as string, /We got it, Zoë\./);
    } finally {
      mailer.close();
    }
  });

  it('answers mail_failed when the server refuses the recipient', async () => {
    const mailer = createSmtpMailer(url);
    try {
      const site = await formsSite({ mailer });
      const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
        json: { title: 'Refused', form: '[text your-name]', mail: { sender: 'Site <forms@example.test>', recipient: 'refuse@example.test', subject: 's', body: 'b' } },
      });
      const { status, json } = await postFeedback(site.cms, created.json.id, { _wpcf7_unit_tag: 'u' });
      assert.equal(status, 200);
      assert.equal(json.status, 'mail_failed');
    } finally {
      mailer.close();
    }
  });

  it('answers mail_failed when nothing listens', async () => {
    const probe = new SMTPServer({ logger: false, disableReverseLookup: true, closeTimeout: 200 });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, { connectionTimeout: 2000 });
    try {
      const site = await formsSite({ mailer });
      const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
        json: { title: 'Down', form: '[text your-name]', mail: { sender: 'Site <forms@example.test>', recipient: 'owner@example.test', subject: 's', body: 'b' } },
      });
      const { json } = await postFeedback(site.cms, created.json.id, { _wpcf7_unit_tag: 'u' });
      assert.equal(json.status, 'mail_failed');
    } finally {
      mailer.close();
    }
  });
});
