import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DO_NOT_ALLOW, mapMetaCapability, userCan } from '../../src/auth/capabilities.js';
import { createCapabilityRules } from '../../src/auth/capability-rules.js';
import { postTypeCapabilities, taxonomyCapabilities } from '../../src/auth/object-capabilities.js';
import { createPrincipal, createRoleTable, DEFAULT_ROLES } from '../../src/auth/roles.js';
import type { PostSubject, Principal } from '../../src/auth/types.js';

const ROLE_NAMES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
type RoleName = (typeof ROLE_NAMES)[number];

const users: Record<RoleName, Principal> = {
  administrator: createPrincipal({ id: 1, login: 'admin', roles: ['administrator'] }, DEFAULT_ROLES),
  editor: createPrincipal({ id: 2, login: 'editor', roles: ['editor'] }, DEFAULT_ROLES),
  author: createPrincipal({ id: 3, login: 'author', roles: ['author'] }, DEFAULT_ROLES),
  contributor: createPrincipal({ id: 4, login: 'contributor', roles: ['contributor'] }, DEFAULT_ROLES),
  subscriber: createPrincipal({ id: 5, login: 'subscriber', roles: ['subscriber'] }, DEFAULT_ROLES),
};
const SOMEONE_ELSE = 99;

const ALL: RoleName[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];
const WRITERS: RoleName[] = ['administrator', 'editor', 'author', 'contributor'];
const PUBLISHERS: RoleName[] = ['administrator', 'editor', 'author'];
const EDITORS: RoleName[] = ['administrator', 'editor'];

interface Cell {
  caps: string[];
  roles: RoleName[];
}
interface Row {
  owner: 'own' | 'others';
  status: string;
  trashedFrom?: string;
  read: Cell;
  edit: Cell;
  delete: Cell;
}

// server.md §9.3, "Resulting requirements for post", one row per state.
const POST_MATRIX: Row[] = [
  ...['draft', 'pending', 'private'].map((status): Row => ({
    owner: 'own',
    status,
    read: { caps: ['read'], roles: ALL },
    edit: { caps: ['edit_posts'], roles: WRITERS },
    delete: { caps: ['delete_posts'], roles: WRITERS },
  })),
  ...['publish', 'future'].map((status): Row => ({
    owner: 'own',
    status,
    read: { caps: ['read'], roles: ALL },
    edit: { caps: ['edit_published_posts'], roles: PUBLISHERS },
    delete: { caps: ['delete_published_posts'], roles: PUBLISHERS },
  })),
  {
    owner: 'own',
    status: 'trash',
    trashedFrom: 'draft',
    read: { caps: ['read'], roles: ALL },
    edit: { caps: ['edit_posts'], roles: WRITERS },
    delete: { caps: ['delete_posts'], roles: WRITERS },
  },
  {
    owner: 'own',
    status: 'trash',
    trashedFrom: 'publish',
    read: { caps: ['read'], roles: ALL },
    edit: { caps: ['edit_published_posts'], roles: PUBLISHERS },
    delete: { caps: ['delete_published_posts'], roles: PUBLISHERS },
  },
  ...['draft', 'pending'].map((status): Row => ({
    owner: 'others',
    status,
    read: { caps: ['edit_others_posts'], roles: EDITORS },
    edit: { caps: ['edit_others_posts'], roles: EDITORS },
    delete: { caps: ['delete_others_posts'], roles: EDITORS },
  })),
  {
    owner: 'others',
    status: 'future',
    read: { caps: ['edit_others_posts', 'edit_published_posts'], roles: EDITORS },
    edit: { caps: ['edit_others_posts', 'edit_published_posts'], roles: EDITORS },
    delete: { caps: ['delete_others_posts', 'delete_published_posts'], roles: EDITORS },
  },
  {
    owner: 'others',
    status: 'publish',
    read: { caps: ['read'], roles: ALL },
    edit: { caps: ['edit_others_posts', 'edit_published_posts'], roles: EDITORS },
    delete: { caps: ['delete_others_posts', 'delete_published_posts'], roles: EDITORS },
  },
  {
    owner: 'others',
    status: 'private',
    read: { caps: ['read_private_posts'], roles: EDITORS },
    edit: { caps: ['edit_others_posts', 'edit_private_posts'], roles: EDITORS },
    delete: { caps: ['delete_others_posts', 'delete_private_posts'], roles: EDITORS },
  },
  {
    owner: 'others',
    status: 'trash',
    trashedFrom: 'publish',
    read: { caps: ['edit_others_posts'], roles: EDITORS },
    edit: { caps: ['edit_others_posts'], roles: EDITORS },
    delete: { caps: ['delete_others_posts'], roles: EDITORS },
  },
];

