/** Item schemas of `/types`, `/taxonomies` and `/statuses`: fields and the contexts each appears in. */
import type { JsonSchema } from '../core/args/schema.js';

const ALL = ['view', 'edit', 'embed'];
const VIEW_EDIT = ['view', 'edit'];
const EDIT = ['edit'];

type Schema = JsonSchema & { $schema: string; title: string; properties: Record<string, JsonSchema> };

const field = (description: string, type: JsonSchema['type'], context: string[], extra: JsonSchema = {}): JsonSchema =>
  ({ description, type, context, readonly: true, ...extra });

function schema(title: string, properties: Record<string, JsonSchema>): Schema {
  return { $schema: 'http://json-schema.org/draft-04/schema#', title, type: 'object', properties };
}

let typeSchema: Schema | undefined;
let taxonomySchema: Schema | undefined;
let statusSchema: Schema | undefined;

export function postTypeSchema(): Schema {
  typeSchema ??= schema('type', {
    capabilities: field('The capability names the post type is checked with.', 'object', EDIT),
    description: field('What the post type is for.', 'string', VIEW_EDIT),
    hierarchical: field('Whether records of the type may have parents.', 'boolean', VIEW_EDIT),
    viewable: field('Whether records of the type have public pages.', 'boolean', EDIT),
    labels: field('Names of the post type for display.', 'object', EDIT),
    name: field('The name of the post type.', 'string', ALL),
    slug: field('The identifier of the post type.', 'string', ALL),
    supports: field('The features the post type supports.', 'object', EDIT),
    has_archive: field('The archive slug, or false when the type has no archive.', ['string', 'boolean'], VIEW_EDIT),
    taxonomies: field('Taxonomies of the post type.', 'array', VIEW_EDIT, { items: { type: 'string' } }),
    rest_base: field('The route base of the post type.', 'string', ALL),
    rest_namespace: field('The namespace of the post type\'s routes.', 'string', ALL),
    visibility: field('Where the post type is shown.', 'object', EDIT, {
      properties: {
        show_ui: { description: 'Whether the type has an editing interface.', type: 'boolean' },
        show_in_nav_menus: { description: 'Whether records of the type can be picked for menus.', type: 'boolean' },
      },
    }),
    icon: field('The icon of the post type.', ['string', 'null'], ALL),
  });
  return typeSchema;
}

export function taxonomyItemSchema(): Schema {
  taxonomySchema ??= schema('taxonomy', {
    capabilities: field('The capability names the taxonomy is checked with.', 'object', EDIT),
    description: field('What the taxonomy is for.', 'string', VIEW_EDIT),
    hierarchical: field('Whether terms may have parents.', 'boolean', VIEW_EDIT),
    labels: field('Names of the taxonomy for display.', 'object', EDIT),
    name: field('The name of the taxonomy.', 'string', ALL),
    slug: field('The identifier of the taxonomy.', 'string', ALL),
    show_cloud: field('Whether a tag cloud of the taxonomy may be shown.', 'boolean', EDIT),
    types: field('Post types that use the taxonomy.', 'array', VIEW_EDIT, { items: { type: 'string' } }),
    rest_base: field('The route base of the taxonomy.', 'string', ALL),
    rest_namespace: field('The namespace of the taxonomy\'s routes.', 'string', ALL),
    visibility: field('Where the taxonomy is shown.', 'object', EDIT, {
      properties: {
        public: { description: 'Whether the taxonomy is meant for public use.', type: 'boolean' },
        publicly_queryable: { description: 'Whether the taxonomy can be queried publicly.', type: 'boolean' },
        show_ui: { description: 'Whether the taxonomy has an editing interface.', type: 'boolean' },
        show_admin_column: { description: 'Whether lists of posts show a column for the taxonomy.', type: 'boolean' },
        show_in_nav_menus: { description: 'Whether terms can be picked for menus.', type: 'boolean' },
        show_in_quick_edit: { description: 'Whether the quick edit panel shows the taxonomy.', type: 'boolean' },
      },
    }),
  });
  return taxonomySchema;
}

export function postStatusSchema(): Schema {
  statusSchema ??= schema('status', {
    name: field('The name of the status.', 'string', ['embed', 'view', 'edit']),
    private: field('Whether records in the status are private.', 'boolean', EDIT),
    protected: field('Whether records in the status are protected.', 'boolean', EDIT),
    public: field('Whether records in the status are shown publicly.', 'boolean', VIEW_EDIT),
    queryable: field('Whether records in the status can be queried publicly.', 'boolean', VIEW_EDIT),
    show_in_list: field('Whether lists of all records include the status.', 'boolean', EDIT),
    slug: field('The identifier of the status.', 'string', ['embed', 'view', 'edit']),
    date_floating: field('Whether records in the status may have floating publish dates.', 'boolean', VIEW_EDIT),
  });
  return statusSchema;
}
