import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { siteWithMembers } from './setup.js';

describe('users as post authors', () => {
  it('are embedded in posts for anonymous readers once they have published', async () => {
    const site = await siteWithMembers();
    const created = await site.request('author', 'POST', '/cms/v2/posts', { json: { title: 'Hello', status: 'publish' } });
    assert.equal(created.status, 201);
    assert.equal(created.json.author, site.members.author.id);
    const list = await site.request('anonymous', 'GET', '/cms/v2/posts?_embed=author');
    const [author] = list.json[0]._embedded.author;
    assert.equal(author.id, site.members.author.id);
    assert.equal(author.name, 'The author');
    assert.ok(!('email' in author) && !('meta' in author), 'the embed context');
    const users = await site.request('anonymous', 'GET', '/cms/v2/users');
    assert.deepEqual(users.json.map((user: { id: number }) => user.id), [site.members.author.id]);
  });
});
