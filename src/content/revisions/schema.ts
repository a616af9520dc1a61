/** The item schema of a post type's revisions: their own fields plus the parent type's guid, title, content and excerpt. */
import type { JsonSchema } from '../../core/args/schema.js';
import type { ItemSchema } from '../post-type/index.js';

const ALL = ['view', 'edit', 'embed'];
const VIEW_EDIT = ['view', 'edit'];

export function buildRevisionSchema(type: string, parentSchema: ItemSchema): ItemSchema {
  const properties: Record<string, JsonSchema> = {
    author: { description: 'The id of the user who made the revision.', type: 'integer', context: ALL },
    date: { description: 'When the revision was made, in the site\'s time zone.', type: 'string', format: 'date-time', context: ALL },
    date_gmt: { description: 'When the revision was made, in GMT.', type: 'string', format: 'date-time', context: VIEW_EDIT },
    guid: { description: 'The globally unique identifier of the revision.', type: 'string', context: VIEW_EDIT },
    id: { description: 'Unique identifier of the revision.', type: 'integer', context: ALL },
    modified: { description: 'When the revision was last changed, in the site\'s time zone.', type: 'string', format: 'date-time', context: VIEW_EDIT },
    modified_gmt: { description: 'When the revision was last changed, in GMT.', type: 'string', format: 'date-time', context: VIEW_EDIT },
    parent: { description: 'The id of the post the revision belongs to.', type: 'integer', context: ALL },
    slug: { description: 'An alphanumeric identifier of the revision.', type: 'string', context: ALL },
  };
  for (const field of ['title', 'content', 'excerpt', 'guid']) {
    const inherited = parentSchema.properties[field];
    if (inherited) properties[field] = inherited;
  }
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: `${type}-revision`,
    type: 'object',
    properties,
  };
}
