import assert from 'node:assert/strict';
import { it } from 'node:test';
import { pageOffset } from '../../src/core/paging.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';

it('pageOffset gives every page an offset the stores accept', async () => {
  assert.equal(pageOffset(1, 10), 0);
  assert.equal(pageOffset(3, 10), 20);
  const store = createMemoryStorage();
  await store.insert('posts', { title: 'only' });
  for (const [page, perPage] of [[2 ** 53, 62], [Infinity, 10], [Infinity, 0], [Number.MAX_VALUE, 100]]) {
    const offset = pageOffset(page!, perPage!);
    assert.equal(offset, Number.MAX_SAFE_INTEGER, `page ${page}, ${perPage} per page`);
    assert.deepEqual(await store.list('posts', { offset, limit: 10, withTotal: true }), { items: [], total: 1 });
  }
});