/** The same requirements in page vocabulary: only `read` stays, and only administrators and editors hold the rest. */
function asPageCell(cell: Cell): Cell {
  const caps = cell.caps.map((cap) => cap.replace(/_posts$/, '_pages'));
  return { caps, roles: caps.every((cap) => cap === 'read') ? ALL : EDITORS };
}

function subjectFor(row: Row, type: string, user: Principal): PostSubject {
  return {
    type,
    status: row.status,
    authorId: row.owner === 'own' ? user.id : SOMEONE_ELSE,
    ...(row.trashedFrom === undefined ? {} : { trashedFromStatus: row.trashedFrom }),
  };
}

const sorted = (list: readonly string[]) => [...list].sort();

for (const type of ['post', 'page'] as const) {
  describe(`§9.3 matrix for ${type}s`, () => {
    for (const row of POST_MATRIX) {
      const label = `${row.owner} ${row.status}${row.trashedFrom ? ` (from ${row.trashedFrom})` : ''}`;
      it(label, () => {
        for (const action of ['read', 'edit', 'delete'] as const) {
          const cell = type === 'page' ? asPageCell(row[action]) : row[action];
          for (const metaName of [`${action}_post`, `${action}_page`]) {
            for (const role of ROLE_NAMES) {
              const user = users[role];
              const subject = subjectFor(row, type, user);
              assert.deepEqual(
                sorted(mapMetaCapability(metaName, user, subject)),
                sorted(cell.caps),
                `${metaName} ${label} as ${role}`,
              );
              assert.equal(userCan(user, metaName, subject), cell.roles.includes(role), `${metaName} ${label} as ${role}`);
            }
            assert.equal(userCan(null, metaName, { type, status: row.status, authorId: SOMEONE_ELSE }), false);
          }
        }
        for (const role of ROLE_NAMES) {
          const subject = subjectFor(row, type, users[role]);
          const publishCap = type === 'page' ? 'publish_pages' : 'publish_posts';
          assert.deepEqual(mapMetaCapability('publish_post', users[role], subject), [publishCap]);
          assert.equal(
            userCan(users[role], 'publish_post', subject),
            (type === 'page' ? EDITORS : PUBLISHERS).includes(role),
            `publish_post ${label} as ${role}`,
          );
        }
      });
    }
  });
}

