/** The in-process oEmbed API (`cms.oembed`): what a host's front end needs without an HTTP round trip. */
import { permalinkOf, isPostRecord, POSTS_COLLECTION } from '../content/post-type/index.js';
import { resolveSite } from '../core/site.js';
import { escapeUrl } from './escape.js';
import { findEmbeddablePost, isPubliclyViewable, linkEnvironment } from './local.js';
import { embedUrlOf, postEmbedData } from './post-embed.js';
import type { OembedRuntime } from './runtime.js';

export interface OembedDiscoveryLinks {
  /** The JSON endpoint for the post: `{api}/oembed/1.0/embed?url={permalink}`. */
  json: string;
  /** The same with `&format=xml`. */
  xml: string;
  /** The two `<link rel="alternate" …>` elements for the page head. */
  html: string;
  /** The same links as an HTTP `Link` header value. */
  header: string;
  /** The post's public address. */
  permalink: string;
  /** The page the embed frame shows (`{permalink}embed/`), which the host's front end serves. */
  embedUrl: string;
}

export interface OembedApi {
  /** Discovery links of a post or page; null when it does not exist or may not be embedded. */
  discoveryLinks(postId: number, requestApiUrl?: string): Promise<OembedDiscoveryLinks | null>;
  /** The oEmbed object for one of this site's URLs, as `GET /oembed/1.0/embed` answers it; null when not found. */
  embed(url: string, maxwidth?: number, requestApiUrl?: string): Promise<Record<string, unknown> | null>;
}

export function oembedApi(runtime: OembedRuntime): OembedApi {
  const siteFor = (requestApiUrl?: string) => runtime.embedSite(resolveSite(runtime.deps.site, requestApiUrl, runtime.deps.names));
  return {
    async discoveryLinks(postId, requestApiUrl) {
      if (!Number.isSafeInteger(postId) || postId <= 0) return null;
      const site = siteFor(requestApiUrl);
      const post = await site.storage.get(POSTS_COLLECTION, postId);
      if (!isPostRecord(post) || !isPubliclyViewable(post, site.capabilityRules)) return null;
      const permalink = await permalinkOf(post, linkEnvironment(site));
      const json = site.site.apiLink('/oembed/1.0/embed', { url: permalink });
      const xml = site.site.apiLink('/oembed/1.0/embed', { url: permalink, format: 'xml' });
      return {
        json,
        xml,
        html: `<link rel="alternate" type="application/json+oembed" href="${escapeUrl(json)}" />\n`
          + `<link rel="alternate" type="text/xml+oembed" href="${escapeUrl(xml)}" />\n`,
        header: `<${json}>; rel="alternate"; type="application/json+oembed", <${xml}>; rel="alternate"; type="text/xml+oembed"`,
        permalink,
        embedUrl: await embedUrlOf(permalink, site),
      };
    },
    async embed(url, maxwidth = 600, requestApiUrl) {
      const site = siteFor(requestApiUrl);
      const post = await findEmbeddablePost(url, site);
      return post ? postEmbedData(post, maxwidth, site) : null;
    },
  };
}
