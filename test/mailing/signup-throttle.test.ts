import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeMailingSite } from './helpers.js';

describe('sign-ups per client address', () => {
  it('answers 429 with Retry-After past the limit, storing nothing; other addresses go on', async () => {
    const site = await makeMailingSite({ throttle: { signups: { limit: 2, windowMs: 3_600_000 } } });
    const id = await site.createForm();
    const signup = (email: string, remoteAddress: string) => site.signup({ ...site.hidden(id), EMAIL: email }, { remoteAddress });
    assert.equal((await signup('one@example.test', '203.0.113.9')).status, 200);
    assert.equal((await signup('two@example.test', '203.0.113.9')).status, 200);
    const refused = await signup('three@example.test', '203.0.113.9');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['Retry-After'], '3600');
    assert.deepEqual(refused.json, { code: 'rest_too_many_requests', message: 'Too many sign-ups from this address. Please try again later.', data: { status: 429 } });
    assert.equal((await signup('four@example.test', '198.51.100.4')).status, 200);
    const emails = (await site.subscribers('list01')).map((subscriber: { email: string }) => subscriber.email).sort();
    assert.deepEqual(emails, ['four@example.test', 'one@example.test', 'two@example.test']);
  });
});
