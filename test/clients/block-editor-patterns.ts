/**
 * The block editor's calls for reusable blocks and patterns (what the inserter asks for), run inside
 * `describeEditorCalls` against the same server and store.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiFetch } from './block-editor-env.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- records come back as the editor sees them: untyped JSON. */
type Json = any;

export interface EditorSession {
  select: Json;
  resolve: Json;
  dispatch: Json;
  apiFetch: ApiFetch;
  /** `cms/v2` or `wp/v2`. */
  ns: string;
}

const PARAGRAPH = '<!-- wp:paragraph --><p>Shared text</p><!-- /wp:paragraph -->';

export function describePatternCalls(session: () => EditorSession): void {
  describe('reusable blocks and patterns', () => {
    it('the wp_block entity: its base URL, supports and the wp_pattern_category taxonomy', async () => {
      const { resolve, ns } = session();
      const type = await resolve.getPostType('wp_block');
      assert.equal(type.rest_base, 'blocks');
      assert.equal(type.rest_namespace, ns);
      assert.deepEqual(type.taxonomies, ['wp_pattern_category']);
      const configs = await resolve.getEntitiesConfig('postType');
      assert.equal(configs.find((entity: Json) => entity.name === 'wp_block').baseURL, `/${ns}/blocks`);
      const taxonomy = await resolve.getTaxonomy('wp_pattern_category');
      assert.equal(taxonomy.rest_base, 'wp_pattern_category');
      assert.equal(await resolve.canUser('create', { kind: 'postType', name: 'wp_block' }), true);
    });

    it('saveEntityRecord creates a reusable block; getEntityRecords lists it with its raw text and sync status', async () => {
      const { resolve, dispatch } = session();
      const category = await dispatch.saveEntityRecord('taxonomy', 'wp_pattern_category', { name: 'Heroes' }, { throwOnError: true });
      const block = await dispatch.saveEntityRecord('postType', 'wp_block', {
        title: 'Shared', content: PARAGRAPH, status: 'publish', wp_pattern_category: [category.id],
        meta: { wp_pattern_sync_status: 'unsynced' },
      }, { throwOnError: true });
      assert.equal(block.title.raw, 'Shared');
      assert.equal(block.title.rendered, undefined, 'a reusable block is never rendered on its own');
      assert.equal(block.content.raw, PARAGRAPH);
      assert.equal(block.content.rendered, undefined);
      assert.equal(block.wp_pattern_sync_status, 'unsynced');
      assert.deepEqual(block.wp_pattern_category, [category.id]);
      const blocks = await resolve.getEntityRecords('postType', 'wp_block', { per_page: -1 });
      const listed = blocks.find((entry: Json) => entry.id === block.id);
      assert.equal(listed.title.raw, 'Shared', 'the raw title is in the view context too');
      assert.equal(listed.content.raw, PARAGRAPH);
      assert.equal(listed.wp_pattern_sync_status, 'unsynced');
      assert.equal(listed.meta.wp_pattern_sync_status, undefined, 'answered at the top level, not in meta');
    });

    it('editEntityRecord + saveEditedEntityRecord: the block changes and keeps a revision', async () => {
      const { resolve, dispatch, select } = session();
      const block = await dispatch.saveEntityRecord('postType', 'wp_block', { title: 'Before', content: PARAGRAPH, status: 'publish' }, { throwOnError: true });
      assert.equal(block.wp_pattern_sync_status, '', 'synced unless marked otherwise');
      dispatch.editEntityRecord('postType', 'wp_block', block.id, { title: 'After', content: '<!-- wp:paragraph --><p>New</p><!-- /wp:paragraph -->' });
      await dispatch.saveEditedEntityRecord('postType', 'wp_block', block.id, { throwOnError: true });
      const saved = select.getEntityRecord('postType', 'wp_block', block.id);
      assert.equal(saved.title.raw, 'After');
      assert.match(saved.content.raw, /New/);
      const revisions = await resolve.getRevisions('postType', 'wp_block', block.id, { per_page: -1, context: 'edit' });
      assert.equal(revisions.length, 1);
      assert.equal(revisions[0].title.raw, 'After');
    });

    it('deleteEntityRecord: to the trash, then for good', async () => {
      const { dispatch, apiFetch } = session();
      const block = await dispatch.saveEntityRecord('postType', 'wp_block', { title: 'Gone', content: PARAGRAPH, status: 'publish' }, { throwOnError: true });
      await dispatch.deleteEntityRecord('postType', 'wp_block', block.id, undefined, { throwOnError: true });
      const trashed = await apiFetch<Json>({ path: `/wp/v2/blocks/${block.id}?context=edit` });
      assert.equal(trashed.status, 'trash');
      await dispatch.deleteEntityRecord('postType', 'wp_block', block.id, { force: true }, { throwOnError: true });
      await assert.rejects(apiFetch({ path: `/wp/v2/blocks/${block.id}` }), (error: Json) => error.code === 'rest_post_invalid_id');
    });

    it('getBlockPatterns, getBlockPatternCategories and getUserPatternCategories', async () => {
      const { resolve, dispatch } = session();
      assert.deepEqual(await resolve.getBlockPatterns(), []);
      const categories = await resolve.getBlockPatternCategories();
      const names = categories.map((category: Json) => category.name);
      assert.ok(names.includes('text') && names.includes('call-to-action') && names.includes('header'));
      assert.equal(names.includes('query'), false);
      assert.deepEqual(Object.keys(categories[0]).sort(), ['description', 'label', 'name']);
      await dispatch.saveEntityRecord('taxonomy', 'wp_pattern_category', { name: 'Footers &amp; more' }, { throwOnError: true });
      const user = await resolve.getUserPatternCategories();
      const mine = user.find((category: Json) => category.name === 'footers-more');
      assert.ok(mine, 'the user category, named by its slug');
      assert.equal(mine.label, 'Footers & more');
    });
  });
}
