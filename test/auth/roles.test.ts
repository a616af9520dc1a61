import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_ROLES,
  allCapabilitiesOf,
  capabilitiesOf,
  createPrincipal,
  createRoleTable,
} from '../../src/auth/roles.js';

// The capability lists of server.md §9.1, written out independently of the implementation.
const POST_CAPS = [
  'edit_posts', 'edit_others_posts', 'edit_published_posts', 'publish_posts', 'read', 'delete_posts',
  'delete_others_posts', 'delete_published_posts', 'delete_private_posts', 'edit_private_posts', 'read_private_posts',
];
const PAGE_CAPS = [
  'edit_pages', 'edit_others_pages', 'edit_published_pages', 'publish_pages', 'delete_pages', 'delete_others_pages',
  'delete_published_pages', 'delete_private_pages', 'edit_private_pages', 'read_private_pages',
];
const levelsUpTo = (n: number) => Array.from({ length: n + 1 }, (_, i) => `level_${i}`);

const EXPECTED: Record<string, string[]> = {
  administrator: [
    'switch_themes', 'edit_themes', 'activate_plugins', 'edit_plugins', 'edit_users', 'edit_files', 'manage_options',
    'moderate_comments', 'manage_categories', 'manage_links', 'upload_files', 'import', 'unfiltered_html',
    ...POST_CAPS, ...PAGE_CAPS,
    'delete_users', 'create_users', 'list_users', 'remove_users', 'promote_users',
    'unfiltered_upload', 'edit_dashboard', 'update_plugins', 'delete_plugins', 'install_plugins', 'update_themes',
    'install_themes', 'update_core', 'edit_theme_options', 'delete_themes', 'export',
    ...levelsUpTo(10),
  ],
  editor: [
    'moderate_comments', 'manage_categories', 'manage_links', 'upload_files', 'unfiltered_html',
    ...POST_CAPS, ...PAGE_CAPS, ...levelsUpTo(7),
  ],
  author: [
    'upload_files', 'edit_posts', 'edit_published_posts', 'publish_posts', 'read', 'delete_posts',
    'delete_published_posts', ...levelsUpTo(2),
  ],
  contributor: ['edit_posts', 'read', 'delete_posts', 'level_0', 'level_1'],
  subscriber: ['read', 'level_0'],
};

const ALL_CAPS = [...new Set(Object.values(EXPECTED).flat())].sort();

describe('default roles', () => {
  it('are exactly the five roles of a single site, in order', () => {
    assert.deepEqual([...DEFAULT_ROLES.keys()], ['administrator', 'editor', 'author', 'contributor', 'subscriber']);
    assert.deepEqual(
      [...DEFAULT_ROLES.values()].map((role) => role.name),
      ['Administrator', 'Editor', 'Author', 'Contributor', 'Subscriber'],
    );
  });

  it('the administrator holds 50 primitive capabilities plus 11 levels', () => {
    assert.equal(new Set(EXPECTED.administrator).size, 61);
    assert.equal(Object.keys(DEFAULT_ROLES.get('administrator')!.capabilities).length, 61);
  });

  for (const [role, expected] of Object.entries(EXPECTED)) {
    it(`${role}: every capability of the table is present or absent as in §9.1`, () => {
      const definition = DEFAULT_ROLES.get(role);
      assert.ok(definition);
      for (const capability of ALL_CAPS) {
        const held: boolean = definition.capabilities[capability] === true;
        assert.equal(held, expected.includes(capability), `${role} / ${capability}`);
      }
      assert.deepEqual(Object.keys(definition.capabilities).sort(), [...new Set(expected)].sort());
      assert.ok(Object.values(definition.capabilities).every((granted) => granted === true));
    });
  }

  it('matches the quick content matrix of §9.1', () => {
    const holders = (capability: string) =>
      [...DEFAULT_ROLES.values()].filter((role) => role.capabilities[capability]).map((role) => role.slug);
    const all = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];
    assert.deepEqual(holders('read'), all);
    assert.deepEqual(holders('edit_posts'), all.slice(0, 4));
    assert.deepEqual(holders('delete_posts'), all.slice(0, 4));
    for (const capability of ['publish_posts', 'edit_published_posts', 'delete_published_posts', 'upload_files']) {
      assert.deepEqual(holders(capability), all.slice(0, 3), capability);
    }
    for (const capability of [
      'edit_others_posts', 'delete_others_posts', 'read_private_posts', 'edit_private_posts', 'delete_private_posts',
      'unfiltered_html', 'moderate_comments', 'manage_categories', ...PAGE_CAPS,
    ]) {
      assert.deepEqual(holders(capability), all.slice(0, 2), capability);
    }
    for (const capability of [
      'manage_options', 'list_users', 'edit_users', 'create_users', 'delete_users', 'promote_users', 'edit_theme_options',
    ]) {
      assert.deepEqual(holders(capability), ['administrator'], capability);
    }
  });

  it('cannot be changed in place', () => {
    const subscriber = DEFAULT_ROLES.get('subscriber')!;
    assert.throws(() => {
      (subscriber.capabilities as Record<string, boolean>).edit_posts = true;
    });
    assert.equal(subscriber.capabilities.edit_posts, undefined);
  });
});

