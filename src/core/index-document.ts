import { argForIndex } from './args/define.js';
import { args } from './args/define.js';
import type { HandlerResult, Links, RequestContext } from './context.js';
import { CmsError } from './errors.js';
import { deepFreeze } from './freeze.js';
import { allowAnyone, type EndpointDefinition, type Registry, type Route, type RouteOptions } from './registry.js';
import { item } from './response.js';

const HELP_URL = 'https://developer.wordpress.org/rest-api/';

/** Schemas print empty maps as `[]`, as the reference's PHP arrays do (`"properties": []`). */
export function emptyMapsAsLists(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(emptyMapsAsLists);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 0) return [];
  return Object.fromEntries(entries.map(([key, child]) => [key, emptyMapsAsLists(child)]));
}

interface RouteDescription {
  namespace: string;
  methods: string[];
  endpoints: Record<string, unknown>[];
}

/** Route descriptions depend only on the definitions, so each is built once; links are added per site. */
const descriptions = new WeakMap<Route, RouteDescription | null>();
const schemas = new WeakMap<Route, unknown>();

function baseDescription(route: Route): RouteDescription | null {
  if (descriptions.has(route)) return descriptions.get(route)!;
  const shown = route.endpoints.filter((endpoint) => endpoint.showInIndex);
  const description = shown.length === 0 ? null : {
    namespace: route.namespace,
    methods: shown.flatMap((endpoint) => endpoint.methods),
    endpoints: shown.map((endpoint) => {
      const entry: Record<string, unknown> = { methods: endpoint.methods };
      if (endpoint.allowBatch) entry.allow_batch = { v1: true };
      entry.args = endpoint.args.size === 0
        ? []
        : Object.fromEntries([...endpoint.args].map(([name, compiled]) => [name, emptyMapsAsLists(argForIndex(compiled))]));
      return entry;
    }),
  };
  descriptions.set(route, deepFreeze(description));
  return description;
}

function helpSchema(route: Route): unknown {
  if (!schemas.has(route)) schemas.set(route, deepFreeze(emptyMapsAsLists(route.schema!())));
  return schemas.get(route);
}


/** A route as the index describes it; `schema` only in help context. */
export function describeRoute(route: Route, context: string, site: RequestContext['site']): Record<string, unknown> | null {
  const base = baseDescription(route);
  if (!base) return null;
  const description: Record<string, unknown> = { ...base };
  if (context === 'help' && route.schema) description.schema = helpSchema(route);
  const self = selfPath(route);
  if (self !== null) description._links = { self: [{ href: site.apiLink(self) }] };
  return description;
}

/**
 * The path a route description links to, or null. As the reference's `get_data_for_route` (index, namespace
 * roots and OPTIONS alike): each named group becomes `{name}`, and a route where a `{` remains has no link.
 */
function selfPath(route: Route): string | null {
  const path = route.pattern.replace(/\(\?P<(\w+?)>.*?\)/g, '{$1}');
  return path.includes('{') ? null : path;
}

function describeRoutes(routes: readonly Route[], context: string, site: RequestContext['site']): Record<string, unknown> {
  const described: Record<string, unknown> = {};
  for (const route of routes) {
    const description = describeRoute(route, context, site);
    if (description) described[route.pattern] = description;
  }
  return described;
}

/** Registers `GET /` (the index); namespace roots are added by `namespaceRoot` when a namespace is declared. */
export function registerIndex(registry: Registry): void {
  registry.add('', '/', [{
    methods: ['GET'],
    args: { context: args.untyped({ default: 'view' }) },
    permission: allowAnyone,
    handler: (context) => readIndex(context, registry),
  }], { cache: { varies: 'nothing' } });
}

function readIndex(context: RequestContext, registry: Registry): HandlerResult {
  const { site } = context;
  const data: Record<string, unknown> = {
    name: site.name,
    description: site.description,
    url: site.url,
    home: site.home,
    gmt_offset: String(site.gmtOffset),
    timezone_string: site.timezone,
    page_for_posts: site.pageForPosts,
    page_on_front: site.pageOnFront,
    show_on_front: site.showOnFront,
    namespaces: [...registry.namespaces],
    authentication: { 'application-passwords': { endpoints: { authorization: site.authorizationUrl } } },
    routes: describeRoutes(registry.routes, textParam(context.params.context, 'view'), site),
    site_logo: site.siteLogo,
    site_icon: site.siteIcon,
    site_icon_url: site.siteIconUrl,
  };
  const links: Links = { help: [{ href: HELP_URL }] };
  const media = [
    ['site_logo', site.siteLogo],
    ['site_icon', site.siteIcon],
  ] as const;
  for (const [type, id] of media) {
    if (id > 0) {
      (links['https://api.w.org/featuredmedia'] ??= []).push({ embeddable: true, type, href: site.apiLink(`/cms/v2/media/${id}`) });
    }
  }
  // `_fields` selects `_links` here as everywhere else (the reference keeps the index's links whatever it asks).
  return item({ data, links });
}

/** An untyped parameter as text; a bracketed one (a list or map) names nothing, as its fallback does not. */
function textParam(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  return typeof value === 'object' ? '' : String(value);
}

/** The root route of a namespace: `GET /{namespace}` listing its routes. */
export function namespaceRoot(registry: Registry): (namespace: string) => [EndpointDefinition[], RouteOptions?] {
  return (namespace) => [[{
    methods: ['GET'],
    args: {
      namespace: args.untyped({ default: namespace }),
      context: args.untyped({ default: 'view' }),
    },
    permission: allowAnyone,
    handler: (context) => {
      const requested = textParam(context.params.namespace, namespace);
      const routes = typeof context.params.namespace === 'object' ? undefined : registry.routesOf(requested);
      if (!routes) {
        throw new CmsError('rest_invalid_namespace', 'The specified namespace could not be found.', 404);
      }
      const data = {
        namespace: requested,
        routes: describeRoutes(routes, textParam(context.params.context, 'view'), context.site),
      };
      return item({ data, links: { up: [{ href: context.site.apiLink('/') }] } });
    },
  }], { cache: { varies: 'nothing' } }];
}
