/**
 * The three kinds of search result (the reference's search handlers): published posts and pages, terms of the
 * public taxonomies, and post formats in use. Each finds a page of ids with a total, and describes one id.
 */
import type { CapabilityRules } from '../auth/index.js';
import {
  permalinkOf, isPostRecord, POSTS_COLLECTION, REST_BASES, parseSearch, publicStatusCondition, relevanceRank, textSearch, type LinkEnvironment, type PostRecord,
} from '../content/post-type/index.js';
import { renderTitle } from '../content/render/index.js';
import { allTerms, compareText, type TermRecord } from '../content/taxonomy/index.js';
import type { Links } from '../core/context.js';
import type { Condition, ListQuery, SortKey, StoragePort } from '../ports/storage.js';
import { pageOffset } from '../core/paging.js';

export interface SearchRequest {
  search: string;
  subtypes: readonly string[];
  include: readonly number[];
  exclude: readonly number[];
  page: number;
  perPage: number;
  /** Whether someone is logged in: a logged-out search never finds password-protected posts. */
  loggedIn: boolean;
}

export interface SearchEnvironment {
  storage: StoragePort;
  capabilityRules: CapabilityRules;
  links: LinkEnvironment;
  url(path: string): string;
}

export interface SearchHandler {
  type: string;
  subtypes: readonly string[];
  find(request: SearchRequest, env: SearchEnvironment): Promise<{ ids: (number | string)[]; total: number; records: Map<number | string, unknown> }>;
  describe(id: number | string, record: unknown, env: SearchEnvironment): Promise<{ data: Record<string, unknown>; links: Links }>;
}

export const postSearch: SearchHandler = {
  type: 'post',
  subtypes: ['post', 'page'],
  async find(request, env) {
    const where: Condition[] = [
      { field: 'type', op: 'in', values: [...request.subtypes] },
      publicStatusCondition(env.capabilityRules),
    ];
    if (request.include.length > 0) where.push({ field: 'id', op: 'in', values: [...request.include] });
    if (request.exclude.length > 0) where.push({ field: 'id', op: 'notIn', values: [...request.exclude] });
    const query: ListQuery = { where, offset: pageOffset(request.page, request.perPage), limit: request.perPage, withTotal: true };
    const orderBy: SortKey[] = [];
    if (request.search !== '') {
      const parsed = parseSearch(request.search);
      query.search = textSearch(parsed, ['title', 'excerpt', 'content'], false);
      if (!request.loggedIn) where.push({ field: 'password', op: 'eq', value: '' });
      const ranks = relevanceRank(parsed, false);
      if (ranks.length > 0) orderBy.push({ rank: ranks });
    }
    orderBy.push({ field: 'date', direction: 'desc' });
    query.orderBy = orderBy;
    const { items, total } = await env.storage.list(POSTS_COLLECTION, query);
    const posts = items.filter(isPostRecord);
    // As the reference's post query, an empty page counts nothing: a page past the end is an empty list, not an error.
    return { ids: posts.map((post) => post.id), total: items.length === 0 ? 0 : total ?? 0, records: new Map(posts.map((post) => [post.id, post])) };
  },
  async describe(id, record, env) {
    const post = record as PostRecord;
    const data = {
      id: post.id,
      // The protected prefix is left off, as the reference's search does.
      title: renderTitle(post.title, { status: post.status, hasPassword: post.password !== '' }),
      url: await permalinkOf(post, env.links),
      type: 'post',
      subtype: post.type,
    };
    const links: Links = {};
    const base = REST_BASES[post.type];
    if (base) links.self = [{ embeddable: true, href: env.url(`/cms/v2/${base}/${id}`) }];
    links.about = [{ href: env.url(`/cms/v2/types/${post.type}`) }];
    return { data, links };
  },
};

const TERM_BASES: Readonly<Record<string, { rest: string; archive: string; query: string }>> = {
  category: { rest: 'categories', archive: 'category', query: 'cat' },
  post_tag: { rest: 'tags', archive: 'tag', query: 'tag' },
};

