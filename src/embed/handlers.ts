/** The handlers of `GET /oembed/1.0/embed` and `GET /oembed/1.0/proxy`. */
import type { Params } from '../core/args/define.js';
import type { RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import type { AnswerSerializer } from '../core/registry.js';
import type { embedArgs, proxyArgs } from './args.js';
import { cacheKey } from './cache.js';
import { DEFAULT_EMBED_SIZE, fallbackEmbed } from './fallback-handlers.js';
import { findEmbeddablePost, isOwnHost } from './local.js';
import { postEmbedData } from './post-embed.js';
import { fetchFromProvider, type ProviderLookup } from './provider-fetch.js';
import { providerHtml } from './provider-html.js';
import type { OembedRuntime } from './runtime.js';
import { oembedXml } from './xml.js';

export function invalidUrl(): CmsError {
  return new CmsError('oembed_invalid_url', 'Not Found', 404);
}

/** One of this site's posts or pages as an oEmbed object. */
export async function embedPost(context: RequestContext<Params<typeof embedArgs>>, runtime: OembedRuntime): Promise<Record<string, unknown>> {
  const site = runtime.embedSite(context.site);
  const post = await findEmbeddablePost(context.params.url, site);
  if (!post) throw invalidUrl();
  return postEmbedData(post, context.params.maxwidth, site);
}

/**
 * Any URL's oEmbed object, in the reference's order: the cache; this site's own posts (never cached, never
 * fetched); the trusted providers, then discovery (never for this site's own host); the built-in handlers.
 * Failures that cost a fetch are cached briefly.
 */
export async function proxyEmbed(context: RequestContext<Params<typeof proxyArgs>>, runtime: OembedRuntime): Promise<Record<string, unknown>> {
  const { params } = context;
  const key = cacheKey(params, context.user?.id ?? 0);
  const cached = await runtime.cache.get(key);
  if (cached) {
    if (!cached.ok) throw invalidUrl();
    return cached.data;
  }

  const { url } = params;
  const width = params.maxwidth;
  const height = params.maxheight ?? null;
  const site = runtime.embedSite(context.site);
  const post = await findEmbeddablePost(url, site);
  if (post) return postEmbedData(post, width, site);
  // The site never fetches its own pages: an own URL that names no post can only be one of its media files.
  const ownHost = isOwnHost(url, context.site);

  const lookup = runtime.providerLookup(context.site);
  const size = { width, height: height ?? DEFAULT_EMBED_SIZE.height };
  const answer = ownHost ? null : await fetchFromProvider(url, size, params.discover !== false, lookup);
  if (answer) {
    const data = { ...answer.data, html: providerHtml(answer.data, url, answer.trusted) };
    await runtime.cache.set(key, { ok: true, data }, runtime.options.ttlMs);
    return data;
  }
  const fallback = await fallbackEmbed({ url, width, height: height ?? 0, lookup: (other, otherSize) => htmlFor(other, otherSize, lookup) });
  if (fallback) return fallback;
  if (!ownHost) await runtime.cache.set(key, { ok: false }, runtime.options.failureTtlMs);
  throw invalidUrl();
}

async function htmlFor(url: string, size: { width: number; height: number }, lookup: ProviderLookup): Promise<string | false | null> {
  const answer = await fetchFromProvider(url, size, true, lookup);
  return answer ? providerHtml(answer.data, url, answer.trusted) : null;
}

/**
 * `format=xml` on a GET of the embed route: the answer (data or error) as the reference's XML document, the status
 * kept; 501 "Not Implemented" when no document can be made of it. Any other format value is JSON.
 */
export const embedXml: AnswerSerializer = (answer, request) => {
  if (request.method !== 'GET' || request.params.format !== 'xml') return null;
  const xml = oembedXml(answer.body);
  if (xml === null) return { status: 501, contentType: 'text/plain; charset=UTF-8', body: 'Not Implemented' };
  return { contentType: 'text/xml; charset=UTF-8', body: xml };
};
