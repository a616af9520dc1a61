import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MESSAGE_KEYS } from '../../src/forms/defaults.js';
import { MAX_ADDITIONAL_SETTINGS_LENGTH, MAX_FORM_TITLE_LENGTH, MAX_MAIL_FIELD_LENGTH, MAX_MESSAGE_LENGTH } from '../../src/forms/properties.js';
import { longestTurnCpu } from '../helpers/event-loop.js';
import { formsSite, postFeedback } from './fixtures.js';

const tooLong = (param: string, path: string, max: number) => {
  const message = `${path} must be at most ${max.toLocaleString('en-US')} characters long.`;
  return {
    code: 'rest_invalid_param', message: `Invalid parameter(s): ${param}`,
    data: { status: 400, params: { [param]: message }, details: { [param]: { code: 'rest_too_long', message, data: null } } },
  };
};

const MAIL = { subject: 'Hello [your-name]', sender: 'Site <forms@example.test>', recipient: 'owner@example.test', body: '[your-message]' };
const TEMPLATE = '[text* your-name] [email* your-email] [textarea your-message]';

test('a form\'s messages, additional settings and mail fields over their bounds are refused, and change nothing', async () => {
  const { request } = await formsSite({ maxParsedBodyBytes: 64 * 2 ** 20 });
  const created = await request('administrator', 'POST', '/forms/v1/contact-forms', { json: { title: 'Bounded', form: TEMPLATE, mail: MAIL } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const path = `/forms/v1/contact-forms/${created.json.id}`;
  const before = (await request('administrator', 'GET', path)).json;
  const over = (max: number) => `<b>x</b> ${'\ud83d\ude00'.repeat(max - 8)}`;
  const writes: Array<[Record<string, unknown>, ReturnType<typeof tooLong>]> = [
    [{ title: over(MAX_FORM_TITLE_LENGTH) }, tooLong('title', 'title', MAX_FORM_TITLE_LENGTH)],
    [{ messages: { mail_sent_ok: 'Thanks', invalid_required: over(MAX_MESSAGE_LENGTH) } }, tooLong('messages', 'messages[invalid_required]', MAX_MESSAGE_LENGTH)],
    [{ additional_settings: over(MAX_ADDITIONAL_SETTINGS_LENGTH) }, tooLong('additional_settings', 'additional_settings', MAX_ADDITIONAL_SETTINGS_LENGTH)],
  ];
  for (const field of ['subject', 'sender', 'recipient', 'additional_headers', 'attachments']) {
    writes.push([{ mail: { ...MAIL, [field]: over(MAX_MAIL_FIELD_LENGTH) } }, tooLong('mail', `mail[${field}]`, MAX_MAIL_FIELD_LENGTH)]);
    writes.push([{ mail_2: { ...MAIL, active: true, [field]: over(MAX_MAIL_FIELD_LENGTH) } }, tooLong('mail_2', `mail_2[${field}]`, MAX_MAIL_FIELD_LENGTH)]);
  }
  for (const [write, refusal] of writes) {
    // Sent with a template to filter: a refused write filters nothing.
    const refused = await request('editor', 'POST', path, { json: { ...write, form: `${TEMPLATE} <p>again</p>` } });
    assert.deepEqual(refused.json, refusal, JSON.stringify(write).slice(0, 80));
  }
  const createdRefused = await request('administrator', 'POST', '/forms/v1/contact-forms', { json: { title: 'Refused', form: TEMPLATE, additional_settings: over(MAX_ADDITIONAL_SETTINGS_LENGTH) } });
  assert.deepEqual(createdRefused.json, tooLong('additional_settings', 'additional_settings', MAX_ADDITIONAL_SETTINGS_LENGTH));
  assert.deepEqual((await request('administrator', 'GET', path)).json, before, 'the refused updates changed nothing');
  assert.equal((await request('administrator', 'GET', '/forms/v1/contact-forms')).json.length, 1, 'the refused create stored nothing');

  // At their bounds they are kept as the reference keeps them (trimmed).
  const longest = (max: number) => ` ${'\ud83d\ude00'.repeat(max - 2)} `;
  const kept = await request('administrator', 'POST', path, {
    json: {
      messages: Object.fromEntries(MESSAGE_KEYS.map((key) => [key, longest(MAX_MESSAGE_LENGTH)])),
      additional_settings: longest(MAX_ADDITIONAL_SETTINGS_LENGTH), title: `<b>T</b>${longest(MAX_FORM_TITLE_LENGTH - 8)}`,
      mail: { ...MAIL, subject: longest(MAX_MAIL_FIELD_LENGTH) },
    },
  });
  assert.equal(kept.status, 200, JSON.stringify(kept.json).slice(0, 300));
  const properties = kept.json.properties;
  assert.equal(properties.messages.invalid_required, '\ud83d\ude00'.repeat(MAX_MESSAGE_LENGTH - 2));
  assert.equal(properties.additional_settings.content, '\ud83d\ude00'.repeat(MAX_ADDITIONAL_SETTINGS_LENGTH - 2));
  assert.equal(properties.mail.subject, '\ud83d\ude00'.repeat(MAX_MAIL_FIELD_LENGTH - 2));
  assert.equal(kept.json.title, `T ${'\ud83d\ude00'.repeat(MAX_FORM_TITLE_LENGTH - 10)}`);
});

test('the in-process API bounds the same texts', async () => {
  const { cms } = await formsSite();
  await assert.rejects(cms.forms.create({ title: 'Long', form: TEMPLATE, messages: { spam: 'x'.repeat(MAX_MESSAGE_LENGTH + 1) } }), (error: { code: string; status: number }) => {
    assert.deepEqual([error.code, error.status], ['rest_invalid_param', 400]);
    return true;
  });
});

test('messages at their bound on a form of many fields cost one filtering each, not one per field', async () => {
  const { request, cms, outbox } = await formsSite();
  const names = Array.from({ length: 1000 }, (_, index) => `field-${index}`);
  const message = '<b>Please</b> fill in [field-0]. '.repeat(MAX_MESSAGE_LENGTH / 40);
  const created = await request('administrator', 'POST', '/forms/v1/contact-forms', {
    json: {
      title: 'Many', form: names.map((name) => `[text* ${name}]`).join('\n'), mail: MAIL,
      messages: Object.fromEntries(MESSAGE_KEYS.map((key) => [key, message])),
    },
  });
  assert.equal(created.status, 200, JSON.stringify(created.json).slice(0, 300));
  const id = created.json.id as number;
  let schema: Awaited<ReturnType<typeof request>> | undefined;
  const schemaCpu = await longestTurnCpu(async () => {
    schema = await request('anonymous', 'GET', `/forms/v1/contact-forms/${id}/feedback/schema`);
  });
  assert.equal(schema!.status, 200);
  const required = schema!.json.rules.filter((rule: { rule: string }) => rule.rule === 'required');
  assert.equal(required.length, 1000);
  // Filtered as a message is shown: HTML tags stripped.
  assert.equal(required[0].error, 'Please fill in [field-0]. '.repeat(MAX_MESSAGE_LENGTH / 40).trim());
  assert.ok(required.every((rule: { error: string }) => rule.error === required[0].error));
  assert.ok(schemaCpu < 40, `longest turn ${schemaCpu.toFixed(1)} ms of CPU`);
  outbox.clear();
  const { json } = await postFeedback(cms, id, { _wpcf7_unit_tag: `wpcf7-f${id}-o1` });
  assert.equal(json.status, 'validation_failed');
  assert.equal(json.invalid_fields.length, 1000);
  assert.ok(json.invalid_fields.every((field: { message: string }) => field.message === json.invalid_fields[0].message));
});
