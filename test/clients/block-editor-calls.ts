/**
 * The block editor's data layer, unchanged: `@wordpress/data` + `@wordpress/core-data` (and `@wordpress/media-utils`
 * for uploads) in jsdom, against the standalone server, with api-fetch's root-URL middleware and an `Authorization`
 * header only (and, in the neutral names, `quire/editor`'s middleware). Each case is one of the calls an author's
 * editor makes every day; the test files run them under each names.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { neutralNamesMiddleware } from '../../src/editor/index.js';
import { serve } from '../cli/helpers.js';
import { loadEditorPackages, type EditorPackages } from './block-editor-env.js';
import { describePatternCalls } from './block-editor-patterns.js';

const PASSWORD = 'abcd EFGH 1234 ijkl MNOP 5678';
const BASIC = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
/** A 1×1 PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/* eslint-disable @typescript-eslint/no-explicit-any -- records come back as the editor sees them: untyped JSON. */
type Json = any;

let server: ChildProcess;
/** The credentials every request carries; a case may speak as another user for a while. */
let authorization = BASIC;
let apiUrl: string;
let editor: EditorPackages;
let select: Json;
let resolve: Json;
let dispatch: Json;

/** `cms/v2` or `wp/v2`: what `rest_namespace` and the entities' URLs say under the names served. */
let ns: string;

function startServer(names: 'wordpress' | 'neutral'): void {
  before(async () => {
    const started = await serve(['--names', names, '--admin-app-password', PASSWORD]);
    server = started.child;
    apiUrl = started.apiUrl.replace(/\/$/, '');
    ns = names === 'wordpress' ? 'wp/v2' : 'cms/v2';
    editor = loadEditorPackages();
    editor.apiFetch.use(editor.apiFetch.createRootURLMiddleware(`${apiUrl}/`));
    editor.apiFetch.use((options, next) => next({ ...options, headers: { ...options.headers, Authorization: authorization } }));
    // api-fetch runs the middleware added last first: the names are mapped before the root URL is prefixed.
    if (names === 'neutral') editor.apiFetch.use(neutralNamesMiddleware());
    select = editor.registry.select(editor.coreStore);
    resolve = editor.registry.resolveSelect(editor.coreStore);
    dispatch = editor.registry.dispatch(editor.coreStore);
  });

  after(() => {
    server?.kill();
  });
}

/** A new post through the store, as the editor's first save makes it. */
async function newPost(fields: Record<string, unknown>, type = 'post'): Promise<Json> {
  const saved = await dispatch.saveEntityRecord('postType', type, fields, { throwOnError: true });
  assert.ok(saved?.id, `a ${type} was created`);
  return saved;
}

