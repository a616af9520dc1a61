/** The item schema of a post type: fields, types and the contexts each field appears in. */
import type { JsonSchema } from '../../core/args/schema.js';
import { POST_FORMATS, WRITABLE_STATUSES, type PostTypeDefinition } from './definition.js';

const ALL = ['view', 'edit', 'embed'];
const VIEW_EDIT = ['view', 'edit'];
const EDIT = ['edit'];

/** The registered meta of posts and pages: `footnotes`. */
export const META_SCHEMA: JsonSchema = {
  description: 'Meta fields.',
  type: 'object',
  context: VIEW_EDIT,
  properties: {
    footnotes: { type: 'string', description: '', default: '' },
  },
};

/** `$schema`, `title` and `links` are published with the schema but are not part of the argument subset. */
export type ItemSchema = JsonSchema & { $schema: string; title: string; properties: Record<string, JsonSchema>; links?: unknown[] };

function renderedText(description: string, contexts: string[], extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    description,
    type: 'object',
    context: contexts,
    properties: {
      raw: { description: `${description.replace(/\.$/, '')}, as stored.`, type: 'string', context: EDIT },
      rendered: { description: `${description.replace(/\.$/, '')}, as HTML for display.`, type: 'string', context: contexts, readonly: true },
      ...extra,
    },
  };
}

export function buildItemSchema(definition: PostTypeDefinition): ItemSchema {
  const properties: Record<string, JsonSchema> = {
    date: { description: 'When the post was published, in the site\'s time zone.', type: ['string', 'null'], format: 'date-time', context: ALL },
    date_gmt: { description: 'When the post was published, in GMT.', type: ['string', 'null'], format: 'date-time', context: VIEW_EDIT },
    guid: {
      description: 'The globally unique identifier of the post.',
      type: 'object',
      context: VIEW_EDIT,
      readonly: true,
      properties: {
        raw: { description: 'The identifier as stored.', type: 'string', context: EDIT, readonly: true },
        rendered: { description: 'The identifier for display.', type: 'string', context: VIEW_EDIT, readonly: true },
      },
    },
    id: { description: 'Unique identifier of the post.', type: 'integer', context: ALL, readonly: true },
    link: { description: 'Address of the post.', type: 'string', format: 'uri', context: ALL, readonly: true },
    modified: { description: 'When the post was last changed, in the site\'s time zone.', type: 'string', format: 'date-time', context: VIEW_EDIT, readonly: true },
    modified_gmt: { description: 'When the post was last changed, in GMT.', type: 'string', format: 'date-time', context: VIEW_EDIT, readonly: true },
    slug: { description: 'An alphanumeric identifier, unique within the post type.', type: 'string', context: ALL },
    status: { description: 'The named status of the post.', type: 'string', enum: [...WRITABLE_STATUSES], context: VIEW_EDIT },
    type: { description: 'The post type.', type: 'string', context: ALL, readonly: true },
    password: { description: 'A password that protects the content and the excerpt.', type: 'string', context: EDIT },
    permalink_template: { description: 'The permalink pattern of the post.', type: 'string', context: EDIT, readonly: true },
    generated_slug: { description: 'The slug the title would give.', type: 'string', context: EDIT, readonly: true },
  };
  if (definition.hierarchical) {
    properties.parent = { description: 'The id of the parent post.', type: 'integer', context: VIEW_EDIT };
  }
  properties.title = renderedText('The title of the post.', ALL);
  properties.content = renderedText('The content of the post.', VIEW_EDIT, {
    block_version: { description: 'The version of the block format the content uses.', type: 'integer', context: EDIT, readonly: true },
    protected: { description: 'Whether a password protects the content.', type: 'boolean', context: ALL, readonly: true },
  });
  properties.author = { description: 'The id of the post\'s author.', type: 'integer', context: ALL };
  properties.excerpt = renderedText('The excerpt of the post.', ALL, {
    protected: { description: 'Whether a password protects the excerpt.', type: 'boolean', context: ALL, readonly: true },
  });
  properties.featured_media = { description: 'The id of the post\'s featured image.', type: 'integer', context: ALL };
  properties.comment_status = { description: 'Whether comments are open.', type: 'string', enum: ['open', 'closed'], context: VIEW_EDIT };
  properties.ping_status = { description: 'Whether pings are accepted.', type: 'string', enum: ['open', 'closed'], context: VIEW_EDIT };
  if (definition.supportsPageAttributes) {
    properties.menu_order = { description: 'The position of the post among its siblings.', type: 'integer', context: VIEW_EDIT };
  }
  if (definition.supportsFormats) {
    properties.format = { description: 'The format of the post.', type: 'string', enum: [...POST_FORMATS], context: VIEW_EDIT };
  }
  properties.meta = META_SCHEMA;
  if (definition.supportsSticky) {
    properties.sticky = { description: 'Whether the post is sticky.', type: 'boolean', context: VIEW_EDIT };
  }
  properties.template = { description: 'The theme template that displays the post.', type: 'string', context: VIEW_EDIT };
  for (const taxonomy of definition.taxonomies) {
    properties[taxonomy.restBase] = {
      description: `Terms of the ${taxonomy.taxonomy} taxonomy assigned to the post.`,
      type: 'array',
      items: { type: 'integer' },
      context: VIEW_EDIT,
    };
  }
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: definition.type,
    type: 'object',
    properties,
    links: schemaLinks(definition),
  };
}

/** The action relations an edit-context response may carry, described for clients. */
function schemaLinks(definition: PostTypeDefinition): unknown[] {
  const href = `{id}`;
  const action = (rel: string, title: string, properties: Record<string, unknown>) => ({
    rel: `https://api.w.org/${rel}`, title, href, targetSchema: { type: 'object', properties },
  });
  const links = [
    action('action-publish', 'The current user may publish this post.', { status: { type: 'string', enum: ['publish', 'future'] } }),
    action('action-unfiltered-html', 'The current user may post unfiltered HTML.', { content: { raw: { type: 'string' } } }),
  ];
  if (definition.supportsSticky) {
    links.push(action('action-sticky', 'The current user may make this post sticky.', { sticky: { type: 'boolean' } }));
  }
  links.push(action('action-assign-author', 'The current user may change the author of this post.', { author: { type: 'integer' } }));
  for (const taxonomy of definition.taxonomies) {
    const list = { [taxonomy.restBase]: { type: 'array', items: { type: 'integer' } } };
    links.push(action(`action-assign-${taxonomy.restBase}`, `The current user may assign terms of the ${taxonomy.taxonomy} taxonomy.`, list));
    links.push(action(`action-create-${taxonomy.restBase}`, `The current user may create terms of the ${taxonomy.taxonomy} taxonomy.`, list));
  }
  return links;
}
