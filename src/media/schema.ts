/**
 * Media items are posts of type `attachment`: the post-type kit's schema with the post-only fields taken
 * out (password, content, excerpt) and the attachment fields added.
 */
import type { JsonSchema } from '../core/args/schema.js';
import { buildItemSchema, type ItemSchema, type PostTypeDefinition } from '../content/post-type/index.js';

const ALL = ['view', 'edit', 'embed'];
const VIEW_EDIT = ['view', 'edit'];
const EDIT = ['edit'];

export const ATTACHMENT_TYPE: PostTypeDefinition = Object.freeze({
  type: 'attachment',
  restBase: 'media',
  hierarchical: false,
  supportsExcerpt: false,
  supportsFormats: false,
  supportsSticky: false,
  supportsPageAttributes: false,
  taxonomies: [],
  defaultCommentStatus: 'open',
  defaultPingStatus: 'closed',
});

/** The `media_type` filter's values (the top-level parts of the allowed types, as the interface lists them). */
export const MEDIA_TYPES = ['image', 'video', 'text', 'application', 'audio', 'font'] as const;

export function buildMediaSchema(): ItemSchema {
  const base = buildItemSchema(ATTACHMENT_TYPE);
  const { password: _password, content: _content, excerpt: _excerpt, ...kept } = base.properties;
  const properties: Record<string, JsonSchema> = {
    ...kept,
    meta: { description: 'Meta fields.', type: 'object', context: VIEW_EDIT, properties: {} },
    alt_text: { description: 'Text shown when the attachment cannot be displayed.', type: 'string', context: ALL },
    caption: {
      description: 'The attachment caption.',
      type: 'object',
      context: ALL,
      properties: {
        raw: { description: 'The caption, as stored.', type: 'string', context: EDIT },
        rendered: { description: 'The caption, as HTML for display.', type: 'string', context: ALL, readonly: true },
      },
    },
    description: {
      description: 'The attachment description.',
      type: 'object',
      context: VIEW_EDIT,
      properties: {
        raw: { description: 'The description, as stored.', type: 'string', context: EDIT },
        rendered: { description: 'The description, as HTML for display.', type: 'string', context: VIEW_EDIT, readonly: true },
      },
    },
    media_type: { description: 'Attachment type.', type: 'string', enum: ['image', 'file'], context: ALL, readonly: true },
    mime_type: { description: 'The attachment MIME type.', type: 'string', context: ALL, readonly: true },
    media_details: { description: 'Details about the media file, specific to its type.', type: 'object', context: ALL, readonly: true },
    post: { description: 'The id of the post the attachment belongs to.', type: 'integer', context: VIEW_EDIT },
    source_url: { description: 'Address of the attachment\'s main file.', type: 'string', format: 'uri', context: ALL, readonly: true },
    missing_image_sizes: {
      description: 'The registered image sizes the attachment lacks.',
      type: 'array',
      items: { type: 'string' },
      context: EDIT,
      readonly: true,
    },
  };
  const links = (base.links ?? []).filter((link) => !String((link as { rel?: string }).rel).endsWith('action-publish'));
  return { ...base, title: 'attachment', properties, links };
}
