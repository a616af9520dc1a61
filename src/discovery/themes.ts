/**
 * `/themes`: the one theme this site has, always active and read-only. Editors read its `theme_supports` to decide
 * which controls they offer (featured images, post formats, wide alignment, the theme's editor styles).
 */
import type { Item, RequestContext } from '../core/context.js';
import type { JsonSchema } from '../core/args/schema.js';
import { POST_FORMATS } from '../content/post-type/index.js';

export interface ThemeFacts {
  stylesheet: string;
  template: string;
  name: string;
  description: string;
  version: string;
  textdomain: string;
  /** Each registered theme feature under its REST name, in the reference's registration order. */
  supports: Readonly<Record<string, unknown>>;
}

/** The features the reference registers for REST, with what this site answers for each (false: not supported). */
const SUPPORTS: Readonly<Record<string, unknown>> = {
  'align-wide': true,
  'automatic-feed-links': false,
  'block-templates': false,
  'block-template-parts': false,
  'custom-background': false,
  'custom-header': false,
  'custom-logo': false,
  'customize-selective-refresh-widgets': false,
  'dark-editor-style': false,
  'disable-custom-colors': false,
  'disable-custom-font-sizes': false,
  'disable-custom-gradients': false,
  'disable-layout-styles': false,
  'editor-color-palette': false,
  'editor-font-sizes': false,
  'editor-gradient-presets': false,
  'editor-styles': false,
  html5: false,
  formats: [...POST_FORMATS],
  'post-thumbnails': true,
  'responsive-embeds': true,
  'title-tag': false,
  'wp-block-styles': false,
};

export const ACTIVE_THEME: ThemeFacts = {
  stylesheet: 'quire',
  template: 'quire',
  name: 'quire',
  description: 'The presentation quire serves its content with.',
  version: '1.0',
  textdomain: 'quire',
  supports: SUPPORTS,
};

/** The reference decodes the stylesheet from the path before it looks the theme up. */
export function findTheme(stylesheet: unknown): ThemeFacts | undefined {
  if (typeof stylesheet !== 'string') return undefined;
  let decoded = stylesheet;
  try {
    decoded = decodeURIComponent(stylesheet);
  } catch {
    return undefined;
  }
  return decoded === ACTIVE_THEME.stylesheet ? ACTIVE_THEME : undefined;
}

type Shown = Pick<RequestContext, 'wantsField' | 'url'>;

const rich = (text: string) => ({ raw: text, rendered: text });

export function prepareTheme(theme: ThemeFacts, shown: Shown): Item {
  const want = shown.wantsField;
  const data: Record<string, unknown> = {};
  if (want('stylesheet')) data.stylesheet = theme.stylesheet;
  if (want('template')) data.template = theme.template;
  if (want('requires_php')) data.requires_php = '';
  if (want('requires_wp')) data.requires_wp = '';
  if (want('textdomain')) data.textdomain = theme.textdomain;
  if (want('version')) data.version = theme.version;
  if (want('screenshot')) data.screenshot = '';
  if (want('author')) data.author = rich('');
  if (want('author_uri')) data.author_uri = rich('');
  if (want('description')) data.description = rich(theme.description);
  if (want('is_block_theme')) data.is_block_theme = false;
  if (want('name')) data.name = rich(theme.name);
  if (want('tags')) data.tags = { raw: [], rendered: '' };
  if (want('theme_uri')) data.theme_uri = rich('');
  if (want('status')) data.status = 'active';
  if (want('theme_supports')) data.theme_supports = structuredClone(theme.supports);
  if (!want('_links') && !want('_embedded')) return { data };
  return {
    data,
    links: {
      self: [{ href: shown.url(`/cms/v2/themes/${theme.stylesheet}`) }],
      collection: [{ href: shown.url('/cms/v2/themes') }],
    },
  };
}

const readonlyField = (description: string, type: JsonSchema['type'], extra: JsonSchema = {}): JsonSchema => ({ description, type, readonly: true, ...extra });
const richField = (description: string, format?: string): JsonSchema => readonlyField(description, 'object', {
  properties: {
    raw: { description: `${description} As found in the theme header.`, type: 'string', ...(format ? { format } : {}) },
    rendered: { description: `${description} For display.`, type: 'string', ...(format ? { format } : {}) },
  },
});

/** Features whose value, when supported, is more than `true`: the type of that value. */
const VALUE_TYPES: Readonly<Record<string, 'object' | 'array'>> = {
  'custom-background': 'object', 'custom-header': 'object', 'custom-logo': 'object', 'editor-color-palette': 'array',
  'editor-font-sizes': 'array', 'editor-gradient-presets': 'array', html5: 'array', 'post-thumbnails': 'array',
};

function supportSchema(name: string): JsonSchema {
  if (name === 'formats') return { description: 'Post formats the theme supports.', type: 'array', items: { type: 'string', enum: [...POST_FORMATS] }, default: ['standard'] };
  const valueType = VALUE_TYPES[name];
  if (!valueType) return { description: `Whether the theme supports ${name}.`, type: 'boolean', default: false };
  return { description: `Whether, and how, the theme supports ${name}.`, type: ['boolean', valueType], default: false };
}

let themeSchema: JsonSchema | undefined;

export function themeItemSchema(): JsonSchema {
  themeSchema ??= {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'theme',
    type: 'object',
    properties: {
      stylesheet: readonlyField('The theme\'s stylesheet. This uniquely identifies the theme.', 'string'),
      template: readonlyField('The theme\'s template: the parent theme of a child theme, else the stylesheet.', 'string'),
      author: richField('The theme author.'),
      author_uri: richField('The website of the theme author.', 'uri'),
      description: richField('A description of the theme.'),
      is_block_theme: readonlyField('Whether the theme is a block-based theme.', 'boolean'),
      name: richField('The name of the theme.'),
      requires_php: readonlyField('The minimum PHP version required for the theme to work.', 'string'),
      requires_wp: readonlyField('The minimum WordPress version required for the theme to work.', 'string'),
      screenshot: readonlyField('The theme\'s screenshot URL.', 'string', { format: 'uri' }),
      tags: readonlyField('Tags indicating styles and features of the theme.', 'object', {
        properties: { raw: { type: 'array', items: { type: 'string' } }, rendered: { type: 'string' } },
      }),
      textdomain: readonlyField('The theme\'s text domain.', 'string'),
      theme_supports: readonlyField('Features supported by this theme.', 'object', {
        properties: Object.fromEntries(Object.keys(SUPPORTS).map((name) => [name, supportSchema(name)])),
      }),
      theme_uri: richField('The URI of the theme\'s webpage.', 'uri'),
      version: readonlyField('The theme\'s current version.', 'string'),
      status: { description: 'A named status for the theme.', type: 'string', enum: ['inactive', 'active'] },
    },
  } as JsonSchema;
  return themeSchema;
}
