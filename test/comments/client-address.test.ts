import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeCommentSite } from './helpers.js';

const visitor = (index: number) => ({ author_name: `Visitor ${index}`, author_email: `v${index}@example.test` });

describe('comments and the client address', () => {
  it('store each visitor\'s own address, so the flood check keeps visitors apart', async () => {
    const site = await makeCommentSite('memory', { comments: { floodSeconds: 15, allowAnonymous: true } });
    const post = await site.create({ title: 'Hello', status: 'publish', comment_status: 'open' });
    const answers = [];
    for (let index = 0; index < 20; index += 1) {
      answers.push(await site.anonymous('POST', '/cms/v2/comments', {
        json: { post: post.id, content: `Comment ${index}`, ...visitor(index) }, remoteAddress: `203.0.113.${index + 1}`,
      }));
    }
    assert.deepEqual(answers.map((answer) => answer.status), answers.map(() => 201), JSON.stringify(answers.find((answer) => answer.status !== 201)?.json));
    const stored = await Promise.all(answers.map(async (answer) => (await site.admin('GET', `/cms/v2/comments/${answer.json.id}?context=edit`)).json.author_ip));
    assert.deepEqual(stored, answers.map((_, index) => `203.0.113.${index + 1}`));
    const again = await site.anonymous('POST', '/cms/v2/comments', {
      json: { post: post.id, content: 'Again so soon', author_name: 'Someone else', author_email: 'else@example.test' }, remoteAddress: '203.0.113.1',
    });
    assert.equal(again.status, 400, 'one address posting twice is still a flood');
    assert.equal(again.json.code, 'comment_flood');
  });

  it('store 127.0.0.1 when the adapter told no address, as the reference does', async () => {
    const site = await makeCommentSite('memory', { comments: { allowAnonymous: true } });
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const made = await site.anonymous('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Hi', ...visitor(1) } });
    assert.equal(made.status, 201);
    const read = await site.admin('GET', `/cms/v2/comments/${made.json.id}?context=edit`);
    assert.equal(read.json.author_ip, '127.0.0.1');
  });

  it('limit comments per client address with 429 and Retry-After; other addresses and moderators go on', async () => {
    const site = await makeCommentSite('memory', { comments: { allowAnonymous: true }, throttle: { comments: { limit: 3, windowMs: 600_000 } } });
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const from = (address: string, index: number) =>
      site.anonymous('POST', '/cms/v2/comments', { json: { post: post.id, content: `Words ${index}`, ...visitor(index) }, remoteAddress: address });
    for (let index = 0; index < 3; index += 1) assert.equal((await from('203.0.113.9', index)).status, 201);
    const refused = await from('203.0.113.9', 3);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['Retry-After'], '600');
    assert.deepEqual(refused.json, { code: 'rest_too_many_requests', message: 'You are posting comments too quickly. Slow down.', data: { status: 429 } });
    assert.equal((await from('198.51.100.4', 4)).status, 201);
    const moderator = await site.admin('POST', '/cms/v2/comments', { json: { post: post.id, content: 'Mine' }, remoteAddress: '203.0.113.9' });
    assert.equal(moderator.status, 201);
    site.clock.advance(600_000);
    assert.equal((await from('203.0.113.9', 5)).status, 201);
  });
});
