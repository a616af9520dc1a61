/**
 * A revision record (or, for an autosave that updated a draft in place, the post itself) → the response fields
 * of every context, in the reference's order, with the `parent` link.
 */
import type { Item, Links, RequestContext } from '../../core/context.js';
import type { StoragePort } from '../../ports/storage.js';
import { phpTrim } from '../../format/php.js';
import { renderExcerpt, renderTitle } from '../render/index.js';
import { postsIn, renderedContentAsync, renderedExcerptAsync, REST_BASES, type PostRecord, type PostType } from '../post-type/index.js';

export interface RevisionPrepareOptions {
  /** Whether `_fields` asks for a top-level field. */
  wantsField(field: string): boolean;
  url(path: string, query?: Record<string, unknown>): string;
  /** The API path of a post, e.g. `/cms/v2/pages/4`. */
  routeOfPost(id: number): Promise<string>;
  /** Whether the item schema has an excerpt (the parent type's). */
  hasExcerpt: boolean;
}

/** Resolves post routes for one request, reading each post's type once. */
export function postRouteResolver(storage: StoragePort, fallbackBase: string): (id: number) => Promise<string> {
  const known = new Map<number, Promise<string>>();
  return (id) => {
    let route = known.get(id);
    if (!route) {
      route = postsIn(storage).get(id).then((record) => {
        const base = record ? REST_BASES[record.type] ?? fallbackBase : fallbackBase;
        return `/cms/v2/${base}/${id}`;
      });
      known.set(id, route);
    }
    return route;
  };
}

/** Options for one request's responses. */
export function revisionPrepareOptions(context: RequestContext, postType: PostType): RevisionPrepareOptions {
  return {
    wantsField: context.wantsField,
    url: context.url,
    routeOfPost: context.memo('revisions:post-routes', () => postRouteResolver(postType.deps.storage, postType.definition.restBase)),
    hasExcerpt: postType.schema.properties.excerpt !== undefined,
  };
}

/** The reference shows no date while the stored GMT date is unset (a floating draft). */
const dateOrNull = (gmt: string | null | undefined, shown: string): string | null => (gmt ? shown : null);

export async function prepareRevision(record: PostRecord, options: RevisionPrepareOptions): Promise<Item> {
  const want = options.wantsField;
  const data: Record<string, unknown> = {};
  if (want('author')) data.author = record.author;
  if (want('date')) data.date = dateOrNull(record.date_gmt, record.date);
  if (want('date_gmt')) data.date_gmt = record.date_gmt ?? null;
  if (want('id')) data.id = record.id;
  if (want('modified')) data.modified = dateOrNull(record.modified_gmt, record.modified);
  if (want('modified_gmt')) data.modified_gmt = record.modified_gmt ?? null;
  if (want('parent')) data.parent = record.parent;
  if (want('slug')) data.slug = record.slug;
  if (want('guid')) data.guid = { rendered: record.guid, raw: record.guid };
  if (want('title')) {
    // Unlike post responses, revision titles keep the "Protected: " prefix, as the reference's do.
    const rendered = renderTitle(record.title, { status: record.status, hasPassword: record.password !== '', protectedPrefix: true });
    data.title = { raw: record.title, rendered };
  }
  // Rendered as a post's are (large texts on a worker thread, cached), to the same text as `renderContent`.
  if (want('content')) data.content = { raw: record.content, rendered: await renderedContentAsync(record.content) };
  if (options.hasExcerpt && want('excerpt')) {
    // A stored excerpt renders without the content; a blank one is never generated from it.
    const rendered = phpTrim(record.excerpt) === ''
      ? renderExcerpt(record.excerpt, record.content, { generateFromContent: false })
      : await renderedExcerptAsync(record.excerpt, '', undefined);
    data.excerpt = { raw: record.excerpt, rendered };
  }
  if (record.parent <= 0 || (!want('_links') && !want('_embedded'))) return { data };
  const links: Links = { parent: [{ href: options.url(await options.routeOfPost(record.parent)) }] };
  return { data, links };
}
