import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPrincipal, createRoleTable } from '../../../src/auth/index.js';
import { answerKey, identityOf } from '../../../src/core/cache/policy.js';
import type { Principal } from '../../../src/core/context.js';
import { SealedSet } from '../../../src/core/sealed-set.js';

const cacheKey = (keyParts: Parameters<typeof answerKey>[1]) => answerKey('caller', keyParts);
const parts = { apiUrl: 'http://site.test/cms-json', gmtOffset: 0, path: '/cms/v2/posts', query: 'per_page=2', user: null };

describe('the cache key', () => {
  it('differs with every part', () => {
    const base = cacheKey(parts);
    for (const changed of [
      { apiUrl: 'http://other.test/cms-json' }, { gmtOffset: 1 }, { path: '/cms/v2/pages' }, { query: 'per_page=3' },
      { query: { per_page: '2' } }, { user: { id: 1, login: 'a', roles: [], capabilities: new Set<string>() } },
    ]) assert.notEqual(cacheKey({ ...parts, ...changed }), base, JSON.stringify(changed));
    assert.equal(cacheKey({ ...parts }), base);
  });

  it('cannot be spelt by moving text from one part into another', () => {
    assert.notEqual(cacheKey({ ...parts, path: '/a', query: '1:b' }), cacheKey({ ...parts, path: '/a1:b', query: '' }));
    assert.notEqual(cacheKey({ ...parts, apiUrl: 'x', path: 'y' }), cacheKey({ ...parts, apiUrl: 'xy', path: '' }));
  });
});

describe('what the key varies by, as the route declares', () => {
  const table = createRoleTable();
  const editor = createPrincipal({ id: 3, login: 'ed', roles: ['editor'] }, table);
  const otherEditor = createPrincipal({ id: 4, login: 'eve', roles: ['editor'] }, table);
  const author = createPrincipal({ id: 3, login: 'ed', roles: ['author'] }, table);

  it('caller: every caller apart', () => {
    assert.notEqual(answerKey('caller', { ...parts, user: editor }), answerKey('caller', { ...parts, user: otherEditor }));
    assert.notEqual(answerKey('caller', { ...parts, user: editor }), answerKey('caller', parts));
  });

  it('capabilities: callers of the same roles and capabilities share a key, anonymous callers stay apart', () => {
    assert.equal(answerKey('capabilities', { ...parts, user: editor }), answerKey('capabilities', { ...parts, user: otherEditor }));
    assert.notEqual(answerKey('capabilities', { ...parts, user: editor }), answerKey('capabilities', { ...parts, user: author }));
    assert.notEqual(answerKey('capabilities', { ...parts, user: editor }), answerKey('capabilities', parts));
    const bare: Principal = { id: 7, login: 'none', roles: [], capabilities: new Set() };
    assert.notEqual(answerKey('capabilities', { ...parts, user: bare }), answerKey('capabilities', parts), 'signed in with nothing is not anonymous');
  });

  it('nothing: one key for everyone, apart from the keys of routes that vary', () => {
    assert.equal(answerKey('nothing', { ...parts, user: editor }), answerKey('nothing', parts));
    assert.notEqual(answerKey('nothing', parts), answerKey('caller', parts));
    assert.notEqual(answerKey('capabilities', parts), answerKey('caller', parts));
  });
});

describe('the caller in the key', () => {
  const table = createRoleTable();

  it('is empty for anonymous callers and every field of a principal otherwise', () => {
    assert.equal(identityOf(null), '');
    const editor = createPrincipal({ id: 3, login: 'ed', roles: ['editor'] }, table);
    const variants: Principal[] = [
      createPrincipal({ id: 4, login: 'ed', roles: ['editor'] }, table),
      createPrincipal({ id: 3, login: 'eddie', roles: ['editor'] }, table),
      createPrincipal({ id: 3, login: 'ed', roles: ['author'] }, table),
      createPrincipal({ id: 3, login: 'ed', roles: ['editor'], capabilities: { edit_theme_options: true } }, table),
      { ...editor, applicationPassword: 'uuid-1' } as Principal,
    ];
    for (const variant of variants) assert.notEqual(identityOf(variant), identityOf(editor));
    assert.equal(identityOf(createPrincipal({ id: 3, login: 'ed', roles: ['editor'] }, table)), identityOf(editor));
  });

  it('shares and seals the capability sets of principals of the same roles', () => {
    const one = createPrincipal({ id: 1, login: 'a', roles: ['author'] }, table);
    const two = createPrincipal({ id: 2, login: 'b', roles: ['author'] }, table);
    assert.equal(one.capabilities, two.capabilities);
    assert.ok(one.capabilities instanceof Set);
    assert.throws(() => (one.capabilities as Set<string>).add('manage_options'), TypeError);
    assert.throws(() => (one.capabilities as Set<string>).delete('read'), TypeError);
    assert.throws(() => (one.capabilities as Set<string>).clear(), TypeError);
    assert.ok(one.capabilities.has('read'));
    assert.ok(!one.capabilities.has('manage_options'));
  });

  it('reads a host\'s own (unsealed) capability set afresh every time', () => {
    const capabilities = new Set(['read']);
    const host: Principal = { id: 9, login: 'host', roles: [], capabilities };
    const before = identityOf(host);
    capabilities.add('manage_options');
    assert.notEqual(identityOf(host), before);
    assert.notEqual(identityOf({ ...host, capabilities: new Set(['sealed set 1']) }), identityOf({ ...host, capabilities: new SealedSet(['read']) }));
  });

  it('is read afresh for a frozen principal whose fields can still change', () => {
    const roles = ['editor'];
    const unfrozenList = Object.freeze({ id: 5, login: 'list', roles, capabilities: new SealedSet(['read']) }) as Principal;
    const before = identityOf(unfrozenList);
    roles.push('administrator');
    assert.notEqual(identityOf(unfrozenList), before);
    let login = 'first';
    const withGetter = Object.freeze({ id: 6, get login() { return login; }, roles: Object.freeze(['author']), capabilities: new SealedSet(['read']) }) as Principal;
    const first = identityOf(withGetter);
    login = 'second';
    assert.notEqual(identityOf(withGetter), first);
    const nested = { level: 'one' };
    const withObject = Object.freeze({ id: 7, login: 'n', roles: Object.freeze([]), capabilities: new SealedSet([]), extra: nested }) as unknown as Principal;
    const plain = identityOf(withObject);
    nested.level = 'two';
    assert.notEqual(identityOf(withObject), plain);
  });

  it('is null (nothing kept) for a principal that cannot be written out', () => {
    assert.equal(identityOf({ id: 1, login: 'x', roles: [], capabilities: new Set(), extra: 1n } as unknown as Principal), null);
    assert.equal(cacheKey({ ...parts, user: { id: 1, login: 'x', roles: [], capabilities: new Set(), extra: 1n } as unknown as Principal }), null);
  });
});
