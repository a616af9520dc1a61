import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { send } from '../helpers/request.js';
import { BROWSER, makeMailingSite, NOW_SECONDS } from './helpers.js';

const SPAM = 'Your submission was marked as spam.';

async function storedSubscribers(site: Awaited<ReturnType<typeof makeMailingSite>>) {
  return (await site.cms.deps.storage.list('mailing_subscribers', { withTotal: true })).total;
}

describe('mailing/v1/form: finding the form', () => {
  it('answers 404 not_found for a missing, empty, 0 or unknown form id, and for the id of a post', async () => {
    const site = await makeMailingSite();
    await site.createForm();
    const post = await site.admin('POST', '/cms/v2/posts', { json: { title: 'A post', status: 'publish' } });
    const good = { _mc4wp_timestamp: String(NOW_SECONDS - 60), _mc4wp_honeypot: '', EMAIL: 'a@example.com' };
    for (const id of [undefined, '', '0', '999', String(post.json.id), '-3']) {
      const response = await site.signup(id === undefined ? good : { ...good, _mc4wp_form_id: id });
      assert.equal(response.status, 404, `form id ${id}`);
      assert.deepEqual(response.json, { code: 'not_found', message: 'Resource does not exist.', data: { status: 404 } });
    }
    assert.equal(await storedSubscribers(site), 0);
  });

  it('matches a non-numeric form id to the first published form, which then runs its checks', async () => {
    const site = await makeMailingSite();
    await site.createForm({ status: 'draft', settings: { lists: [] } });
    const published = await site.createForm({ settings: { lists: ['list01'] } });
    await site.createForm({ settings: { lists: [] } });
    const response = await site.signup({ ...site.hidden('abc'), EMAIL: 'not-an-email' });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'invalid_email');
    const ok = await site.signup({ ...site.hidden('abc'), EMAIL: 'a@example.com' });
    assert.equal(ok.status, 200);
    assert.equal((await site.subscribers('list01'))[0]!.form_id, published);
  });

  it('answers 404 for a non-numeric id when no form is published, and takes a draft named by its own id', async () => {
    const site = await makeMailingSite();
    const draft = await site.createForm({ status: 'draft' });
    assert.equal((await site.signup({ ...site.hidden('abc'), EMAIL: 'a@example.com' })).status, 404);
    assert.equal((await site.signup({ ...site.hidden(draft), EMAIL: 'a@example.com' })).status, 200);
  });

  it('reads the form id from the body only, not from the query string', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const { _mc4wp_form_id: _, ...rest } = site.hidden(id);
    const response = await site.anonymous('POST', `/mailing/v1/form?_mc4wp_form_id=${id}`, {
      form: new URLSearchParams({ ...rest, EMAIL: 'a@example.com' }).toString(), headers: { 'user-agent': BROWSER },
    });
    assert.equal(response.status, 404);
  });

  it('accepts JSON and multipart bodies as well as urlencoded ones', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: ['list01'], double_optin: false } });
    const json = await site.anonymous('POST', '/mailing/v1/form', {
      json: { _mc4wp_form_id: id, _mc4wp_timestamp: NOW_SECONDS - 60, _mc4wp_honeypot: '', email: 'json@example.com', fname: 'Jay' },
      headers: { 'user-agent': BROWSER },
    });
    assert.equal(json.status, 200);
    assert.equal(json.json, true);

    const boundary = 'XyZ';
    const parts = Object.entries({ ...site.hidden(id), EMAIL: 'multi@example.com', LNAME: 'Part' })
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('');
    const multipart = await site.cms.handle({
      method: 'POST', path: '/mailing/v1/form',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'user-agent': BROWSER },
      body: `${parts}--${boundary}--\r\n`,
    });
    assert.equal(multipart.status, 200);
    const stored = await site.subscribers('list01');
    assert.deepEqual(stored.map((subscriber) => [subscriber.email, subscriber.merge_fields]), [
      ['json@example.com', { FNAME: 'Jay' }],
      ['multi@example.com', { LNAME: 'Part' }],
    ]);
  });

  it('answers a JSON array or text body with 404, and GET with rest_no_route; OPTIONS allows POST', async () => {
    const site = await makeMailingSite();
    await site.createForm();
    const array = await site.anonymous('POST', '/mailing/v1/form', { json: [1, 2], headers: { 'user-agent': BROWSER } });
    assert.equal(array.status, 404);
    assert.equal(array.json.code, 'not_found');
    const get = await site.anonymous('GET', '/mailing/v1/form');
    assert.equal(get.status, 404);
    assert.equal(get.json.code, 'rest_no_route');
    const options = await site.anonymous('OPTIONS', '/mailing/v1/form');
    assert.equal(options.headers.Allow, 'POST');
  });
});