describe('createRoleTable', () => {
  it('without changes holds the defaults', () => {
    const table = createRoleTable();
    assert.deepEqual([...table.keys()], [...DEFAULT_ROLES.keys()]);
    assert.equal(table.get('editor'), DEFAULT_ROLES.get('editor'));
  });

  it('adds a role from a list, or based on another role', () => {
    const table = createRoleTable({
      shop_manager: { name: 'Shop Manager', basedOn: 'editor', capabilities: ['manage_shop'] },
      reviewer: { capabilities: ['read', 'moderate_comments'] },
    });
    const manager = table.get('shop_manager')!;
    assert.equal(manager.name, 'Shop Manager');
    assert.equal(manager.capabilities.manage_shop, true);
    assert.equal(manager.capabilities.edit_others_pages, true);
    assert.equal(manager.capabilities.manage_options, undefined);
    const reviewer = table.get('reviewer')!;
    assert.equal(reviewer.name, 'Reviewer');
    assert.deepEqual(reviewer.capabilities, { read: true, moderate_comments: true });
    // The defaults are untouched.
    assert.equal(DEFAULT_ROLES.has('reviewer'), false);
  });

  it('merges into an existing role, grants and denials alike, and removes roles', () => {
    const table = createRoleTable({
      author: { capabilities: { edit_pages: true, upload_files: false } },
      contributor: null,
    });
    const author = table.get('author')!;
    assert.equal(author.name, 'Author');
    assert.equal(author.capabilities.edit_pages, true);
    assert.equal(author.capabilities.upload_files, false);
    assert.equal(author.capabilities.publish_posts, true);
    assert.equal(table.has('contributor'), false);
    assert.equal(DEFAULT_ROLES.get('author')!.capabilities.upload_files, true);
  });

  it('refuses a role based on an unknown role', () => {
    assert.throws(() => createRoleTable({ helper: { basedOn: 'nobody' } }), /unknown role "nobody"/);
  });
});

describe('capabilitiesOf', () => {
  it('gives a role its capabilities, its own name and no levels above it', () => {
    const caps = capabilitiesOf(['contributor'], DEFAULT_ROLES);
    assert.deepEqual([...caps].sort(), ['contributor', 'delete_posts', 'edit_posts', 'level_0', 'level_1', 'read']);
  });

  it('adds the capabilities the reference implies for administrators', () => {
    const caps = capabilitiesOf(['administrator'], DEFAULT_ROLES);
    for (const implied of ['install_languages', 'resume_plugins', 'resume_themes', 'view_site_health_checks']) {
      assert.ok(caps.has(implied), implied);
    }
    const editorCaps = capabilitiesOf(['editor'], DEFAULT_ROLES);
    assert.equal(editorCaps.has('install_languages'), false);
    assert.equal(editorCaps.has('resume_plugins'), false);
  });

  it('unions several roles and ignores unknown ones', () => {
    const caps = capabilitiesOf(['subscriber', 'ghost', 'author'], DEFAULT_ROLES);
    assert.ok(caps.has('publish_posts'));
    assert.ok(caps.has('subscriber') && caps.has('author'));
    assert.equal(caps.has('ghost'), false);
  });

  it('lets a later role deny what an earlier one grants, and user grants override both', () => {
    const table = createRoleTable({ muted: { capabilities: { edit_posts: false } } });
    assert.equal(capabilitiesOf(['author', 'muted'], table).has('edit_posts'), false);
    assert.equal(capabilitiesOf(['muted', 'author'], table).has('edit_posts'), true);
    const userCaps = capabilitiesOf(['author'], table, { edit_posts: false, edit_pages: true });
    assert.equal(userCaps.has('edit_posts'), false);
    assert.equal(userCaps.has('edit_pages'), true);
  });

  it('never grants do_not_allow and gives nothing for no roles', () => {
    assert.equal(capabilitiesOf(['administrator'], DEFAULT_ROLES, { do_not_allow: true }).has('do_not_allow'), false);
    assert.equal(capabilitiesOf([], DEFAULT_ROLES).size, 0);
  });
});

describe('createPrincipal', () => {
  it('builds an identity with known roles and the merged capabilities', () => {
    const principal = createPrincipal(
      { id: 7, login: 'ana', roles: ['editor', 'retired_role'], capabilities: { manage_options: true } },
      DEFAULT_ROLES,
    );
    assert.equal(principal.id, 7);
    assert.equal(principal.login, 'ana');
    assert.deepEqual(principal.roles, ['editor']);
    assert.ok(principal.capabilities.has('edit_others_pages'));
    assert.ok(principal.capabilities.has('manage_options'));
    assert.equal(principal.capabilities.has('list_users'), false);
  });
});

describe('allCapabilitiesOf', () => {
  it('keeps the reference order (role capabilities, role names, own grants) and own denials as false', () => {
    const all = allCapabilitiesOf(['contributor', 'gone'], DEFAULT_ROLES, { delete_posts: false, upload_files: true });
    assert.deepEqual(Object.entries(all), [
      ['edit_posts', true],
      ['read', true],
      ['delete_posts', false],
      ['level_0', true],
      ['level_1', true],
      ['contributor', true],
      ['upload_files', true],
    ]);
    assert.deepEqual([...capabilitiesOf(['contributor'], DEFAULT_ROLES, { delete_posts: false })].sort(), [
      'contributor', 'edit_posts', 'level_0', 'level_1', 'read',
    ]);
  });
});