function termLink(term: TermRecord, byId: Map<number, TermRecord>, env: SearchEnvironment): string {
  const bases = TERM_BASES[term.taxonomy]!;
  if (env.links.permalinkStructure === '') {
    return `${env.links.home}/?${bases.query}=${term.taxonomy === 'category' ? term.id : encodeURIComponent(term.slug)}`;
  }
  const path = [term.slug];
  const seen = new Set([term.id]);
  for (let parent = byId.get(term.parent); parent && !seen.has(parent.id); parent = byId.get(parent.parent)) {
    seen.add(parent.id);
    path.unshift(parent.slug);
  }
  return `${env.links.home}/${bases.archive}/${path.join('/')}/`;
}

export const termSearch: SearchHandler = {
  type: 'term',
  subtypes: ['category', 'post_tag'],
  async find(request, env) {
    const needle = request.search.toLowerCase();
    const byId = new Map<number, TermRecord>();
    let terms: TermRecord[] = [];
    for (const taxonomy of request.subtypes) {
      if (taxonomy !== 'category' && taxonomy !== 'post_tag') continue;
      for (const term of await allTerms(env.storage, taxonomy)) {
        byId.set(term.id, term);
        terms.push(term);
      }
    }
    // As the reference's term query: `include` wins over `exclude`; the search reads names and slugs.
    if (request.include.length > 0) terms = terms.filter((term) => request.include.includes(term.id));
    else if (request.exclude.length > 0) terms = terms.filter((term) => !request.exclude.includes(term.id));
    if (needle !== '') terms = terms.filter((term) => term.name.toLowerCase().includes(needle) || term.slug.toLowerCase().includes(needle));
    terms.sort((a, b) => compareText(a.name, b.name) || a.id - b.id);
    const page = terms.slice((request.page - 1) * request.perPage, request.page * request.perPage);
    return { ids: page.map((term) => term.id), total: terms.length, records: new Map(page.map((term) => [term.id, { term, byId }])) };
  },
  async describe(id, record, env) {
    const { term, byId } = record as { term: TermRecord; byId: Map<number, TermRecord> };
    const data = { id, title: term.name, url: termLink(term, byId, env), type: term.taxonomy };
    const links: Links = {
      self: [{ embeddable: true, href: env.url(`/cms/v2/${TERM_BASES[term.taxonomy]!.rest}/${term.id}`) }],
      about: [{ href: env.url(`/cms/v2/taxonomies/${term.taxonomy}`) }],
    };
    return { data, links };
  },
};

const FORMAT_NAMES: readonly [string, string][] = [
  ['aside', 'Aside'], ['chat', 'Chat'], ['gallery', 'Gallery'], ['link', 'Link'], ['image', 'Image'],
  ['quote', 'Quote'], ['status', 'Status'], ['video', 'Video'], ['audio', 'Audio'],
];

export const postFormatSearch: SearchHandler = {
  type: 'post-format',
  subtypes: [],
  async find(request, env) {
    const needle = request.search.toLowerCase();
    const found: string[] = [];
    for (const [slug, name] of FORMAT_NAMES) {
      if (needle !== '' && !slug.includes(needle) && !name.toLowerCase().includes(needle)) continue;
      // A format has an archive once some post has used it.
      const { items } = await env.storage.list(POSTS_COLLECTION, { where: [{ field: 'format', op: 'eq', value: slug }], limit: 1 });
      if (items.length > 0) found.push(slug);
    }
    const page = found.slice((request.page - 1) * request.perPage, request.page * request.perPage);
    return { ids: page, total: found.length, records: new Map() };
  },
  async describe(id, _record, env) {
    const slug = String(id);
    const name = FORMAT_NAMES.find(([candidate]) => candidate === slug)?.[1] ?? slug;
    const url = env.links.permalinkStructure === '' ? `${env.links.home}/?post_format=${slug}` : `${env.links.home}/type/${slug}/`;
    return { data: { id: slug, title: name, url, type: 'post-format' }, links: {} };
  },
};

export const SEARCH_HANDLERS: readonly SearchHandler[] = [postSearch, termSearch, postFormatSearch];
