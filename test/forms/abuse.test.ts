import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MAX_JSON_MEMBERS } from '../../src/core/json-body.js';
import { send } from '../helpers/request.js';
import { BROWSER, createAnchorForm, formsSite, multipart, postFeedback, validAnchorFields } from './fixtures.js';

/** Hostile submissions get the reference's answer, and leave nothing behind: no mail, no kept submission. */
describe('feedback under abuse', async () => {
  const site = await formsSite();
  const { cms, outbox } = site;
  const { id, quizHash } = await createAnchorForm(site);
  const nothingKept = async () => {
    assert.equal((await cms.forms.submissions(id)).total, 0);
    assert.equal(outbox.messages.length, 0);
  };
  const raw = (body: Uint8Array | string, contentType: string) => cms.handle({
    method: 'POST', path: `/forms/v1/contact-forms/${id}/feedback`, headers: { 'content-type': contentType, 'user-agent': BROWSER }, body,
  });

  it('an upload over the field limit: validation_failed', async () => {
    const { json } = await postFeedback(cms, id, validAnchorFields(quizHash), {
      files: [{ name: 'attachment', filename: 'big.pdf', type: 'application/pdf', content: `%PDF-1.4\n${'0'.repeat(1024 * 1024)}` }],
    });
    assert.equal(json.status, 'validation_failed');
    assert.deepEqual(json.invalid_fields.map((field: { message: string }) => field.message), ['The uploaded file is too large.']);
    await nothingKept();
  });

  it('a body over the site limit for anonymous callers: 413 before anything is read', async () => {
    const { body, contentType } = multipart({ _wpcf7_unit_tag: 'u' }, [{ name: 'attachment', filename: 'huge.txt', content: 'a'.repeat(8 * 1024 * 1024 + 1) }]);
    const response = await raw(body, contentType);
    assert.equal(response.status, 413);
    assert.equal((response.body as { code: string }).code, 'rest_request_too_large');
    await nothingKept();
  });

  it('wrong file types, by name and by content', async () => {
    for (const file of [
      { name: 'attachment', filename: 'run.exe', content: 'MZ\x90\x00' },
      { name: 'attachment', filename: 'run.png', content: '#!/bin/sh\nrm -rf /' },
      { name: 'attachment', filename: 'doc.pdf', content: 'not a pdf at all' },
      { name: 'attachment', filename: 'noextension', content: 'x' },
    ]) {
      const { json } = await postFeedback(cms, id, validAnchorFields(quizHash), { files: [file] });
      assert.equal(json.status, 'validation_failed', file.filename);
      assert.equal(json.invalid_fields[0].message, 'You are not allowed to upload files of this type.', file.filename);
    }
    await nothingKept();
  });

  it('a missing unit tag: 400', async () => {
    const { _wpcf7_unit_tag: _unit, ...fields } = validAnchorFields(quizHash);
    const response = await postFeedback(cms, id, fields);
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'wpcf7_unit_tag_not_found');
    await nothingKept();
  });

  it('10,000 fields: variables past 1,000 are dropped as PHP drops them, so a late unit tag is missing', async () => {
    const filler = Array.from({ length: 10_000 }, (_, index) => `f${index}=x`).join('&');
    const late = await raw(`${filler}&_wpcf7_unit_tag=u`, 'application/x-www-form-urlencoded');
    assert.equal(late.status, 400);
    assert.equal((late.body as { code: string }).code, 'wpcf7_unit_tag_not_found');
    const fields: Record<string, string> = { _wpcf7_unit_tag: 'u' };
    for (let index = 0; index < 10_000; index++) fields[`f${index}`] = 'x';
    const { body, contentType } = multipart(fields);
    const early = await raw(body, contentType);
    assert.equal(early.status, 200);
    assert.equal((early.body as { status: string }).status, 'validation_failed');
    await nothingKept();
  });

  it('10,000 JSON fields (the most a JSON object may hold): processed, and only the form\'s own fields would ever be kept', async () => {
    const fields: Record<string, unknown> = { ...validAnchorFields(quizHash), 'interests': ['News'] };
    delete fields['interests[]'];
    const own = Object.keys(fields).length;
    for (let index = 0; index < DEFAULT_MAX_JSON_MEMBERS - own; index++) fields[`junk${index}`] = 'x'.repeat(20);
    const response = await send(cms, 'POST', `/forms/v1/contact-forms/${id}/feedback`, { json: fields, headers: { 'user-agent': BROWSER } });
    assert.equal(response.json.status, 'mail_sent');
    const kept = await cms.forms.submissions(id);
    assert.equal(kept.total, 1);
    assert.ok(Object.keys(kept.items[0]!.fields).length < 20);
    assert.equal(kept.items[0]!.fields.junk1, undefined);
    await cms.forms.deleteSubmission(kept.items[0]!.id);
    outbox.clear();
  });

  it('broken multipart: a unit tag cut off in its headers, or bytes that are no multipart at all, are missing (400)', async () => {
    const boundary = 'brokenBoundary';
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="your-name"\r\n\r\nAnn\r\n--${boundary}\r\nContent-Disposition: form-data; name="_wpcf7_un`;
    const cut = await raw(truncated, `multipart/form-data; boundary=${boundary}`);
    assert.equal(cut.status, 400);
    assert.equal((cut.body as { code: string }).code, 'wpcf7_unit_tag_not_found');
    const garbage = await raw(new Uint8Array([0xff, 0x00, 0x2d, 0x2d, 0x0d, 0x0a, 0x80]), `multipart/form-data; boundary=${boundary}`);
    assert.equal(garbage.status, 400);
    assert.equal((garbage.body as { code: string }).code, 'wpcf7_unit_tag_not_found');
    await nothingKept();
  });

  it('prototype keys in field names change nothing', async () => {
    const response = await raw('_wpcf7_unit_tag=u&__proto__[polluted]=1&constructor[prototype][polluted]=1', 'application/x-www-form-urlencoded');
    assert.equal(response.status, 200);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const json = await send(cms, 'POST', `/forms/v1/contact-forms/${id}/feedback`, {
      json: '{"_wpcf7_unit_tag":"u","__proto__":{"polluted":1}}', headers: { 'user-agent': BROWSER },
    });
    assert.equal(json.json.status, 'validation_failed');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    await nothingKept();
  });

  it('an id in the query or body that the path would not match: 400 rest_invalid_param on every form route', async () => {
    for (const route of ['', '/feedback', '/feedback/schema', '/refill', '/submissions']) {
      for (const method of route === '/feedback' ? ['POST'] : ['GET']) {
        for (const query of ['id[a]=1', 'id[]=1', 'id=abc']) {
          const response = await site.request('administrator', method, `/forms/v1/contact-forms/${id}${route}?${query}`);
          assert.equal(response.status, 400, `${method} ${route}?${query}`);
          assert.equal(response.json.code, 'rest_invalid_param');
        }
      }
    }
    // A valid one takes the path's place, as in the reference.
    const other = await site.request('administrator', 'GET', `/forms/v1/contact-forms/${id}/feedback/schema?id=99999`);
    assert.equal(other.status, 404);
    assert.equal(other.json.code, 'wpcf7_not_found');
    await nothingKept();
  });

  it('a hostile template cannot stall the scanner', async () => {
    const form = `${'[text '.repeat(30_000)}${'[text a "'.repeat(5_000)}<label>${'<label '.repeat(10_000)}`;
    const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', { json: { title: 'Hostile', form } });
    assert.equal(created.status, 200);
    assert.deepEqual(created.json.properties.form.fields, []);
  });
});
