/**
 * The names the interface is served under. Resources always speak the neutral names (`cms/v2`, `forms/v1`…);
 * the registry and the link builder translate them to the names a host chose, so under `wordpress` every route,
 * link, index entry and batch path uses the reference's own names.
 */
export type NameScheme = 'neutral' | 'wordpress';

export interface Names {
  readonly scheme: NameScheme;
  /** The API root used when the host sets none. */
  readonly defaultApiRoot: string;
  /** The name a namespace is served under: `cms/v2` → `wp/v2` under `wordpress`. */
  namespace(name: string): string;
  /** An API path with its namespace renamed: `/cms/v2/posts/4` → `/wp/v2/posts/4`; other paths unchanged. */
  path(path: string): string;
}

/** A namespace: the neutral name resources are registered under, and the reference's, served under `wordpress`. */
export interface Namespace {
  readonly name: string;
  readonly wordpressName: string;
}

const declared: Namespace[] = [];

/** Declares a namespace, once; the index lists namespaces in the order they are declared here. */
function namespace(name: string, wordpressName = name): Namespace {
  const declaration = Object.freeze({ name, wordpressName });
  declared.push(declaration);
  return declaration;
}

/**
 * Every namespace the interface serves, each written once. A resource names its own in its declaration
 * (`defineResource({ namespace: FORMS, … })`, see resource.ts); the names below derive everything else (the
 * renames of `wordpress`, the order of the index), and the block editor's middleware (src/editor) reads them
 * without loading any resource.
 */
export const OEMBED = namespace('oembed/1.0');
export const FORMS = namespace('forms/v1', 'contact-form-7/v1');
export const SLIDER = namespace('slider', 'sliderrevolution');
export const MAILING = namespace('mailing/v1', 'mc4wp/v1');
export const CMS = namespace('cms/v2', 'wp/v2');
export const SITE_HEALTH = namespace('cms-site-health/v1', 'wp-site-health/v1');
export const BLOCK_EDITOR = namespace('cms-block-editor/v1', 'wp-block-editor/v1');
export const ABILITIES = namespace('cms-abilities/v1', 'wp-abilities/v1');
export const WEBHOOKS = namespace('webhooks/v1');

/** The declared namespaces, in the index's order. */
export const NAMESPACE_DECLARATIONS: readonly Namespace[] = Object.freeze(declared.slice());

/** Neutral namespace → the reference's name. Namespaces not declared keep their name (`batch/v1`). */
const WORDPRESS_NAMESPACES: Readonly<Record<string, string>> = Object.freeze(Object.assign(Object.create(null) as Record<string, string>,
  Object.fromEntries(NAMESPACE_DECLARATIONS.filter((ns) => ns.wordpressName !== ns.name).map((ns) => [ns.name, ns.wordpressName]))));

export const NEUTRAL_NAMES: Names = Object.freeze({
  scheme: 'neutral',
  defaultApiRoot: '/cms-json',
  namespace: (name: string) => name,
  path: (path: string) => path,
});

export const WORDPRESS_NAMES: Names = Object.freeze({
  scheme: 'wordpress',
  defaultApiRoot: '/wp-json',
  namespace: (name: string) => WORDPRESS_NAMESPACES[name] ?? name,
  path: (path: string) => renamePath(path, WORDPRESS_NAMESPACES),
});

/** The reference's namespace → the neutral name: the reverse of `WORDPRESS_NAMESPACES`. */
const NEUTRAL_NAMESPACES: Readonly<Record<string, string>> = Object.freeze(Object.assign(Object.create(null) as Record<string, string>,
  Object.fromEntries(Object.entries(WORDPRESS_NAMESPACES).map(([neutral, reference]) => [reference, neutral]))));

/** An API path in the reference's names, renamed to the neutral ones: `/wp/v2/posts/4` → `/cms/v2/posts/4`. */
export function neutralPath(path: string): string {
  return renamePath(path, NEUTRAL_NAMESPACES);
}

export function namesFor(scheme: NameScheme | undefined): Names {
  if (scheme === undefined || scheme === 'neutral') return NEUTRAL_NAMES;
  if (scheme === 'wordpress') return WORDPRESS_NAMES;
  throw new TypeError(`Unknown names '${String(scheme)}': use 'neutral' or 'wordpress'.`);
}

function renamePath(path: string, renames: Readonly<Record<string, string>>): string {
  if (!path.startsWith('/')) return path;
  const segments = path.slice(1).split('/');
  // Namespaces have one or two segments (`slider`, `cms/v2`); the longer one is tried first.
  for (const length of [2, 1]) {
    if (segments.length < length) continue;
    const renamed = renames[segments.slice(0, length).join('/')];
    if (renamed !== undefined) return ['', renamed, ...segments.slice(length)].join('/');
  }
  return path;
}
