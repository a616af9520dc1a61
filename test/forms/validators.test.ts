import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isDate, isEmail, isNumber, isTel, isTime, isUrl, mailboxList } from '../../src/forms/validators.js';
import { createAnchorForm, formsSite, postFeedback, validAnchorFields } from './fixtures.js';

describe('value checks', () => {
  it('email, url, tel, number, date and time as the reference judges them', () => {
    assert.ok(isEmail('ann@example.org'));
    for (const bad of ['a@b', 'ann@example', 'ann@-example.org', 'an n@example.org', '@example.org']) assert.ok(!isEmail(bad), bad);
    assert.ok(isUrl('https://example.org') && isUrl('mailto:a@b.c') && isUrl('tel:+441234'));
    for (const bad of ['notaurl', 'javascript:alert(1)', 'HTTP://example.org', 'localhost:80']) assert.ok(!isUrl(bad), bad);
    assert.ok(isTel('+44 (20) 7946-0958') && isTel('0044 20 7946 0958') && isTel('123456') && isTel('555 1234 #12'));
    for (const bad of ['12', '12345', '1234567890123456', 'phone']) assert.ok(!isTel(bad), bad);
    for (const good of ['12', '-3', '1.5', '.5', '1e3', '-2.5E-2']) assert.ok(isNumber(good), good);
    for (const bad of ['abc', '1.', '1,5', '', '+1']) assert.ok(!isNumber(bad), bad);
    assert.ok(isDate('2024-02-29') && isDate('12345-01-01'));
    for (const bad of ['2026-02-30', '2023-02-29', '2026-13-01', '26-01-01', '2026-1-01']) assert.ok(!isDate(bad), bad);
    assert.ok(isTime('23:59') && isTime('00:00:59'));
    assert.ok(!isTime('24:00') && !isTime('9:00'));
    assert.deepEqual(mailboxList('"Doe, Ann" <ann@example.org>, bob@example.org'), ['ann@example.org', 'bob@example.org']);
    assert.equal(mailboxList('ann@example.org, nope'), null);
  });

  it('reads a bracketed address as `<(.+)>$` would, in one pass however many `<` a name holds', () => {
    const cases: Array<[string, string[] | null]> = [
      ['Ann <ann@example.org>', ['ann@example.org']], ['<ann@example.org>', ['ann@example.org']], ['x <<ann@example.org>>', null],
      ['<>', null], ['Ann <>', null], ['Ann\n<ann@example.org>', ['ann@example.org']], ['A<nn\n<ann@example.org>', ['ann@example.org']],
      ['Ann <ann@example.org\n>', null], ['Ann <ann@example.org> ', ['ann@example.org']], ['A<nn\u2028<ann@example.org>', ['ann@example.org']],
    ];
    for (const [text, addresses] of cases) assert.deepEqual(mailboxList(text), addresses, JSON.stringify(text));
    const started = performance.now();
    assert.deepEqual(mailboxList(`${'<'.repeat(2 ** 20)} <ann@example.org>`), null);
    assert.deepEqual(mailboxList(`${'< '.repeat(2 ** 19)}<ann@example.org>`), null);
    assert.ok(performance.now() - started < 500, `${(performance.now() - started).toFixed(0)} ms`);
  });
});