describe('mailing/v1/form: the checks, in order, first error only', () => {
  it('answers 200 true on success and upper-cases field names', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: ['list01'], required_fields: 'EMAIL,FNAME' } });
    const response = await site.signup({ ...site.hidden(id), email: 'Low@Example.com', fname: 'Lou', 'address[city]': 'Oslo' });
    assert.equal(response.status, 200);
    assert.equal(response.json, true);
    const [subscriber] = await site.subscribers('list01');
    assert.equal(subscriber!.email, 'low@example.com');
    assert.deepEqual(subscriber!.merge_fields, { FNAME: 'Lou', ADDRESS: { city: 'Oslo' } });
  });

  it('reports no_lists_selected first, before spam, when the lists override is an array of empty ids', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const response = await site.signup({ _mc4wp_form_id: String(id), '_mc4wp_lists[]': ['', '0'], EMAIL: 'bad' }, { headers: { 'user-agent': '' } });
    assert.equal(response.status, 400);
    assert.deepEqual(response.json, { code: 'no_lists_selected', message: 'Please select at least one list.', data: { status: 400 } });
  });

  it('reports no_lists_selected for a form without lists, with an edit link for administrators only', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: [] } });
    const fields = { ...site.hidden(id), EMAIL: 'a@example.com' };
    assert.equal((await site.signup(fields, { role: 'editor' })).json.message, 'Please select at least one list.');
    const admin = await site.signup(fields, { role: 'administrator' });
    assert.equal(admin.json.code, 'no_lists_selected');
    assert.equal(admin.json.message,
      `Please select at least one list. (<a href="http://example.test/cms-json/mailing/v1/forms/${id}">edit form settings</a>)`);
  });

  it('links to the host\'s own form editor when one is configured', async () => {
    const site = await makeMailingSite({ mailing: { editFormUrl: 'https://admin.example.test/forms/{id}/settings' } });
    const id = await site.createForm({ settings: { lists: [] } });
    const admin = await site.signup({ ...site.hidden(id), EMAIL: 'a@example.com' }, { role: 'administrator' });
    assert.match(admin.json.message, new RegExp(`<a href="https://admin.example.test/forms/${id}/settings">edit form settings</a>`));
  });

  it('takes a lists override as a comma string: an empty string is one (empty) list, not "no lists"', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: [] } });
    await site.createForm({ settings: { lists: ['alpha', 'beta', 'gamma'] } });
    const badEmail = await site.signup({ ...site.hidden(id), _mc4wp_lists: '', EMAIL: 'bad' });
    assert.equal(badEmail.json.code, 'invalid_email');
    const nothingToJoin = await site.signup({ ...site.hidden(id), _mc4wp_lists: '', EMAIL: 'a@example.com' });
    assert.equal(nothingToJoin.status, 400);
    assert.deepEqual(nothingToJoin.json, { code: 'error', message: 'Oops. Something went wrong. Please try again later.', data: { status: 400 } });
    const chosen = await site.signup({ ...site.hidden(id), _mc4wp_lists: 'alpha, beta', EMAIL: 'a@example.com', _mc4wp_email_type: 'text' });
    assert.equal(chosen.status, 200);
    assert.equal((await site.subscribers('alpha'))[0]!.email_type, 'text');
    assert.equal((await site.subscribers('beta')).length, 1);
    const arrayOverride = await site.signup({ ...site.hidden(id), '_mc4wp_lists[]': ['gamma', ''], EMAIL: 'b@example.com' });
    assert.equal(arrayOverride.status, 200);
    assert.equal((await site.subscribers('gamma')).length, 1);
  });

  it('takes only lists the provider has: an unknown one is the reference\'s 404, and nothing is stored or mailed', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: ['list01'] } });
    await site.createForm({ status: 'draft', settings: { lists: ['list02'] } });
    for (const lists of ['made-up', 'list01,made-up', 'made-up,list02']) {
      const response = await site.signup({ ...site.hidden(id), _mc4wp_lists: lists, EMAIL: 'victim@example.com' });
      assert.equal(response.status, 400, lists);
      assert.deepEqual(response.json, { code: '404', message: 'Oops. Something went wrong. Please try again later.', data: { status: 400 } });
    }
    assert.equal(site.outbox.messages.length, 0);
    assert.deepEqual(await site.subscribers('list01'), []);
    assert.deepEqual(await site.subscribers('made-up'), []);
    // Lists of any sign-up form exist, drafts' included.
    const known = await site.signup({ ...site.hidden(id), '_mc4wp_lists[]': ['list01', 'list02'], EMAIL: 'someone@example.com' });
    assert.equal(known.status, 200);
    assert.equal(site.outbox.messages.length, 1);
  });

  it('marks a missing, empty or bot-like user agent as spam.user_agent', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const fields = { ...site.hidden(id), EMAIL: 'bad' };
    for (const agent of ['', 'Googlebot/2.1', 'Mozilla/5.0 (compatible; AhrefsBot)', 'Chrome-Lighthouse', 'facebookexternalhit/1.1', 'Slack Link Preview']) {
      const response = await site.signup(fields, { headers: { 'user-agent': agent } });
      assert.deepEqual(response.json, { code: 'spam.user_agent', message: SPAM, data: { status: 400 } }, agent);
    }
    const none = await send(site.cms, 'POST', '/mailing/v1/form', { form: new URLSearchParams(fields).toString() });
    assert.equal(none.json.code, 'spam.user_agent');
  });

  it('marks a missing, non-numeric, too recent, future or over-90-day-old timestamp as spam.timestamp', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const base = { _mc4wp_form_id: String(id), _mc4wp_honeypot: '', EMAIL: 'bad' };
    const day = 86_400;
    for (const stamp of [undefined, '', 'abc', String(NOW_SECONDS), String(NOW_SECONDS - 1), String(NOW_SECONDS + 3600), String(NOW_SECONDS - 90 * day - 1)]) {
      const response = await site.signup(stamp === undefined ? base : { ...base, _mc4wp_timestamp: stamp });
      assert.deepEqual(response.json, { code: 'spam.timestamp', message: SPAM, data: { status: 400 } }, `timestamp ${stamp}`);
    }
    for (const stamp of [String(NOW_SECONDS - 2), String(NOW_SECONDS - 90 * day), ` ${NOW_SECONDS - 30} `]) {
      const response = await site.signup({ ...base, _mc4wp_timestamp: stamp });
      assert.equal(response.json.code, 'invalid_email', `timestamp ${stamp} passes`);
    }
  });

  it('marks a missing or filled honeypot as spam.honeypot; tags and white space alone count as empty', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const base = { _mc4wp_form_id: String(id), _mc4wp_timestamp: String(NOW_SECONDS - 60), EMAIL: 'bad' };
    assert.equal((await site.signup(base)).json.code, 'spam.honeypot');
    assert.equal((await site.signup({ ...base, _mc4wp_honeypot: 'http://spam.example' })).json.message, SPAM);
    assert.equal((await site.signup({ ...base, '_mc4wp_honeypot[]': 'x' })).json.code, 'spam.honeypot');
    assert.equal((await site.signup({ ...base, _mc4wp_honeypot: '  <b></b> ' })).json.code, 'invalid_email');
  });

  it('checks spam in the order user agent, timestamp, honeypot', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const allBad = { _mc4wp_form_id: String(id), _mc4wp_timestamp: 'x', _mc4wp_honeypot: 'filled', EMAIL: 'bad' };
    assert.equal((await site.signup(allBad, { headers: { 'user-agent': 'bot' } })).json.code, 'spam.user_agent');
    assert.equal((await site.signup(allBad)).json.code, 'spam.timestamp');
    assert.equal((await site.signup({ ...allBad, _mc4wp_timestamp: String(NOW_SECONDS - 60) })).json.code, 'spam.honeypot');
  });

  it('reports invalid_email for a missing, malformed or over-long address', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const cases = [undefined, '', 'plain', 'a@b', 'a@@example.com', 'a b@example.com', 'a@-example.com', 'a@example.123',
      `${'x'.repeat(65)}@example.com`, `a@${'d'.repeat(250)}.com`, 'ünï@example.com'];
    for (const email of cases) {
      const fields: Record<string, string | string[]> = { ...site.hidden(id) };
      if (email !== undefined) fields.EMAIL = email;
      const response = await site.signup(fields);
      assert.deepEqual(response.json, { code: 'invalid_email', message: 'Please provide a valid email address.', data: { status: 400 } }, String(email));
    }
    assert.equal((await site.signup({ ...site.hidden(id), 'EMAIL[]': 'a@example.com' })).json.code, 'invalid_email');
    for (const email of ['first.last+tag@sub.example.co.uk', '"quoted name"@example.com', 'x@[192.0.2.1]', 'o\'brien@example.ie']) {
      const response = await site.signup({ ...site.hidden(id), EMAIL: email });
      assert.equal(response.status, 200, email);
    }
  });

  it('reports required_field_missing only for a required field posted empty; an absent one passes', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: ['list01'], required_fields: 'EMAIL, fname,ADDRESS[addr1],ADDRESS.city,INTERESTS' } });
    const base = { ...site.hidden(id), EMAIL: 'a@example.com' };
    const missing = { code: 'required_field_missing', message: 'Please fill in the required fields.', data: { status: 400 } };
    assert.deepEqual((await site.signup({ ...base, FNAME: '' })).json, missing);
    assert.deepEqual((await site.signup({ ...base, FNAME: '  <i></i> ' })).json, missing);
    assert.deepEqual((await site.signup({ ...base, FNAME: 'Ann', 'ADDRESS[city]': '' })).json, missing);
    assert.deepEqual((await site.signup({ ...base, FNAME: 'Ann', 'INTERESTS[]': ['', '0'] })).json, missing);
    assert.equal((await site.signup({ ...base, FNAME: '0' })).status, 200, '"0" is a value');
    assert.equal((await site.signup({ ...base, EMAIL: 'b@example.com' })).status, 200, 'absent fields pass');
  });

  it('reports invalid_email before required_field_missing', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: ['list01'], required_fields: 'FNAME' } });
    assert.equal((await site.signup({ ...site.hidden(id), EMAIL: 'bad', FNAME: '' })).json.code, 'invalid_email');
  });

  it('refuses unsubscribe forms with unauthorized once the form is otherwise valid', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const response = await site.signup({ ...site.hidden(id), EMAIL: 'a@example.com', _mc4wp_action: 'unsubscribe' });
    assert.deepEqual(response.json, { code: 'unauthorized', message: 'Oops. Something went wrong. Please try again later.', data: { status: 400 } });
    assert.equal((await site.signup({ ...site.hidden(id), EMAIL: 'bad', _mc4wp_action: 'unsubscribe' })).json.code, 'invalid_email');
    assert.equal((await site.signup({ ...site.hidden(id), EMAIL: 'a@example.com', '_mc4wp_action[]': 'unsubscribe' })).status, 200);
    assert.equal(await storedSubscribers(site), 1);
  });

  it('answers with the form\'s own messages', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ messages: { invalid_email: 'That <b>address</b> <script>x</script>looks wrong.', spam: 'No bots.' } });
    assert.equal((await site.signup({ ...site.hidden(id), EMAIL: 'bad' })).json.message, 'That <b>address</b> looks wrong.');
    assert.equal((await site.signup({ ...site.hidden(id), EMAIL: 'bad' }, { headers: { 'user-agent': 'bot' } })).json.message, 'No bots.');
  });

  it('is refused inside a batch, like every plugin route', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const response = await site.admin('POST', '/batch/v1', {
      json: { requests: [{ path: '/mailing/v1/form', body: { ...site.hidden(id), EMAIL: 'a@example.com' } }] },
    });
    assert.equal(response.status, 207);
    assert.equal(response.json.responses[0].body.code, 'rest_batch_not_allowed');
    assert.equal(await storedSubscribers(site), 0);
  });
});
