import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_MAX_JSON_MEMBERS } from '../../src/core/json-body.js';
import { BROWSER, makeMailingSite, type MailingSite } from './helpers.js';

async function nothingStored(site: MailingSite) {
  assert.equal((await site.cms.deps.storage.list('mailing_subscribers', { withTotal: true })).total, 0, 'no subscriber stored');
  assert.equal(site.outbox.messages.length, 0, 'no mail sent');
}

function rawSignup(site: MailingSite, body: string) {
  return site.anonymous('POST', '/mailing/v1/form', { form: body, headers: { 'user-agent': BROWSER } });
}

describe('mailing/v1/form under hostile input', () => {
  it('refuses 10,000 fields with 400 too_many_fields, quickly, storing nothing', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const hidden = new URLSearchParams({ ...site.hidden(id), EMAIL: 'a@example.com' }).toString();
    const extra = Array.from({ length: 10_000 }, (_, index) => `F${index}=v`).join('&');
    const started = performance.now();
    const response = await rawSignup(site, `${hidden}&${extra}`);
    assert.ok(performance.now() - started < 2000, 'answered promptly');
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'too_many_fields');
    assert.equal(response.json.data.status, 400);
    await nothingStored(site);
  });

  it('takes 100 fields and refuses 101; a field holds at most 100 values', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: ['list01'], double_optin: false } });
    const fields = (count: number) => {
      const params = new URLSearchParams({ ...site.hidden(id), EMAIL: `f${count}@example.com` });
      for (let index = params.size; index < count; index++) params.append(`F${index}`, 'v');
      return params.toString();
    };
    assert.equal((await rawSignup(site, fields(101))).json.code, 'too_many_fields');
    assert.equal((await rawSignup(site, fields(100))).status, 200);
    const many = `${new URLSearchParams({ ...site.hidden(id), EMAIL: 'g@example.com' })}&${'G[]=x&'.repeat(101)}`;
    assert.equal((await rawSignup(site, many)).json.code, 'too_many_fields');
    assert.equal((await site.subscribers('list01')).length, 1);
  });

  it('refuses a JSON field of 10,000 values (the most a JSON list may hold), or many fields, without reading them all', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const hidden = { ...site.hidden(id), EMAIL: 'a@example.com' };
    const list = await site.anonymous('POST', '/mailing/v1/form', { json: { ...hidden, FNAME: Array.from({ length: DEFAULT_MAX_JSON_MEMBERS }, () => 1) }, headers: { 'user-agent': BROWSER } });
    assert.equal(list.status, 400);
    assert.equal(list.json.code, 'too_many_fields');
    const map = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, 'v']));
    const wide = await site.anonymous('POST', '/mailing/v1/form', { json: { ...hidden, FNAME: map }, headers: { 'user-agent': BROWSER } });
    assert.equal(wide.json.code, 'too_many_fields');
    const fields = await site.anonymous('POST', '/mailing/v1/form', { json: { ...hidden, ...map }, headers: { 'user-agent': BROWSER } });
    assert.equal(fields.json.code, 'too_many_fields');
    await nothingStored(site);
  });

  it('refuses values over 1,024 characters (after cleaning) with 400 field_too_long, storing nothing', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const hidden = new URLSearchParams({ ...site.hidden(id), EMAIL: 'a@example.com' }).toString();
    for (const value of ['x'.repeat(2 * 1024 * 1024), '<i>'.repeat(700_000), 'y'.repeat(1025)]) {
      const body = `${hidden}&FNAME=${encodeURIComponent(value)}`;
      const started = performance.now();
      const response = await rawSignup(site, body);
      assert.ok(performance.now() - started < 1000, 'a huge value is refused before it is cleaned');
      assert.equal(response.status, 400);
      assert.equal(response.json.code, 'field_too_long');
      assert.equal(response.json.data.field, 'FNAME');
    }
    assert.equal((await site.signup({ ...site.hidden(id), EMAIL: 'a@example.com', 'ADDRESS[]': 'z'.repeat(5000) })).json.code, 'field_too_long');
    await nothingStored(site);
    assert.equal((await site.signup({ ...site.hidden(id), EMAIL: 'a@example.com', FNAME: `<b>${'y'.repeat(1024)}</b>` })).status, 200);
  });

  it('answers an over-long address with invalid_email', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const response = await site.signup({ ...site.hidden(id), EMAIL: `${'a'.repeat(400)}@example.com` });
    assert.equal(response.json.code, 'invalid_email');
    await nothingStored(site);
  });

  it('refuses values nested deeper than a list of text with 400 invalid_field', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const nested = await rawSignup(site, `${new URLSearchParams({ ...site.hidden(id), EMAIL: 'a@example.com' })}&A[b][c]=1`);
    assert.equal(nested.status, 400);
    assert.equal(nested.json.code, 'invalid_field');
    const json = await site.anonymous('POST', '/mailing/v1/form', {
      json: { ...site.hidden(id), EMAIL: 'a@example.com', A: { b: { c: { d: [1] } } } }, headers: { 'user-agent': BROWSER },
    });
    assert.equal(json.json.code, 'invalid_field');
    await nothingStored(site);
  });

  it('refuses more than 20 lists, or list ids with other characters, with 400 invalid_list', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm();
    const many = Array.from({ length: 21 }, (_, index) => `l${index}`).join(',');
    for (const lists of [many, 'ok,../../etc', `${'x'.repeat(65)}`, 'a b']) {
      const response = await site.signup({ ...site.hidden(id), EMAIL: 'a@example.com', _mc4wp_lists: lists });
      assert.deepEqual([response.status, response.json.code], [400, 'invalid_list'], lists.slice(0, 30));
    }
    await nothingStored(site);
  });

  it('never lets __proto__, constructor or prototype keys reach a prototype', async () => {
    const site = await makeMailingSite();
    const id = await site.createForm({ settings: { lists: ['list01'], double_optin: false } });
    const form = `${new URLSearchParams({ ...site.hidden(id), EMAIL: 'a@example.com' })}`
      + '&__proto__[polluted]=1&constructor[prototype][polluted]=1&A[__proto__][polluted]=1&INTERESTS[__proto__]=1&prototype=x';
    assert.equal((await rawSignup(site, form)).status, 200);
    const json = `{"_mc4wp_form_id": ${id}, "_mc4wp_timestamp": ${Math.floor(Date.parse('2026-11-21T17:10:00Z') / 1000)}, "_mc4wp_honeypot": "",`
      + ' "EMAIL": "b@example.com", "__proto__": {"polluted": 1}, "B": {"__proto__": {"polluted": 1}}, "INTERESTS": {"__proto__": "1", "ok": "1"}}';
    const response = await site.anonymous('POST', '/mailing/v1/form', { json, headers: { 'user-agent': BROWSER } });
    assert.equal(response.status, 200);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
    const subscribers = await site.subscribers('list01');
    assert.equal(subscribers.length, 2);
    const b = subscribers.find((subscriber) => subscriber.email === 'b@example.com')!;
    assert.deepEqual(b.interests, { ok: true });
    assert.equal(Object.getPrototypeOf(b.merge_fields), Object.prototype);
    assert.deepEqual(Object.keys(b.merge_fields.B ?? {}), []);
  });

  it('keeps a JSON body with scalars of other types to the same rules', async () => {
    const site = await makeMailingSite({ site: { url: 'http://example.test' } });
    const id = await site.createForm({ settings: { lists: ['list01'], double_optin: false } });
    const response = await site.anonymous('POST', '/mailing/v1/form', {
      json: { ...site.hidden(id), EMAIL: 'n@example.com', AGE: 42, OPTIN: true, NOTHING: null, OFF: false },
      headers: { 'user-agent': BROWSER },
    });
    assert.equal(response.status, 200);
    assert.deepEqual((await site.subscribers('list01'))[0]!.merge_fields, { AGE: '42', OPTIN: '1' });
  });
});
