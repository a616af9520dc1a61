/** `GET /search`: one kind of result (`type`), narrowed by `subtype`, paged, each result linked to its record. */
import type { CapabilityRules } from '../auth/index.js';
import type { ResolvedPostSettings } from '../content/post-type/index.js';
import type { HandlerResult, Item, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { collection } from '../core/response.js';
import type { Params } from '../core/args/define.js';
import { pageWindow, paging } from '../core/paging.js';
import type { StoragePort } from '../ports/storage.js';
import { ANY, type searchArgs } from './args.js';
import { SEARCH_HANDLERS, type SearchEnvironment } from './handlers-types.js';

export interface SearchDeps {
  readonly storage: StoragePort;
  readonly capabilityRules: CapabilityRules;
  readonly postSettings: Pick<ResolvedPostSettings, 'permalinkStructure'>;
}

export async function listSearchResults(context: RequestContext<Params<typeof searchArgs>>, deps: SearchDeps): Promise<HandlerResult> {
  const { params } = context;
  const handler = SEARCH_HANDLERS.find((candidate) => candidate.type === params.type);
  if (!handler) throw new CmsError('rest_search_invalid_type', 'Invalid type parameter.', 400);
  const asked = params.subtype;
  // `any` overrides the others; otherwise only this kind's own subtypes count.
  const subtypes = asked.includes(ANY) ? handler.subtypes : handler.subtypes.filter((subtype) => asked.includes(subtype));
  const { page, perPage } = pageWindow(params, 'post');
  const env: SearchEnvironment = {
    storage: deps.storage,
    capabilityRules: deps.capabilityRules,
    links: { storage: deps.storage, home: context.site.home, permalinkStructure: deps.postSettings.permalinkStructure, pageOnFront: context.site.pageOnFront },
    url: (path) => context.url(path),
  };
  const found = await handler.find({
    search: params.search ?? '',
    subtypes,
    // Ids past the largest safe integer name no record.
    include: params.include.filter(Number.isSafeInteger),
    exclude: params.exclude.filter(Number.isSafeInteger),
    page,
    perPage,
    loggedIn: context.user !== null,
  }, env);
  const pages = paging(found.total, page, perPage, { pastTheEnd: 'rest_search_invalid_page_number', previousUnclamped: true });
  const items: Item[] = [];
  for (const id of found.ids) {
    const { data, links } = await handler.describe(id, found.records.get(id), env);
    const shown: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(data)) if (context.wantsField(field)) shown[field] = value;
    const wantsLinks = context.wantsField('_links') || context.wantsField('_embedded');
    items.push(wantsLinks ? { data: shown, links: { ...links, collection: [{ href: context.url('/cms/v2/search') }] } } : { data: shown });
  }
  return collection(items, pages);
}
