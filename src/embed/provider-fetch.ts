/**
 * Asking a provider for a URL's oEmbed object (the reference's `WP_oEmbed::get_data`): the endpoint comes from the
 * trusted list, or from discovery when that is allowed; the request carries `maxwidth`, `maxheight`, `url`,
 * `dnt=1` and `format=json`, and is repeated with `format=xml` when the provider answers 501. Every request goes
 * through the HTTP client port, so the outbound rules (no private or loopback targets, checked redirects, size
 * and time caps) apply to each.
 */
import type { HttpClient } from '../ports/http-client.js';
import { discoverEndpoint } from './discovery.js';
import { trustedEndpoint, type OembedProvider } from './providers.js';
import { parseProviderXml } from './xml.js';

export interface ProviderLookup {
  http: HttpClient;
  providers: readonly OembedProvider[];
  home: string;
  timeoutMs: number;
}

export interface ProviderAnswer {
  data: Record<string, unknown>;
  /** Whether the URL is on the trusted list (its `html` is then served as sent). */
  trusted: boolean;
}

/** A provider answer is a small document; anything larger is refused. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const MAX_DEPTH = 32;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export async function fetchFromProvider(
  url: string, size: { width: number; height: number }, discover: boolean, lookup: ProviderLookup,
): Promise<ProviderAnswer | null> {
  const trusted = trustedEndpoint(url, lookup.providers, lookup.home);
  const endpoint = trusted ?? (discover ? await discoverEndpoint(url, lookup.http, lookup.timeoutMs) : null);
  if (endpoint === null) return null;
  const data = await fetchAnswer(endpoint, url, size, lookup);
  return data ? { data, trusted: trusted !== null } : null;
}

async function fetchAnswer(
  endpoint: string, url: string, size: { width: number; height: number }, lookup: ProviderLookup,
): Promise<Record<string, unknown> | null> {
  let request: URL;
  try {
    request = new URL(endpoint);
  } catch {
    return null;
  }
  request.searchParams.set('maxwidth', String(size.width));
  request.searchParams.set('maxheight', String(size.height));
  request.searchParams.set('url', url);
  request.searchParams.set('dnt', '1');
  for (const format of ['json', 'xml']) {
    request.searchParams.set('format', format);
    let response;
    try {
      response = await lookup.http.fetch({
        url: request.href,
        timeoutMs: lookup.timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
        headers: { accept: 'application/json, text/xml;q=0.9, application/xml;q=0.9' },
      });
    } catch {
      return null;
    }
    if (response.status === 501) continue;
    if (response.status < 200 || response.status >= 300) return null;
    return parseAnswer(new TextDecoder().decode(response.body));
  }
  return null;
}

/** A JSON object or an XML document; anything else (a list, a number, broken markup) is no answer. */
export function parseAnswer(text: string): Record<string, unknown> | null {
  const trimmed = text.trim();
  if (trimmed.startsWith('<')) return parseProviderXml(trimmed);
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const copy = safeCopy(parsed, 0);
  return copy === undefined ? null : (copy as Record<string, unknown>);
}

/** The parsed JSON without keys that name a prototype, and not deeper than a bound. */
function safeCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      const copy = safeCopy(item, depth + 1);
      if (copy === undefined) return undefined;
      items.push(copy);
    }
    return items;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (UNSAFE_KEYS.has(key)) continue;
    const inner = safeCopy(item, depth + 1);
    if (inner === undefined) return undefined;
    copy[key] = inner;
  }
  return copy;
}