describe('post meta capabilities beyond the matrix', () => {
  const admin = users.administrator;

  it('a post with author 0 is someone else\'s for everyone', () => {
    assert.deepEqual(mapMetaCapability('edit_post', admin, { type: 'post', status: 'draft', authorId: 0 }), [
      'edit_others_posts',
    ]);
  });

  it('needs a post: no subject, or another kind of subject, is never allowed', () => {
    for (const cap of ['edit_post', 'read_post', 'delete_post', 'publish_post', 'edit_page']) {
      assert.deepEqual(mapMetaCapability(cap, admin), [DO_NOT_ALLOW]);
      assert.deepEqual(mapMetaCapability(cap, admin, { userId: 1 }), [DO_NOT_ALLOW]);
      assert.equal(userCan(admin, cap), false);
    }
  });

  it('attachments use the post capabilities and read through their parent', () => {
    const other = (status: string, parentStatus?: string): PostSubject => ({
      type: 'attachment',
      status,
      authorId: SOMEONE_ELSE,
      ...(parentStatus === undefined ? {} : { parentStatus }),
    });
    assert.deepEqual(mapMetaCapability('read_post', users.subscriber, other('inherit')), ['read']);
    assert.deepEqual(mapMetaCapability('read_post', users.subscriber, other('inherit', 'publish')), ['read']);
    assert.deepEqual(mapMetaCapability('read_post', users.subscriber, other('inherit', 'private')), ['read_private_posts']);
    // A draft parent falls through to edit_post, which looks at the attachment's own status.
    assert.deepEqual(mapMetaCapability('read_post', users.subscriber, other('inherit', 'draft')), ['edit_others_posts']);
    assert.deepEqual(mapMetaCapability('read_post', users.subscriber, other('private')), ['read_private_posts']);
    assert.deepEqual(mapMetaCapability('edit_post', users.author, other('inherit')), ['edit_others_posts']);
    assert.deepEqual(mapMetaCapability('edit_post', users.author, { ...other('inherit'), authorId: 3 }), ['edit_posts']);
    assert.equal(userCan(users.contributor, 'edit_post', { ...other('inherit'), authorId: 4 }), true);
  });

  it('revisions: edit and read check the parent, delete is never allowed', () => {
    const parent: PostSubject = { type: 'post', status: 'publish', authorId: 3 };
    const revision: PostSubject = { type: 'revision', status: 'inherit', authorId: 3, parent };
    assert.deepEqual(mapMetaCapability('edit_post', users.author, revision), ['edit_published_posts']);
    assert.deepEqual(mapMetaCapability('edit_post', users.editor, revision), ['edit_others_posts', 'edit_published_posts']);
    assert.deepEqual(mapMetaCapability('read_post', users.subscriber, revision), ['read']);
    assert.deepEqual(mapMetaCapability('delete_post', admin, revision), [DO_NOT_ALLOW]);
    assert.deepEqual(mapMetaCapability('edit_post', admin, { ...revision, parent: null }), [DO_NOT_ALLOW]);
    assert.deepEqual(mapMetaCapability('read_post', admin, { type: 'revision', status: 'inherit', authorId: 1 }), [
      DO_NOT_ALLOW,
    ]);
  });

  it('the front page and the posts page need manage_options to delete', () => {
    const front: PostSubject = { type: 'page', status: 'publish', authorId: 2, isFrontPage: true };
    assert.deepEqual(mapMetaCapability('delete_post', users.editor, front), ['manage_options']);
    assert.equal(userCan(users.editor, 'delete_post', front), false);
    assert.equal(userCan(admin, 'delete_page', { ...front, isFrontPage: false, isPostsPage: true }), true);
    assert.equal(userCan(users.editor, 'edit_post', front), true);
  });

  it('the privacy-policy page also needs manage_options to edit or delete', () => {
    const privacy: PostSubject = { type: 'page', status: 'draft', authorId: 2, isPrivacyPolicyPage: true };
    assert.deepEqual(mapMetaCapability('edit_post', users.editor, privacy), ['edit_pages', 'manage_options']);
    assert.deepEqual(mapMetaCapability('delete_page', users.editor, privacy), ['delete_pages', 'manage_options']);
    assert.equal(userCan(users.editor, 'edit_post', privacy), false);
    assert.equal(userCan(admin, 'edit_post', privacy), true);
  });

  it('an unknown post type or status falls back to edit_others_posts', () => {
    assert.deepEqual(mapMetaCapability('edit_post', admin, { type: 'book', status: 'draft', authorId: 1 }), [
      'edit_others_posts',
    ]);
    assert.deepEqual(mapMetaCapability('publish_post', admin, { type: 'book', status: 'draft', authorId: 1 }), [
      'edit_others_posts',
    ]);
    assert.deepEqual(mapMetaCapability('read_post', users.author, { type: 'post', status: 'limbo', authorId: 3 }), [
      'edit_others_posts',
    ]);
  });

  it('reusable blocks read with edit_posts and use the post capabilities', () => {
    const block: PostSubject = { type: 'wp_block', status: 'publish', authorId: SOMEONE_ELSE };
    assert.deepEqual(mapMetaCapability('read_post', users.subscriber, block), ['edit_posts']);
    assert.deepEqual(mapMetaCapability('edit_block', users.editor, block), ['edit_others_posts', 'edit_published_posts']);
    // As in the reference, the names the block type does not override stay `*_blocks` inside the mapping.
    assert.deepEqual(mapMetaCapability('delete_post', users.editor, { ...block, status: 'private' }), [
      'delete_others_posts',
      'delete_private_blocks',
    ]);
    assert.equal(userCan(users.editor, 'delete_post', { ...block, status: 'private' }), false);
    assert.deepEqual(mapMetaCapability('publish_post', users.author, block), ['publish_blocks']);
    assert.deepEqual(mapMetaCapability('edit_private_blocks', users.editor), ['edit_private_posts']);
  });

  it('a host post type maps through its own names', () => {
    const rules = createCapabilityRules({ postTypes: { book: postTypeCapabilities('book') } });
    const table = createRoleTable({ librarian: { capabilities: ['read', 'edit_books', 'edit_published_books'] } });
    const librarian = createPrincipal({ id: 20, login: 'lib', roles: ['librarian'] }, table);
    const ownBook: PostSubject = { type: 'book', status: 'publish', authorId: 20 };
    assert.deepEqual(mapMetaCapability('edit_post', librarian, ownBook, rules), ['edit_published_books']);
    assert.deepEqual(mapMetaCapability('edit_book', librarian, ownBook, rules), ['edit_published_books']);
    assert.equal(userCan(librarian, 'edit_book', ownBook, rules), true);
    assert.equal(userCan(librarian, 'edit_book', { ...ownBook, authorId: 1 }, rules), false);
    assert.equal(userCan(librarian, 'edit_post', { type: 'post', status: 'draft', authorId: 20 }, rules), false);
  });

  it('edit_comment follows the comment\'s post, or edit_posts for an orphan', () => {
    const post: PostSubject = { type: 'post', status: 'publish', authorId: 3 };
    assert.deepEqual(mapMetaCapability('edit_comment', users.author, { post }), ['edit_published_posts']);
    assert.deepEqual(mapMetaCapability('edit_comment', users.contributor, { post: null }), ['edit_posts']);
    assert.deepEqual(mapMetaCapability('edit_comment', users.author), [DO_NOT_ALLOW]);
  });
});

