/** `GET /search`: one kind of result (`type`), narrowed by `subtype`, paged, each result linked to its record. */
import type { ResolvedPostSettings } from '../content/post-type/index.js';
import type { HandlerResult, Item, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { collection } from '../core/response.js';
import { paging } from '../core/paging.js';
import type { StoragePort } from '../ports/storage.js';
import { ANY } from './args.js';
import { SEARCH_HANDLERS, type SearchEnvironment } from './handlers-types.js';

export interface SearchDeps {
  readonly storage: StoragePort;
  readonly postSettings: Pick<ResolvedPostSettings, 'permalinkStructure'>;
}

function integers(value: unknown): number[] {
  return (Array.isArray(value) ? value : []).map(Number).filter(Number.isSafeInteger);
}

export async function searchHandler(context: RequestContext, deps: SearchDeps): Promise<HandlerResult> {
  const handler = SEARCH_HANDLERS.find((candidate) => candidate.type === context.params.type);
  if (!handler) throw new CmsError('rest_search_invalid_type', 'Invalid type parameter.', 400);
  const asked = (Array.isArray(context.params.subtype) ? context.params.subtype : [context.params.subtype ?? ANY]).map(String);
  // `any` overrides the others; otherwise only this kind's own subtypes count.
  const subtypes = asked.includes(ANY) ? handler.subtypes : handler.subtypes.filter((subtype) => asked.includes(subtype));
  const page = Number(context.params.page) || 1;
  const perPage = Number(context.params.per_page) || 10;
  const env: SearchEnvironment = {
    storage: deps.storage,
    links: { storage: deps.storage, home: context.site.home, permalinkStructure: deps.postSettings.permalinkStructure, pageOnFront: context.site.pageOnFront },
    url: (path) => context.url(path),
  };
  const found = await handler.find({
    search: typeof context.params.search === 'string' ? context.params.search : '',
    subtypes,
    include: integers(context.params.include),
    exclude: integers(context.params.exclude),
    page,
    perPage,
    loggedIn: context.user !== null,
  }, env);
  const pages = Math.ceil(found.total / perPage);
  if (page > pages && found.total > 0) {
    throw new CmsError('rest_search_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  }
  const items: Item[] = [];
  for (const id of found.ids) {
    const { data, links } = await handler.describe(id, found.records.get(id), env);
    const shown: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(data)) if (context.wantsField(field)) shown[field] = value;
    const wantsLinks = context.wantsField('_links') || context.wantsField('_embedded');
    items.push(wantsLinks ? { data: shown, links: { ...links, collection: [{ href: context.url('/cms/v2/search') }] } } : { data: shown });
  }
  return collection(items, { ...paging(found.total, page, perPage), previousUnclamped: true });
}
