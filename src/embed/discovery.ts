/**
 * oEmbed discovery: the page at the URL is fetched (its first 150 KB, through the safe HTTP client) and its head
 * is read with an HTML tokenizer for `<link type="application/json+oembed" href>` (preferred) or the XML types.
 */
import { htmlparser2 } from '../format/lazy-modules.js';
import type { HttpClient } from '../ports/http-client.js';

/** The reference reads no more of the page than this. */
export const DISCOVERY_BYTES = 150 * 1024;

const JSON_TYPE = 'application/json+oembed';
const XML_TYPES = new Set(['text/xml+oembed', 'application/xml+oembed']);

export async function discoverEndpoint(url: string, http: HttpClient, timeoutMs: number): Promise<string | null> {
  let body: Uint8Array;
  let pageUrl: string;
  try {
    const response = await http.fetch({
      url, timeoutMs, maxBytes: DISCOVERY_BYTES, truncate: true, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
    });
    body = response.body.subarray(0, DISCOVERY_BYTES);
    pageUrl = response.url;
  } catch {
    return null;
  }
  return findEndpointLink(new TextDecoder().decode(body), pageUrl);
}

/**
 * The endpoint a page's head advertises, made absolute against the page's address; JSON wins over XML. Links
 * after the head (once `</head>` or `<body>` is seen) do not count.
 */
export function findEndpointLink(html: string, pageUrl: string): string | null {
  let json: string | null = null;
  let xml: string | null = null;
  let done = false;
  const parser = new (htmlparser2().Parser)({
    onopentag(name, attributes) {
      if (done) return;
      if (name === 'body') {
        done = true;
        return;
      }
      if (name !== 'link') return;
      const type = (attributes.type ?? '').trim().toLowerCase();
      const href = absolute(attributes.href ?? '', pageUrl);
      if (href === null) return;
      if (type === JSON_TYPE) {
        json = href;
        done = true;
      } else if (XML_TYPES.has(type)) {
        xml ??= href;
      }
    },
    onclosetag(name) {
      if (name === 'head') done = true;
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  return json ?? xml;
}

function absolute(href: string, base: string): string | null {
  const trimmed = href.trim();
  if (trimmed === '') return null;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