describe('user capabilities', () => {
  it('edit_user: always oneself, others need edit_users', () => {
    for (const role of ROLE_NAMES) {
      const user = users[role];
      assert.deepEqual(mapMetaCapability('edit_user', user, { userId: user.id }), []);
      assert.equal(userCan(user, 'edit_user', { userId: user.id }), true, role);
      assert.equal(userCan(user, 'edit_user', { userId: SOMEONE_ELSE }), role === 'administrator', role);
    }
    assert.equal(userCan(null, 'edit_user', { userId: 0 }), false);
    assert.deepEqual(mapMetaCapability('edit_users', users.subscriber, { userId: 5 }), ['edit_users']);
  });

  it('application-password capabilities follow edit_user of the target', () => {
    const caps = [
      'create_app_password', 'list_app_passwords', 'read_app_password',
      'edit_app_password', 'delete_app_password', 'delete_app_passwords',
    ];
    for (const cap of caps) {
      assert.equal(userCan(users.subscriber, cap, { userId: 5 }), true, cap);
      assert.equal(userCan(users.subscriber, cap, { userId: 1 }), false, cap);
      assert.equal(userCan(users.editor, cap, { userId: 5 }), false, cap);
      assert.equal(userCan(users.administrator, cap, { userId: 5 }), true, cap);
      assert.equal(userCan(null, cap, { userId: 5 }), false, cap);
    }
  });

  it('list, create, delete, promote and remove map to the administrator\'s capabilities', () => {
    const expectations: Array<[string, string[]]> = [
      ['list_users', ['list_users']],
      ['create_users', ['create_users']],
      ['delete_user', ['delete_users']],
      ['delete_users', ['delete_users']],
      ['promote_user', ['promote_users']],
      ['add_users', ['promote_users']],
      ['remove_user', ['remove_users']],
    ];
    for (const [cap, required] of expectations) {
      assert.deepEqual(mapMetaCapability(cap, users.editor, { userId: 9 }), required, cap);
      for (const role of ROLE_NAMES) {
        assert.equal(userCan(users[role], cap, { userId: 9 }), role === 'administrator', `${cap} as ${role}`);
      }
    }
  });

  it('removing oneself needs delete_users', () => {
    const table = createRoleTable({ remover: { capabilities: ['read', 'remove_users'] } });
    const remover = createPrincipal({ id: 30, login: 'r', roles: ['remover'] }, table);
    assert.deepEqual(mapMetaCapability('remove_user', remover, { userId: 30 }), [DO_NOT_ALLOW]);
    assert.equal(userCan(remover, 'remove_user', { userId: 31 }), true);
    assert.equal(userCan(users.administrator, 'remove_user', { userId: 1 }), true);
  });
});

