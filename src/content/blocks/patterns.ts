/**
 * `cms/v2/block-patterns/patterns` and `cms/v2/block-patterns/categories`: the block patterns and pattern
 * categories the inserter offers, read-only. The site registers no patterns of its own (it loads none from a
 * pattern directory and its theme ships none); the categories are the reference's core categories, and with
 * `source=user` the `wp_pattern_category` terms editors made for their reusable blocks.
 */
import { userCan, type CapabilityRules } from '../../auth/index.js';
import { args, type ArgSpec } from '../../core/args/define.js';
import type { JsonSchema } from '../../core/args/schema.js';
import type { HandlerResult, Item, PermissionResult, RequestContext } from '../../core/context.js';
import { forbidden } from '../../core/errors.js';
import { READABLE, type RouteTable } from '../../core/registry.js';
import { collection } from '../../core/response.js';
import type { StoragePort } from '../../ports/storage.js';
import { allTerms, compareText } from '../taxonomy/index.js';

export interface PatternDeps {
  readonly storage: StoragePort;
  readonly capabilityRules: CapabilityRules;
}

/** A registered block pattern, with the reference's registration keys. */
export interface BlockPattern {
  readonly name: string;
  readonly title: string;
  readonly content: string;
  readonly description?: string;
  readonly viewportWidth?: number;
  readonly inserter?: boolean;
  readonly categories?: readonly string[];
  readonly keywords?: readonly string[];
  readonly blockTypes?: readonly string[];
  readonly postTypes?: readonly string[];
  readonly templateTypes?: readonly string[];
  readonly source?: 'core' | 'plugin' | 'theme' | 'pattern-directory/core' | 'pattern-directory/theme' | 'pattern-directory/featured';
}

export interface PatternCategory {
  readonly name: string;
  readonly label: string;
  readonly description?: string;
}

/** The site's own patterns: none. */
export const REGISTERED_PATTERNS: readonly BlockPattern[] = [];

/** The reference's core pattern categories, in its order. `query` is registered but never listed. */
export const CORE_PATTERN_CATEGORIES: readonly PatternCategory[] = [
  { name: 'banner', label: 'Banners', description: 'Bold sections designed to showcase key content.' },
  { name: 'buttons', label: 'Buttons', description: 'Patterns that contain buttons and call to actions.' },
  { name: 'columns', label: 'Columns', description: 'Multi-column patterns with more complex layouts.' },
  { name: 'text', label: 'Text', description: 'Patterns containing mostly text.' },
  { name: 'query', label: 'Posts', description: 'Display your latest posts in lists, grids or other layouts.' },
  { name: 'featured', label: 'Featured', description: 'A set of high quality curated patterns.' },
  { name: 'call-to-action', label: 'Call to action', description: 'Sections whose purpose is to trigger a specific action.' },
  { name: 'team', label: 'Team', description: 'A variety of designs to display your team members.' },
  { name: 'testimonials', label: 'Testimonials', description: 'Share reviews and feedback about your brand/business.' },
  { name: 'services', label: 'Services', description: 'Briefly describe what your business does and how you can help.' },
  { name: 'contact', label: 'Contact', description: 'Display your contact information.' },
  { name: 'about', label: 'About', description: 'Introduce yourself.' },
  { name: 'portfolio', label: 'Portfolio', description: 'Showcase your latest work.' },
  { name: 'gallery', label: 'Gallery', description: 'Different layouts for displaying images.' },
  { name: 'media', label: 'Media', description: 'Different layouts containing video or audio.' },
  { name: 'videos', label: 'Videos', description: 'Different layouts containing videos.' },
  { name: 'audio', label: 'Audio', description: 'Different layouts containing audio.' },
  { name: 'posts', label: 'Posts', description: 'Display your latest posts in lists, grids or other layouts.' },
  { name: 'footer', label: 'Footers', description: 'A variety of footer designs displaying information and site navigation.' },
  { name: 'header', label: 'Headers', description: 'A variety of header designs displaying your site title and navigation.' },
];

/** Pattern categories renamed in the reference's 6.2; patterns still naming the old ones are answered with the new. */
const RENAMED_CATEGORIES: ReadonlyMap<string, string> = new Map([['buttons', 'call-to-action'], ['columns', 'text'], ['query', 'posts']]);

const ALL = ['view', 'edit', 'embed'];
const readonlyField = (description: string, type: string, extra: Partial<JsonSchema> = {}): JsonSchema =>
  ({ description, type, readonly: true, context: ALL, ...extra }) as JsonSchema;

