import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyAsJson } from '../../src/storage/json.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';

/** Counts the `JSON.parse` calls over `minChars` characters or more while `work` runs. */
async function longParses(minChars: number, work: () => Promise<unknown>): Promise<number> {
  const parse = JSON.parse;
  let count = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (typeof text === 'string' && text.length >= minChars) count += 1;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    await work();
  } finally {
    JSON.parse = parse;
  }
  return count;
}

describe('copyAsJson', () => {
  it('gives what a JSON round trip gives', () => {
    const proto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const values: unknown[] = [
      null, true, 0, -0, 1.5e-300, 'text \ud800 lone', [1, -0, [null, 'x'], { b: undefined, c: [] }],
      { nested: { deeper: { list: [{ a: 1, b: undefined }] } }, empty: {}, zero: -0, 10: 'ten', 2: 'two' },
      proto, { inner: proto },
    ];
    for (const value of values) {
      const copy = copyAsJson(value);
      assert.deepStrictEqual(copy, JSON.parse(JSON.stringify(value)));
      assert.equal(JSON.stringify(copy), JSON.stringify(value));
      if (typeof copy === 'number') assert.ok(!Object.is(copy, -0));
    }
    const copied = copyAsJson(proto) as Record<string, unknown>;
    assert.ok(Object.hasOwn(copied, '__proto__'), 'a `__proto__` member stays an ordinary member');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(copied), Object.prototype);
  });

  it('copies objects and arrays, so changing the copy changes nothing else', () => {
    const value = { list: [{ a: 1 }], meta: { key: ['v'] } };
    const copy = copyAsJson(value) as typeof value;
    copy.list[0]!.a = 2;
    copy.meta.key.push('w');
    assert.deepStrictEqual(value, { list: [{ a: 1 }], meta: { key: ['v'] } });
  });
});

describe('SQLite: writes of a record holding long texts', () => {
  const long = (unit: string) => unit.repeat(1024 * 1024 / unit.length);

  it('parse the stored JSON once per update and never to answer an insert', async () => {
    const storage = sqliteStorage({ path: ':memory:' });
    try {
      const content = long('"Quoted", ');
      let id = 0;
      const onInsert = await longParses(1024 * 1024, async () => {
        ({ id } = await storage.insert('posts', { type: 'post', content, meta: { tags: ['a'] } }));
      });
      assert.equal(onInsert, 0);
      const excerpt = long("It's ");
      let updated: Record<string, unknown> | null = null;
      const onUpdate = await longParses(1024 * 1024, async () => {
        updated = await storage.update('posts', id, { excerpt, meta: { tags: ['b'], deep: { n: -0 } } });
      });
      // The stored record, read to apply the patch; it then stands for what was there before the write.
      assert.equal(onUpdate, 1);
      assert.deepStrictEqual(updated, { id, type: 'post', content, meta: { tags: ['b'], deep: { n: 0 } }, excerpt });
      assert.deepStrictEqual(await storage.get('posts', id), updated);
    } finally {
      await storage.close();
    }
  });

  it('answer records no caller can change the stored one through', async () => {
    const storage = sqliteStorage({ path: ':memory:' });
    try {
      const meta = { tags: ['a'], nested: { value: 1 } };
      const inserted = await storage.insert('posts', { title: 'T', meta });
      meta.tags.push('changed by the caller');
      (inserted.meta as typeof meta).nested.value = 2;
      const patch = { meta: { tags: ['b'], nested: { value: 3 } } };
      const updated = await storage.update('posts', inserted.id, patch);
      patch.meta.tags.push('changed by the caller');
      (updated!.meta as typeof meta).nested.value = 4;
      assert.deepStrictEqual(await storage.get('posts', inserted.id), { id: inserted.id, title: 'T', meta: { tags: ['b'], nested: { value: 3 } } });
    } finally {
      await storage.close();
    }
  });
});
