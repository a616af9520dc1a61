/**
 * Reusable blocks (the `wp_block` post type, "patterns" in the editor): the post-type kit's records served at
 * `cms/v2/blocks`, with the fields the type supports (title, excerpt, editor, revisions, custom fields) and the
 * blocks controller's shape: title and content are answered raw in every context and never rendered, and the
 * `wp_pattern_sync_status` meta is answered as a top-level field.
 */
import type { JsonSchema } from '../../core/args/schema.js';
import { buildItemSchema, type ItemSchema, type PostTypeDefinition } from '../post-type/index.js';

export const BLOCK_TYPE: PostTypeDefinition = Object.freeze({
  type: 'wp_block',
  restBase: 'blocks',
  hierarchical: false,
  supportsExcerpt: true,
  supportsFormats: false,
  supportsSticky: false,
  supportsPageAttributes: false,
  taxonomies: [{ taxonomy: 'wp_pattern_category', restBase: 'wp_pattern_category', hierarchical: false }],
  defaultCommentStatus: 'closed',
  defaultPingStatus: 'closed',
  topLevelMeta: ['wp_pattern_sync_status'],
});

/** The sync status values: `unsynced` (inserted as a copy) and `partial`; unset means synced. */
export const PATTERN_SYNC_STATUSES = ['partial', 'unsynced'] as const;

/** Fields of the kit's schema a reusable block lacks: it has no author, featured image, comments or public view. */
const UNSUPPORTED_FIELDS = ['author', 'featured_media', 'comment_status', 'ping_status', 'permalink_template', 'generated_slug'];
const VIEW_EDIT = ['view', 'edit'];

/** The raw text in the view and edit contexts, and no rendered form. */
function rawOnly(property: JsonSchema): JsonSchema {
  const { rendered: _rendered, raw, ...others } = property.properties ?? {};
  return { ...property, properties: { raw: { ...raw, context: VIEW_EDIT }, ...others } };
}

export function buildBlockSchema(): ItemSchema {
  const base = buildItemSchema(BLOCK_TYPE);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(base.properties)) {
    if (UNSUPPORTED_FIELDS.includes(name)) continue;
    properties[name] = name === 'title' || name === 'content' ? rawOnly(property) : property;
  }
  properties.meta = {
    ...properties.meta,
    properties: {
      ...properties.meta?.properties,
      wp_pattern_sync_status: { type: 'string', description: '', default: '', enum: [...PATTERN_SYNC_STATUSES] },
    },
  };
  const links = (base.links ?? []).filter((link) => !String((link as { rel?: string }).rel).endsWith('action-assign-author'));
  return { ...base, properties, links };
}