describe('term capabilities', () => {
  it('categories: manage with manage_categories, assign with edit_posts, never delete the default', () => {
    const category = { taxonomy: 'category' };
    assert.deepEqual(mapMetaCapability('edit_term', users.editor, category), ['manage_categories']);
    assert.deepEqual(mapMetaCapability('delete_term', users.editor, category), ['manage_categories']);
    assert.deepEqual(mapMetaCapability('assign_term', users.contributor, category), ['edit_posts']);
    assert.deepEqual(mapMetaCapability('delete_term', users.administrator, { ...category, isDefault: true }), [
      DO_NOT_ALLOW,
    ]);
    assert.equal(userCan(users.administrator, 'edit_term', { ...category, isDefault: true }), true);
    for (const role of ROLE_NAMES) {
      assert.equal(userCan(users[role], 'edit_term', category), EDITORS.includes(role), role);
      assert.equal(userCan(users[role], 'assign_term', category), WRITERS.includes(role), role);
    }
  });

  it('tags map the same way through their own names', () => {
    for (const cap of ['manage_post_tags', 'edit_post_tags', 'delete_post_tags', 'edit_categories', 'delete_categories']) {
      assert.deepEqual(mapMetaCapability(cap, users.author), ['manage_categories'], cap);
    }
    assert.deepEqual(mapMetaCapability('assign_post_tags', users.author), ['edit_posts']);
    assert.deepEqual(mapMetaCapability('assign_categories', users.author), ['edit_posts']);
    assert.deepEqual(mapMetaCapability('edit_term', users.author, { taxonomy: 'post_tag' }), ['manage_categories']);
    assert.deepEqual(mapMetaCapability('assign_term', users.author, { taxonomy: 'post_tag' }), ['edit_posts']);
  });

  it('unknown taxonomies and missing terms are never allowed; host taxonomies use their names', () => {
    assert.deepEqual(mapMetaCapability('edit_term', users.administrator, { taxonomy: 'genre' }), [DO_NOT_ALLOW]);
    assert.deepEqual(mapMetaCapability('edit_term', users.administrator), [DO_NOT_ALLOW]);
    const rules = createCapabilityRules({
      taxonomies: { genre: taxonomyCapabilities({ edit_terms: 'edit_genres' }) },
    });
    assert.deepEqual(mapMetaCapability('edit_term', users.administrator, { taxonomy: 'genre' }, rules), ['edit_genres']);
    assert.deepEqual(mapMetaCapability('delete_term', users.administrator, { taxonomy: 'genre' }, rules), [
      'manage_categories',
    ]);
    assert.deepEqual(mapMetaCapability('assign_term', users.administrator, { taxonomy: 'genre' }, rules), ['edit_posts']);
  });

  it('a taxonomy whose names loop back is refused rather than recursing forever', () => {
    const rules = createCapabilityRules({
      taxonomies: { loop: taxonomyCapabilities({ edit_terms: 'edit_term' }) },
    });
    assert.deepEqual(mapMetaCapability('edit_term', users.administrator, { taxonomy: 'loop' }, rules), [DO_NOT_ALLOW]);
  });
});

describe('object meta capabilities', () => {
  const post: PostSubject = { type: 'post', status: 'draft', authorId: 3 };

  it('follow editing the object, and protected keys need an explicit verdict', () => {
    assert.deepEqual(mapMetaCapability('edit_post_meta', users.author, { object: post, metaKey: 'color' }), ['edit_posts']);
    assert.equal(userCan(users.author, 'add_post_meta', { object: post, metaKey: 'color' }), true);
    assert.deepEqual(mapMetaCapability('edit_post_meta', users.author, { object: post, metaKey: '_secret' }), [
      'edit_posts',
      'edit_post_meta',
    ]);
    assert.equal(userCan(users.administrator, 'delete_post_meta', { object: post, metaKey: '_secret' }), false);
    assert.equal(
      userCan(users.author, 'edit_post_meta', { object: post, metaKey: '_secret', metaKeyAuthorized: true }),
      true,
    );
    assert.equal(userCan(users.author, 'edit_post_meta', { object: post, metaKey: 'color', metaKeyAuthorized: false }), false);
    assert.equal(userCan(users.subscriber, 'edit_user_meta', { object: { userId: 5 }, metaKey: 'nickname' }), true);
    assert.equal(userCan(users.subscriber, 'edit_term_meta', { object: { taxonomy: 'category' } }), false);
    assert.deepEqual(mapMetaCapability('edit_post_meta', users.author, post), [DO_NOT_ALLOW]);
  });
});