export function describeEditorCalls(names: 'wordpress' | 'neutral'): void {
  startServer(names);
  describe(`the block editor data layer, names: ${names}`, () => {
    describe('site and discovery', () => {
      it('__unstableBase: the index with the fields the editor asks for', async () => {
        const base = await resolve.getEntityRecord('root', '__unstableBase');
        assert.equal(base.name, 'quire');
        assert.equal(base.url, apiUrl.replace(/\/(wp|cms)-json$/, ''));
        assert.equal(base.home, base.url);
        assert.equal(Number(base.gmt_offset), 0);
        assert.equal(base.show_on_front, 'posts');
        assert.equal(base.namespaces, undefined, '_fields keeps only what was asked');
      });

      it('site: the settings entity, loaded through OPTIONS, then read and saved', async () => {
        const site = await resolve.getEntityRecord('root', 'site');
        assert.equal(site.title, 'quire');
        assert.ok(select.getEntitiesConfig('root').some((entity: Json) => entity.name === 'site' && entity.baseURL === '/wp/v2/settings'));
        dispatch.editEntityRecord('root', 'site', undefined, { description: 'Notes' });
        await dispatch.saveEditedEntityRecord('root', 'site', undefined, { throwOnError: true });
        assert.equal(select.getEntityRecord('root', 'site').description, 'Notes');
      });

      it('post types: rest_namespace follows the names, supports carries what the editor reads', async () => {
        const post = await resolve.getPostType('post');
        assert.equal(post.rest_namespace, ns);
        for (const feature of ['title', 'editor', 'author', 'thumbnail', 'excerpt', 'revisions', 'autosave', 'custom-fields', 'comments', 'post-formats']) {
          assert.equal(post.supports[feature], true, feature);
        }
        const page = await resolve.getPostType('page');
        assert.equal(page.supports.autosave, true);
        assert.equal(page.supports['page-attributes'], true);
        const configs = await resolve.getEntitiesConfig('postType');
        const baseUrls = Object.fromEntries(configs.map((entity: Json) => [entity.name, entity.baseURL]));
        assert.equal(baseUrls.post, `/${ns}/posts`);
        assert.equal(baseUrls.page, `/${ns}/pages`);
        assert.equal(baseUrls.attachment, `/${ns}/media`);
      });

      it('taxonomies: rest_namespace follows the names', async () => {
        const category = await resolve.getTaxonomy('category');
        assert.equal(category.rest_namespace, ns);
        assert.equal(category.rest_base, 'categories');
        const configs = await resolve.getEntitiesConfig('taxonomy');
        assert.deepEqual(configs.map((entity: Json) => entity.baseURL).sort(), [`/${ns}/categories`, `/${ns}/tags`, `/${ns}/wp_pattern_category`]);
      });

      it('statuses: every status the editor lists', async () => {
        const statuses = await resolve.getEntityRecords('root', 'status');
        const slugs = statuses.map((status: Json) => status.slug);
        for (const slug of ['publish', 'future', 'draft', 'pending', 'private']) assert.ok(slugs.includes(slug), slug);
      });

      it('getCurrentTheme: the active theme, read-only', async () => {
        const theme = await resolve.getCurrentTheme();
        assert.equal(theme.status, 'active');
        assert.equal(typeof theme.stylesheet, 'string');
        assert.ok(theme.stylesheet.length > 0);
        assert.equal(theme.is_block_theme, false);
      });

      it('getThemeSupports: post thumbnails, formats, wide alignment, no editor styles', async () => {
        const supports = await resolve.getThemeSupports();
        assert.equal(supports['post-thumbnails'], true);
        assert.equal(supports['align-wide'], true);
        assert.equal(supports['editor-styles'], false);
        assert.ok(supports.formats.includes('standard'));
        assert.ok(supports.formats.includes('aside'));
      });

      it('getCurrentUser and the user record in edit context', async () => {
        const me = await resolve.getCurrentUser();
        assert.equal(me.slug, 'admin');
        const user = await resolve.getEntityRecord('root', 'user', me.id);
        assert.deepEqual(user.roles, ['administrator']);
        assert.equal(user.capabilities.edit_posts, true);
      });

      it('the author picker: who=authors, and capabilities=edit_posts', async () => {
        const byWho = await resolve.getUsers({ who: 'authors', per_page: 100, _fields: 'id,name', context: 'view' });
        assert.deepEqual(byWho.map((user: Json) => Object.keys(user).sort()), [['id', 'name']]);
        const byCapability = await resolve.getUsers({ capabilities: ['edit_posts'], per_page: 100, _fields: 'id,name', context: 'view' });
        assert.deepEqual(byCapability.map((user: Json) => user.id), byWho.map((user: Json) => user.id));
        const authors = await resolve.getAuthors();
        assert.equal(authors.length, 1);
      });

      it('registered post meta: OPTIONS on the collection, as the editor asks it', async () => {
        // The editor's private `getRegisteredPostMeta` sends this request and reads `schema.properties.meta`.
        const options = await editor.apiFetch<Json>({ path: 'wp/v2/posts/?context=edit', method: 'OPTIONS' });
        assert.equal(options.schema.properties.meta.type, 'object');
        assert.deepEqual(options.methods, ['GET', 'POST']);
      });
    });

    describe('posts and pages', () => {
      it('saveEntityRecord creates a post with its raw fields', async () => {
        const post = await newPost({ title: 'First', content: '<!-- wp:paragraph --><p>Hi</p><!-- /wp:paragraph -->', status: 'draft' });
        assert.equal(post.title.raw, 'First');
        assert.equal(post.status, 'draft');
        assert.equal(select.getEntityRecord('postType', 'post', post.id).title.raw, 'First');
      });

      it('getEntityRecord reads a post in edit context', async () => {
        const created = await newPost({ title: 'Read me', content: 'Body', status: 'publish' });
        const post = await resolve.getEntityRecord('postType', 'post', created.id);
        assert.equal(post.content.raw, 'Body');
        assert.equal(post.link.startsWith('http'), true);
      });

      it('getEntityRecords with per_page -1 pages through more than one page of 100', async () => {
        const tags = await Promise.all(Array.from({ length: 105 }, (_, n) => dispatch.saveEntityRecord('taxonomy', 'post_tag', { name: `many ${n}` }, { throwOnError: true })));
        assert.equal(tags.length, 105);
        const all = await resolve.getEntityRecords('taxonomy', 'post_tag', { per_page: -1, search: 'many' });
        assert.equal(all.length, 105);
        const posts = await resolve.getEntityRecords('postType', 'post', { per_page: -1, status: 'publish,draft' });
        assert.ok(posts.length >= 2);
      });

      it('editEntityRecord + saveEditedEntityRecord saves only the edits', async () => {
        const post = await newPost({ title: 'Before', status: 'draft' });
        dispatch.editEntityRecord('postType', 'post', post.id, { title: 'After', excerpt: 'Short' });
        assert.equal(select.hasEditsForEntityRecord('postType', 'post', post.id), true);
        await dispatch.saveEditedEntityRecord('postType', 'post', post.id, { throwOnError: true });
        assert.equal(select.hasEditsForEntityRecord('postType', 'post', post.id), false);
        assert.equal(select.getEntityRecord('postType', 'post', post.id).title.raw, 'After');
        assert.equal(select.getLastEntitySaveError('postType', 'post', post.id), undefined);
      });

      it('autosave of a published post: isAutosave, then getAutosaves and getAutosave', async () => {
        const post = await newPost({ title: 'Live', content: 'Published text', status: 'publish' });
        await resolve.getEntityRecord('postType', 'post', post.id);
        dispatch.editEntityRecord('postType', 'post', post.id, { content: 'Unsaved text' });
        await dispatch.saveEditedEntityRecord('postType', 'post', post.id, { isAutosave: true, throwOnError: true });
        assert.equal(select.isAutosavingEntityRecord('postType', 'post', post.id), false);
        const autosaves = await resolve.getAutosaves('post', post.id);
        assert.equal(autosaves.length, 1);
        assert.equal(autosaves[0].parent, post.id);
        const me = await resolve.getCurrentUser();
        const autosave = await resolve.getAutosave('post', post.id, me.id);
        assert.equal(autosave.content.raw, 'Unsaved text');
        const stored = await editor.apiFetch<Json>({ path: `/wp/v2/posts/${post.id}?context=edit` });
        assert.equal(stored.content.raw, 'Published text', 'the published post is untouched');
      });

      it('autosave of an own draft updates the draft itself', async () => {
        const post = await newPost({ title: 'Draft', content: 'One', status: 'draft' });
        dispatch.editEntityRecord('postType', 'post', post.id, { content: 'Two' });
        await dispatch.saveEditedEntityRecord('postType', 'post', post.id, { isAutosave: true, throwOnError: true });
        const stored = await editor.apiFetch<Json>({ path: `/wp/v2/posts/${post.id}?context=edit` });
        assert.equal(stored.content.raw, 'Two');
      });

      it('getRevisions and getRevision', async () => {
        const post = await newPost({ title: 'v1', content: 'one', status: 'publish' });
        await dispatch.saveEntityRecord('postType', 'post', { id: post.id, content: 'two' }, { throwOnError: true });
        await dispatch.saveEntityRecord('postType', 'post', { id: post.id, content: 'three' }, { throwOnError: true });
        const revisions = await resolve.getRevisions('postType', 'post', post.id, { per_page: -1, context: 'edit' });
        assert.deepEqual(revisions.map((revision: Json) => revision.content.raw), ['three', 'two']);
        assert.ok(revisions.every((revision: Json) => revision.parent === post.id));
        const revision = await resolve.getRevision('postType', 'post', post.id, revisions[1].id, { context: 'edit' });
        assert.equal(revision.content.raw, 'two');
        assert.equal(select.getRevisions('postType', 'post', post.id, { per_page: -1, context: 'edit' }).length, 2);
      });

      it('deleteEntityRecord moves to the trash, and force deletes', async () => {
        const post = await newPost({ title: 'Bin', status: 'publish' });
        await dispatch.deleteEntityRecord('postType', 'post', post.id, undefined, { throwOnError: true });
        const trashed = await editor.apiFetch<Json>({ path: `/wp/v2/posts/${post.id}?context=edit` });
        assert.equal(trashed.status, 'trash');
        await dispatch.deleteEntityRecord('postType', 'post', post.id, { force: true }, { throwOnError: true });
        await assert.rejects(editor.apiFetch({ path: `/wp/v2/posts/${post.id}` }), (error: Json) => error.code === 'rest_post_invalid_id');
        assert.equal(select.getLastEntityDeleteError('postType', 'post', post.id), undefined);
      });

      it('pages: created, listed, and edited through the store', async () => {
        const parent = await newPost({ title: 'Parent', status: 'publish' }, 'page');
        const child = await newPost({ title: 'Child', status: 'publish', parent: parent.id, menu_order: 2 }, 'page');
        assert.equal(child.parent, parent.id);
        const pages = await resolve.getEntityRecords('postType', 'page', { per_page: -1, parent: parent.id });
        assert.deepEqual(pages.map((page: Json) => page.id), [child.id]);
      });
    });

    describe('permissions', () => {
      it('canUser create, update and delete on a post type, for an administrator', async () => {
        const post = await newPost({ title: 'Mine', status: 'publish' });
        assert.equal(await resolve.canUser('create', { kind: 'postType', name: 'post' }), true);
        assert.equal(await resolve.canUser('update', { kind: 'postType', name: 'post', id: post.id }), true);
        assert.equal(await resolve.canUser('delete', { kind: 'postType', name: 'post', id: post.id }), true);
        assert.equal(await resolve.canUserEditEntityRecord('postType', 'post', post.id), true);
      });

      it('canUser follows the caller: an author may not edit an administrator\'s post', async () => {
      const post = await newPost({ title: 'The administrator\'s', status: 'publish' });
      const writer = await editor.apiFetch<Json>({
        path: '/wp/v2/users', method: 'POST',
        data: { username: 'writer', email: 'writer@example.test', password: 'a long enough password', roles: ['author'] },
      });
      const { password } = await editor.apiFetch<Json>({ path: `/wp/v2/users/${writer.id}/application-passwords`, method: 'POST', data: { name: 'editor' } });
      authorization = `Basic ${Buffer.from(`writer:${password}`).toString('base64')}`;
      try {
        const asWriter = loadEditorPackages().registry;
        const writerResolve = asWriter.resolveSelect(editor.coreStore);
        const writerDispatch = asWriter.dispatch(editor.coreStore);
        assert.equal(await writerResolve.canUser('create', { kind: 'postType', name: 'post' }), true);
        assert.equal(await writerResolve.canUser('create', { kind: 'postType', name: 'page' }), false);
        assert.equal(await writerResolve.canUser('update', { kind: 'postType', name: 'post', id: post.id }), false);
        assert.equal(await writerResolve.canUser('delete', { kind: 'postType', name: 'post', id: post.id }), false);
        await assert.rejects(
          writerDispatch.saveEntityRecord('postType', 'post', { id: post.id, title: 'Taken over' }, { throwOnError: true }),
          (error: Json) => error.code === 'rest_cannot_edit' && error.data.status === 403,
        );
        const own = await writerDispatch.saveEntityRecord('postType', 'post', { title: 'The writer\'s', status: 'publish' }, { throwOnError: true });
        assert.equal(own.author, writer.id);
        assert.equal(await writerResolve.canUser('update', { kind: 'postType', name: 'post', id: own.id }), true);
        assert.equal(await writerResolve.canUser('update', 'settings'), false);
      } finally {
        authorization = BASIC;
      }
    });

    it('canUser with a resource name (media, users, settings), and on a missing record', async () => {
        assert.equal(await resolve.canUser('create', 'media'), true);
        assert.equal(await resolve.canUser('create', 'users'), true);
        assert.equal(await resolve.canUser('update', 'settings'), true);
        assert.equal(await resolve.canUser('update', { kind: 'postType', name: 'post', id: 987654 }), false);
      });
    });

    describe('media, terms, comments, embeds', () => {
      it('media upload through @wordpress/media-utils, then the attachment entity', async () => {
        const uploaded = await new Promise<Json>((done, fail) => {
          editor.uploadMedia({
            filesList: [new File([PIXEL], 'pixel.png', { type: 'image/png' })],
            additionalData: { alt_text: 'One pixel' },
            onFileChange: (files: Json[]) => { if (files[0]?.id) done(files[0]); },
            onError: fail,
          });
        });
        assert.equal(uploaded.alt, 'One pixel');
        const attachment = await resolve.getEntityRecord('postType', 'attachment', uploaded.id);
        assert.equal(attachment.mime_type, 'image/png');
        assert.equal(attachment.media_details.width, 1);
        await dispatch.saveEntityRecord('postType', 'attachment', { id: uploaded.id, caption: 'Small' }, { throwOnError: true });
        assert.equal(select.getEntityRecord('postType', 'attachment', uploaded.id).caption.raw, 'Small');
        const post = await newPost({ title: 'With image', featured_media: uploaded.id, status: 'publish' });
        assert.equal(post.featured_media, uploaded.id);
        await dispatch.deleteEntityRecord('postType', 'attachment', uploaded.id, { force: true }, { throwOnError: true });
      });

      it('categories: created and listed', async () => {
        const category = await dispatch.saveEntityRecord('taxonomy', 'category', { name: 'News' }, { throwOnError: true });
        assert.equal(category.taxonomy, 'category');
        const categories = await resolve.getEntityRecords('taxonomy', 'category', { per_page: -1, _fields: 'id,name,parent' });
        assert.ok(categories.some((term: Json) => term.id === category.id && term.name === 'News'));
        const post = await newPost({ title: 'Filed', categories: [category.id], status: 'publish' });
        assert.deepEqual(post.categories, [category.id]);
      });

      it('tags: created, edited and deleted', async () => {
        const tag = await dispatch.saveEntityRecord('taxonomy', 'post_tag', { name: 'blue' }, { throwOnError: true });
        await dispatch.saveEntityRecord('taxonomy', 'post_tag', { id: tag.id, name: 'green' }, { throwOnError: true });
        assert.equal(select.getEntityRecord('taxonomy', 'post_tag', tag.id).name, 'green');
        await dispatch.deleteEntityRecord('taxonomy', 'post_tag', tag.id, { force: true }, { throwOnError: true });
        await assert.rejects(editor.apiFetch({ path: `/wp/v2/tags/${tag.id}` }), (error: Json) => error.code === 'rest_term_invalid');
      });

      it('comments: created through the store and listed for the post', async () => {
        const post = await newPost({ title: 'Talk', status: 'publish' });
        const comment = await dispatch.saveEntityRecord('root', 'comment', { post: post.id, content: 'Nice' }, { throwOnError: true });
        assert.equal(comment.post, post.id);
        assert.equal(comment.status, 'approved');
        const comments = await resolve.getEntityRecords('root', 'comment', { post: post.id, per_page: -1 });
        assert.deepEqual(comments.map((entry: Json) => entry.content.raw), ['Nice']);
      });

      it('getEmbedPreview of one of the site\'s own posts', async () => {
        const post = await newPost({ title: 'Embed me', content: 'Body', status: 'publish' });
        const preview = await resolve.getEmbedPreview(post.link);
        assert.ok(preview, 'a preview');
        assert.equal(preview.type, 'rich');
        assert.match(preview.html, /wp-embedded-content/);
        assert.equal(select.isPreviewEmbedFallback(post.link), false);
      });
    });

    describePatternCalls(() => ({ select, resolve, dispatch, apiFetch: editor.apiFetch, ns }));
  });
}
