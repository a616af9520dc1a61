import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPrincipal, createRoleTable } from '../../../src/auth/index.js';
import { keptKey, type KeptKeyParts } from '../../../src/core/cache/kept-key.js';
import { answerKey } from '../../../src/core/cache/policy.js';
import type { Principal } from '../../../src/core/context.js';

const parts: KeptKeyParts = { varies: 'caller', apiUrl: 'http://site.test/cms-json', gmtOffset: 0, path: '/cms/v2/posts', query: 'per_page=2', user: null };
const expected = (keyParts: KeptKeyParts) => answerKey(keyParts.varies, keyParts);

describe('the remembered keys of kept answers', () => {
  const table = createRoleTable();
  const editor = createPrincipal({ id: 3, login: 'ed', roles: ['editor'] }, table);
  const otherEditor = createPrincipal({ id: 4, login: 'eve', roles: ['editor'] }, table);

  it('are the key of each request, whichever part changes and when asked again', () => {
    const variants: Partial<KeptKeyParts>[] = [
      {}, { apiUrl: 'http://other.test/cms-json' }, { gmtOffset: 5.5 }, { path: '/cms/v2/pages' }, { query: 'per_page=3' },
      { query: '' }, { query: { per_page: '2' } }, { user: editor }, { user: otherEditor }, { varies: 'capabilities', user: editor },
      { varies: 'capabilities', user: otherEditor }, { varies: 'nothing', user: editor }, { path: '/a', query: '1:b' }, { path: '/a1:b', query: '' },
    ];
    for (let round = 0; round < 3; round++) {
      for (const changed of variants) {
        const keyParts = { ...parts, ...changed };
        assert.equal(keptKey(keyParts), expected(keyParts), `${JSON.stringify(changed)}, round ${round}`);
      }
    }
    assert.notEqual(keptKey({ ...parts, user: editor }), keptKey({ ...parts, user: otherEditor }));
  });

  it('follow a principal a host changes in place', () => {
    const host = { id: 9, login: 'host', roles: ['author'], capabilities: new Set(['read']) } as Principal;
    const before = keptKey({ ...parts, user: host });
    (host.roles as string[]).push('editor');
    (host.capabilities as Set<string>).add('edit_others_posts');
    const after = keptKey({ ...parts, user: host });
    assert.notEqual(after, before);
    assert.equal(after, expected({ ...parts, user: host }));
    const capabilities = keptKey({ ...parts, varies: 'capabilities', user: host });
    (host.capabilities as Set<string>).delete('edit_others_posts');
    assert.notEqual(keptKey({ ...parts, varies: 'capabilities', user: host }), capabilities);
  });

  it('are null where the caller cannot be told apart, remembered or not', () => {
    const cyclic = { id: 1, login: 'c', roles: [], capabilities: new Set<string>() } as Principal & { self?: unknown };
    cyclic.self = cyclic;
    assert.equal(keptKey({ ...parts, user: cyclic }), null);
    assert.equal(keptKey({ ...parts, user: cyclic }), null);
  });

  it('stay right past the bound on what is remembered', () => {
    for (let index = 0; index < 2_500; index += 1) {
      const keyParts = { ...parts, query: `page=${index}` };
      assert.equal(keptKey(keyParts), expected(keyParts));
    }
    assert.equal(keptKey({ ...parts, query: 'page=7' }), expected({ ...parts, query: 'page=7' }));
  });
});
