import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formsSite, postFeedback } from '../fixtures.js';

const FORM = '[text* your-name] [email* your-email] [textarea your-message]';

/** A form whose HTML mail body the administrator writes (posted values are escaped in it). */
async function htmlMailSite() {
  const site = await formsSite({ maxParsedBodyBytes: 16 * 2 ** 20 });
  const submit = async (body: string, name = 'Ann') => {
    const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
      json: {
        title: 'HTML mail', form: FORM,
        mail: {
          sender: 'Site <forms@example.test>', recipient: 'owner@example.test', subject: 'From Ann', body,
          additional_headers: 'Reply-To: [your-name] <[your-email]>', use_html: true,
        },
      },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json).slice(0, 300));
    site.outbox.clear();
    const { json } = await postFeedback(site.cms, created.json.id, {
      _wpcf7_unit_tag: `wpcf7-f${created.json.id}-o1`, 'your-name': name, 'your-email': 'ann@example.org', 'your-message': 'Hello',
    });
    assert.equal(json.status, 'mail_sent', JSON.stringify(json).slice(0, 300));
    return site.outbox.messages[0]!;
  };
  return { submit };
}

test('an HTML mail escapes bracketed addresses, keeps a whole document and drops its head as the expressions did', async () => {
  const { submit } = await htmlMailSite();
  const escaped = await submit('Write to <bob@example.org> or <b>me</b>\n<not\n an address> [your-message]');
  assert.match(escaped.html!, /Write to &lt;bob@example\.org&gt; or <b>me<\/b>/);
  assert.match(escaped.html!, /<not(?:<br \/>)?\n an address> Hello/);
  assert.equal(escaped.replyTo, 'Ann <ann@example.org>');
  const whole = await submit('<HTML lang="en"><head><title>T</title></head><body>Hi <bob@example.org></body></html>');
  assert.equal(whole.html, '<HTML lang="en"><head><title>T</title></head><body>Hi &lt;bob@example.org&gt;</body></html>');
  assert.equal(whole.text, 'Hi &lt;bob@example.org&gt;');
});

test('a mail body of many `<` is composed into a mail in one pass', async () => {
  const { submit } = await htmlMailSite();
  for (const unit of ['<', '<html ', '<head>', '< a@b.c\n']) {
    const text = unit.repeat(2 ** 18 / unit.length);
    const started = performance.now();
    const mail = await submit(`${text}[your-message]`);
    const ms = performance.now() - started;
    assert.ok(mail.html!.includes('Hello'), JSON.stringify(unit));
    assert.ok(ms < 3000, `${JSON.stringify(unit)}: ${ms.toFixed(0)} ms`);
  }
});