describe('field validation with the reference messages', async () => {
  const site = await formsSite();
  const { id, quizHash } = await createAnchorForm(site, { additional_settings: 'skip_mail: on' });
  const errorsFor = async (changes: Record<string, string | string[]>, files?: Parameters<typeof postFeedback>[3]) => {
    const { json } = await postFeedback(site.cms, id, { ...validAnchorFields(quizHash), ...changes }, files);
    return Object.fromEntries((json.invalid_fields as { field: string; message: string }[]).map((field) => [field.field, field.message]));
  };

  it('accepts the valid submission', async () => {
    assert.deepEqual(await errorsFor({}), {});
  });

  const cases: [string, Record<string, string | string[]>, string, string][] = [
    ['email', { 'your-email': 'not-an-email' }, 'your-email', 'Please enter an email address.'],
    ['telephone', { phone: '12' }, 'phone', 'Please enter a telephone number.'],
    ['url', { website: 'notaurl' }, 'website', 'Please enter a URL.'],
    ['number', { seats: 'abc' }, 'seats', 'Please enter a number.'],
    ['number too large', { seats: '99' }, 'seats', 'This field has a too large number.'],
    ['number too small', { seats: '0' }, 'seats', 'This field has a too small number.'],
    ['date format', { 'preferred-date': '2026-02-30' }, 'preferred-date', 'Please enter a date in YYYY-MM-DD format.'],
    ['date too late', { 'preferred-date': '2040-01-01' }, 'preferred-date', 'This field has a too late date.'],
    ['date too early', { 'preferred-date': '2019-12-31' }, 'preferred-date', 'This field has a too early date.'],
    ['too short', { 'your-message': 'short' }, 'your-message', 'This field has a too short input.'],
    ['too long', { 'your-message': 'x'.repeat(501) }, 'your-message', 'This field has a too long input.'],
    ['unknown checkbox value', { 'interests[]': ['Nonsense'] }, 'interests', 'Undefined value was submitted through this field.'],
    ['unknown select value', { 'your-topic': 'Billing' }, 'your-topic', 'Undefined value was submitted through this field.'],
    ['the after-pipe value', { 'your-topic': 'sales@example.com' }, 'your-topic', 'Undefined value was submitted through this field.'],
    ['a wrong quiz answer', { 'anchor-quiz': '6' }, 'anchor-quiz', 'The answer to the quiz is incorrect.'],
    ['a missing quiz hash', { '_wpcf7_quiz_answer_anchor-quiz': '' }, 'anchor-quiz', 'The answer to the quiz is incorrect.'],
    ['a text over the default 400', { 'your-name': 'y'.repeat(401) }, 'your-name', 'This field has a too long input.'],
  ];
  for (const [name, changes, field, message] of cases) {
    it(`reports ${name}`, async () => {
      assert.deepEqual(await errorsFor(changes), { [field]: message });
    });
  }

  it('counts length in UTF-16 code units with CRLF as one', async () => {
    assert.deepEqual(await errorsFor({ 'your-message': `${'\u{1F600}'.repeat(250)}` }), {});
    assert.deepEqual(await errorsFor({ 'your-message': `${'\u{1F600}'.repeat(251)}` }), { 'your-message': 'This field has a too long input.' });
    assert.deepEqual(await errorsFor({ 'your-message': `${'a\r\n'.repeat(166)}ab` }), {});
  });

  it('reports the tag id as idref, unless it starts with wpcf7', async () => {
    const { json } = await postFeedback(site.cms, id, { ...validAnchorFields(quizHash), phone: '1' });
    assert.deepEqual(json.invalid_fields, [{ field: 'phone', message: 'Please enter a telephone number.', idref: 'phone-field', error_id: 'wpcf7-f1-o1-ve-phone' }]);
  });

  it('checks file types, sizes, and what the bytes really are', async () => {
    const file = (filename: string, content: Uint8Array | string) => ({ files: [{ name: 'attachment', filename, content }] });
    assert.deepEqual(await errorsFor({}, file('notes.txt', 'plain notes')), {});
    assert.deepEqual(await errorsFor({}, file('tool.exe', 'MZ\x90\x00')), { attachment: 'You are not allowed to upload files of this type.' });
    assert.deepEqual(await errorsFor({}, file('big.txt', 'a'.repeat(1024 * 1024 + 1))), { attachment: 'The uploaded file is too large.' });
    assert.deepEqual(await errorsFor({}, file('image.png', new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]))), {
      attachment: 'You are not allowed to upload files of this type.',
    });
    assert.deepEqual(await errorsFor({}, file('page.txt', '<!doctype html><script>alert(1)</script>')), {
      attachment: 'You are not allowed to upload files of this type.',
    });
  });

  it('treats acceptance as a field error with acceptance_as_validation, and honours invert and optional', async () => {
    const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
      json: {
        title: 'Terms', additional_settings: 'acceptance_as_validation: on\nskip_mail: on',
        form: '[acceptance terms] I agree [/acceptance]\n[acceptance newsletter optional] News [/acceptance]\n[acceptance no-ads invert] No ads [/acceptance]',
      },
    });
    const formId = created.json.id as number;
    const missing = await postFeedback(site.cms, formId, { _wpcf7_unit_tag: 'u' });
    assert.equal(missing.json.status, 'validation_failed');
    assert.deepEqual(missing.json.invalid_fields.map((field: { field: string; message: string }) => [field.field, field.message]), [
      ['terms', 'You must accept the terms and conditions before sending your message.'],
    ]);
    const inverted = await postFeedback(site.cms, formId, { _wpcf7_unit_tag: 'u', terms: '1', 'no-ads': '1' });
    assert.deepEqual(inverted.json.invalid_fields.map((field: { field: string }) => field.field), ['no-ads']);
    assert.equal((await postFeedback(site.cms, formId, { _wpcf7_unit_tag: 'u', terms: '1' })).json.status, 'mail_sent');
  });

  it('requires a radio choice and allows only one', async () => {
    const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
      json: { title: 'Radio', form: '[radio size "S" "M" "L"]\n[checkbox* extras exclusive "A" "B"]', additional_settings: 'skip_mail: on' },
    });
    const formId = created.json.id as number;
    const empty = await postFeedback(site.cms, formId, { _wpcf7_unit_tag: 'u' });
    assert.deepEqual(empty.json.invalid_fields.map((field: { field: string; message: string }) => [field.field, field.message]), [
      ['size', 'Please fill out this field.'], ['extras', 'Please fill out this field.'],
    ]);
    const many = await postFeedback(site.cms, formId, { _wpcf7_unit_tag: 'u', 'size[]': ['S', 'M'], 'extras[]': ['A', 'B'] });
    assert.deepEqual(many.json.invalid_fields.map((field: { message: string }) => field.message), ['Too many items are selected.', 'Too many items are selected.']);
  });
});
