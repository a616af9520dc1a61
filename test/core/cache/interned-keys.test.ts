/**
 * Fragment and list keys are spelt once and then found again through their parts: the key found must be the one
 * spelling would give, for every part that differs (schema, context, site prefix, caller, each identity part, the
 * fragments of a list), however many keys were made before and after the table was dropped.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonSchema } from '../../../src/core/args/schema.js';
import { listKey } from '../../../src/core/cache/fragments.js';
import { InternedKeys } from '../../../src/core/cache/interned-keys.js';
import { fragmentKey, type FragmentScope } from '../../../src/core/cache/policy.js';
import type { KeyedItem } from '../../../src/core/context.js';
import { EncodedJson } from '../../../src/core/encode.js';

const scopeOf = (prefix: string, caller: string | null) => ({ prefix, caller: () => caller }) as unknown as FragmentScope;
const record = (...identity: (string | number)[]): KeyedItem => ({ identity, prepare: () => Promise.reject(new Error('not shown')) });

/** The key as spelt part by part, for comparison. */
function spelt(schemaNumber: number, context: string, prefix: string, identity: readonly unknown[], caller: string): string {
  const parts = identity.map((part) => String(part)).map((text) => `${text.length}:${text}`).join('');
  return `${schemaNumber}:${context.length}:${context}${prefix}${parts}${caller}`;
}

describe('fragment keys', () => {
  const schema = { type: 'object' } as JsonSchema;
  const other = { type: 'object' } as JsonSchema;

  it('finds the same key for the same parts, and another for any part that differs', () => {
    const scope = scopeOf('9:http://a/0:0', 'caller one');
    const first = fragmentKey(scope, schema, 'view', record('post', 1, 'publish'))!;
    const number = Number(first.slice(0, first.indexOf(':')));
    assert.equal(first, spelt(number, 'view', '9:http://a/0:0', ['post', 1, 'publish'], ''));
    assert.equal(fragmentKey(scopeOf('9:http://a/0:0', null), schema, 'view', record('post', 1, 'publish')), first, 'the caller only counts in edit');

    const keys = new Set([
      first,
      fragmentKey(scope, schema, 'view', record('post', 2, 'publish')),
      fragmentKey(scope, schema, 'view', record('post', 1, 'draft')),
      fragmentKey(scope, schema, 'view', record('page', 1, 'publish')),
      fragmentKey(scope, schema, 'view', record('post', 1)),
      fragmentKey(scope, schema, 'view', record('post', 1, 'publish', 'more')),
      fragmentKey(scope, schema, 'embed', record('post', 1, 'publish')),
      fragmentKey(scope, schema, 'edit', record('post', 1, 'publish')),
      fragmentKey(scopeOf('9:http://a/0:0', 'caller two'), schema, 'edit', record('post', 1, 'publish')),
      fragmentKey(scope, other, 'view', record('post', 1, 'publish')),
      fragmentKey(scope, undefined, 'view', record('post', 1, 'publish')),
      fragmentKey(scopeOf('9:http://b/0:0', null), schema, 'view', record('post', 1, 'publish')),
      fragmentKey(scopeOf('9:http://a/1:2', null), schema, 'view', record('post', 1, 'publish')),
    ]);
    assert.equal(keys.size, 13);
    assert.equal(fragmentKey(scopeOf('9:http://a/0:0', 'caller two'), schema, 'edit', record('post', 1, 'publish')),
      spelt(number, 'edit', '9:http://a/0:0', ['post', 1, 'publish'], 'caller two'));
    assert.equal(fragmentKey(scopeOf('p', null), schema, 'edit', record('post', 1)), null, 'a caller that cannot be told apart');
  });

  it('keeps the schema and context of each call, when one answer asks for several', () => {
    const scope = scopeOf('p', 'me');
    const view = fragmentKey(scope, schema, 'view', record('post', 1));
    const edit = fragmentKey(scope, schema, 'edit', record('post', 1));
    const otherSchema = fragmentKey(scope, other, 'view', record('post', 1));
    assert.equal(fragmentKey(scope, schema, 'view', record('post', 1)), view);
    assert.notEqual(view, edit);
    assert.notEqual(view, otherSchema);
    assert.ok(edit!.endsWith('me'));
  });

  it('spells a part that is not a plain value every time (its text may change)', () => {
    const part = { text: 'one', toString() { return this.text; } };
    const scope = scopeOf('p', null);
    const keyed = { identity: ['post', part], prepare: () => Promise.reject(new Error('not shown')) } as unknown as KeyedItem;
    const before = fragmentKey(scope, schema, 'view', keyed);
    part.text = 'two';
    assert.notEqual(fragmentKey(scope, schema, 'view', keyed), before);
    assert.ok(fragmentKey(scope, schema, 'view', keyed)!.includes('3:two'));
  });

  it('a number and its text give the same key (as spelt), and keys past the table bound are still right', () => {
    const scope = scopeOf('p', null);
    assert.equal(fragmentKey(scope, schema, 'view', record('post', 7)), fragmentKey(scope, schema, 'view', record('post', '7')));
    const many = Array.from({ length: 40_000 }, (_, id) => fragmentKey(scope, schema, 'view', record('post', id)));
    assert.equal(new Set(many).size, 40_000);
    for (const id of [0, 1, 29_999, 39_999]) assert.equal(fragmentKey(scope, schema, 'view', record('post', id)), many[id]);
  });
});

describe('list keys', () => {
  const fragment = () => new EncodedJson(new Uint8Array([0x31]));

  it('are the serials of the parts in order, found again for the same parts', () => {
    const [a, b, c] = [fragment(), fragment(), fragment()];
    assert.equal(listKey([a, b]), `[${a.serial},${b.serial},`);
    assert.equal(listKey([a, b]), listKey([a, b]));
    const keys = new Set([listKey([]), listKey([a]), listKey([a, b]), listKey([b, a]), listKey([a, b, c]), listKey([a, c])]);
    assert.equal(keys.size, 6);
  });
});

describe('InternedKeys', () => {
  it('starts again past its bound, leaving walks under way to finish', () => {
    const keys = new InternedKeys(2);
    const root = keys.root;
    const one = keys.child(root, 1);
    one.text = 'one';
    assert.equal(keys.child(root, 1), one);
    keys.child(one, 2);
    keys.child(one, 3);
    assert.notEqual(keys.root, root, 'dropped past the bound');
    assert.equal(keys.child(keys.root, 1).text, undefined);
  });
});