describe('site-level rules and plain capabilities', () => {
  it('unfiltered_html is the role\'s unless the site disallows it', () => {
    assert.equal(userCan(users.editor, 'unfiltered_html'), true);
    assert.equal(userCan(users.author, 'unfiltered_html'), false);
    const strict = createCapabilityRules({ allowUnfilteredHtml: false });
    assert.deepEqual(mapMetaCapability('unfiltered_html', users.administrator, undefined, strict), [DO_NOT_ALLOW]);
    assert.equal(userCan(users.administrator, 'edit_css', undefined, strict), false);
  });

  it('unfiltered_upload and manage_links are off unless the site enables them', () => {
    assert.equal(userCan(users.administrator, 'unfiltered_upload'), false);
    assert.equal(userCan(users.administrator, 'manage_links'), false);
    const open = createCapabilityRules({ allowUnfilteredUploads: true, linkManagerEnabled: true });
    assert.equal(userCan(users.administrator, 'unfiltered_upload', undefined, open), true);
    assert.equal(userCan(users.editor, 'unfiltered_upload', undefined, open), false);
    assert.equal(userCan(users.editor, 'manage_links', undefined, open), true);
  });

  it('file edits and modifications can be switched off', () => {
    assert.equal(userCan(users.administrator, 'edit_plugins'), true);
    assert.equal(userCan(users.administrator, 'upload_plugins'), true);
    assert.equal(userCan(users.administrator, 'install_languages'), true);
    const locked = createCapabilityRules({ allowFileModifications: false });
    for (const cap of ['edit_plugins', 'install_plugins', 'upload_themes', 'update_core', 'install_languages']) {
      assert.equal(userCan(users.administrator, cap, undefined, locked), false, cap);
    }
    const noEditor = createCapabilityRules({ allowFileEdits: false });
    assert.equal(userCan(users.administrator, 'edit_themes', undefined, noEditor), false);
    assert.equal(userCan(users.administrator, 'update_themes', undefined, noEditor), true);
  });

  it('maps the remaining administrative meta capabilities', () => {
    const expectations: Array<[string, string[]]> = [
      ['customize', ['edit_theme_options']],
      ['manage_privacy_options', ['manage_options']],
      ['export_others_personal_data', ['manage_options']],
      ['setup_network', ['manage_options']],
      ['update_php', ['update_core']],
      ['update_https', ['manage_options', 'update_core']],
      ['activate_plugin', ['activate_plugins']],
      ['resume_theme', ['resume_themes']],
      ['delete_site', [DO_NOT_ALLOW]],
      ['manage_network', ['manage_network']],
      ['moderate_comments', ['moderate_comments']],
    ];
    for (const [cap, required] of expectations) {
      assert.deepEqual(mapMetaCapability(cap, users.administrator), required, cap);
    }
    assert.equal(userCan(users.administrator, 'customize'), true);
    assert.equal(userCan(users.administrator, 'resume_theme'), true);
    assert.equal(userCan(users.administrator, 'manage_network'), false);
  });

  it('primitive capabilities stand for themselves, role names included', () => {
    assert.equal(userCan(users.author, 'upload_files'), true);
    assert.equal(userCan(users.contributor, 'upload_files'), false);
    assert.equal(userCan(users.editor, 'editor'), true);
    assert.equal(userCan(users.editor, 'administrator'), false);
    assert.equal(userCan(users.administrator, 'level_10'), true);
    assert.equal(userCan(users.editor, 'level_8'), false);
  });

  it('everyone exists, nobody may do_not_allow, anonymous holds nothing else', () => {
    assert.equal(userCan(null, 'exist'), true);
    assert.equal(userCan(users.subscriber, 'exist'), true);
    assert.equal(userCan(users.administrator, DO_NOT_ALLOW), false);
    assert.equal(userCan(null, 'read'), false);
    assert.equal(userCan(null, 'read_post', { type: 'post', status: 'publish', authorId: 1 }), false);
  });

  it('a host role built on a default one passes the checks its capabilities allow', () => {
    const table = createRoleTable({ page_author: { basedOn: 'author', capabilities: ['edit_pages', 'publish_pages'] } });
    const pageAuthor = createPrincipal({ id: 40, login: 'pa', roles: ['page_author'] }, table);
    assert.equal(userCan(pageAuthor, 'edit_post', { type: 'page', status: 'draft', authorId: 40 }), true);
    assert.equal(userCan(pageAuthor, 'publish_post', { type: 'page', status: 'draft', authorId: 40 }), true);
    assert.equal(userCan(pageAuthor, 'edit_post', { type: 'page', status: 'publish', authorId: 40 }), false);
  });
});
