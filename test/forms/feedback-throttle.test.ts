import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAnchorForm, formsSite, postFeedback, validAnchorFields } from './fixtures.js';

describe('feedback per client address', () => {
  it('answers 429 with Retry-After past the limit, before any mail; other addresses go on', async () => {
    const site = await formsSite({ throttle: { feedback: { limit: 2, windowMs: 60_000 } } });
    const { id, quizHash } = await createAnchorForm(site);
    const fields = validAnchorFields(quizHash);
    for (let index = 0; index < 2; index += 1) {
      assert.equal((await postFeedback(site.cms, id, fields, { remoteAddress: '203.0.113.9' })).json.status, 'mail_sent');
    }
    const mailed = site.outbox.messages.length;
    const refused = await postFeedback(site.cms, id, fields, { remoteAddress: '203.0.113.9' });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['Retry-After'], '60');
    assert.equal(refused.json.code, 'rest_too_many_requests');
    assert.deepEqual(refused.json.data, { status: 429 });
    assert.equal(site.outbox.messages.length, mailed, 'no mail for a refused submission');
    assert.equal((await postFeedback(site.cms, id, fields, { remoteAddress: '198.51.100.4' })).json.status, 'mail_sent');
  });
});