export function patternSchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'block-pattern',
    type: 'object',
    properties: {
      name: readonlyField('The pattern name.', 'string'),
      title: readonlyField('The pattern title, in human readable format.', 'string'),
      content: readonlyField('The pattern content.', 'string'),
      description: readonlyField('The pattern detailed description.', 'string'),
      viewport_width: readonlyField('The pattern viewport width for inserter preview.', 'number'),
      inserter: readonlyField('Whether the pattern is shown in the inserter.', 'boolean'),
      categories: readonlyField('The pattern category slugs.', 'array'),
      keywords: readonlyField('The pattern keywords.', 'array'),
      block_types: readonlyField('Block types the pattern is meant for.', 'array'),
      post_types: readonlyField('Post types the pattern is restricted to.', 'array'),
      template_types: readonlyField('Template types the pattern fits.', 'array'),
      source: readonlyField('Where the pattern comes from.', 'string', {
        enum: ['core', 'plugin', 'theme', 'pattern-directory/core', 'pattern-directory/theme', 'pattern-directory/featured'],
      }),
    },
  } as JsonSchema;
}

export function patternCategorySchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'block-pattern-category',
    type: 'object',
    properties: {
      name: readonlyField('The category name.', 'string'),
      label: readonlyField('The category label, in human readable format.', 'string'),
      description: readonlyField('The category description, in human readable format.', 'string'),
      id: readonlyField('The id of a user category (a `wp_pattern_category` term).', 'number'),
    },
  } as JsonSchema;
}

function categoryArgs(): Record<string, ArgSpec> {
  return { source: args.array({ type: 'string' }, { description: 'Only categories from these sources: `core` and/or `user`.' }) };
}

/**
 * Whoever may edit records of some post type served here (the reference asks `edit_posts`, then each REST
 * post type's own `edit_posts`).
 */
function canReadPatterns(context: RequestContext, deps: PatternDeps, noun: string): PermissionResult {
  const rules = deps.capabilityRules;
  const can = (capability: string) => userCan(context.user, capability, undefined, rules);
  if (can('edit_posts')) return true;
  const editCapabilities = ['post', 'page', 'attachment', 'wp_block'].map((type) => rules.postTypes[type]?.edit_posts);
  if (editCapabilities.some((capability) => capability !== undefined && can(capability))) return true;
  return forbidden(context.user, 'rest_cannot_view', `Sorry, you are not allowed to view the registered ${noun}.`);
}

function preparePattern(pattern: BlockPattern): Item {
  const data: Record<string, unknown> = { name: pattern.name, title: pattern.title, content: pattern.content };
  const optional: [string, unknown][] = [
    ['description', pattern.description], ['viewport_width', pattern.viewportWidth], ['inserter', pattern.inserter],
    ['categories', pattern.categories?.map((slug) => RENAMED_CATEGORIES.get(slug) ?? slug)], ['keywords', pattern.keywords],
    ['block_types', pattern.blockTypes], ['post_types', pattern.postTypes], ['template_types', pattern.templateTypes],
    ['source', pattern.source],
  ];
  for (const [field, value] of optional) if (value !== undefined) data[field] = value;
  return { data };
}

function listPatterns(): HandlerResult {
  return collection(REGISTERED_PATTERNS.map(preparePattern));
}

/** The user categories first (by name), then the core ones not labelled like one of them, `query` left out. */
async function listPatternCategories(context: RequestContext, deps: PatternDeps): Promise<HandlerResult> {
  const source = Array.isArray(context.params.source) ? context.params.source.map(String) : null;
  const items: Item[] = [];
  const userLabels = new Set<string>();
  if (source?.includes('user')) {
    const terms = [...await allTerms(deps.storage, 'wp_pattern_category')].sort((a, b) => compareText(a.name, b.name));
    for (const term of terms) {
      items.push({ data: { name: term.slug, label: term.name, description: term.description, id: term.id } });
      userLabels.add(term.name);
    }
  }
  if (source === null || source.includes('core')) {
    for (const category of CORE_PATTERN_CATEGORIES) {
      if (category.name === 'query' || userLabels.has(category.label)) continue;
      const data: Record<string, unknown> = { name: category.name, label: category.label };
      if (category.description !== undefined) data.description = category.description;
      items.push({ data });
    }
  }
  return collection(items);
}

export function patternRoutes(deps: PatternDeps): RouteTable {
  return [
    { path: '/block-patterns/patterns', schema: patternSchema, endpoints: [
      { methods: READABLE, args: {}, permission: (c) => canReadPatterns(c, deps, 'block patterns'), handler: listPatterns },
    ] },
    { path: '/block-patterns/categories', schema: patternCategorySchema, endpoints: [
      { methods: READABLE, args: categoryArgs(), permission: (c) => canReadPatterns(c, deps, 'block pattern categories'), handler: (c) => listPatternCategories(c, deps) },
    ] },
  ];
}
