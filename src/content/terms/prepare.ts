/** A term → its response fields and links (the parent, the taxonomy, the posts carrying it). */
import type { Item, Links, RequestContext } from '../../core/context.js';
import { REST_BASES } from '../post-type/index.js';
import type { TermRecord } from '../taxonomy/index.js';
import type { TermType } from './deps.js';
import { CMS } from '../../core/names.js';

const NAMESPACE = CMS.name;

/** Parent first, then its parent, and so on (stopping at a missing term or a loop). */
async function ancestorsOf(term: TermRecord, lookup: (id: number) => Promise<TermRecord | null>): Promise<TermRecord[]> {
  const ancestors: TermRecord[] = [];
  const seen = new Set([term.id]);
  for (let id = term.parent; id > 0 && !seen.has(id); ) {
    seen.add(id);
    const parent = await lookup(id);
    if (!parent) break;
    ancestors.push(parent);
    id = parent.parent;
  }
  return ancestors;
}

/**
 * The public archive URL: `{home}/category/{ancestor slugs/}{slug}/`, `{home}/tag/{slug}/`; a taxonomy without
 * archives links by query, `{home}/?taxonomy={name}&term={slug}`.
 */
function publicLink(context: RequestContext, terms: TermType, term: TermRecord, ancestors: TermRecord[]): string {
  const home = context.site.home.replace(/\/+$/, '');
  const { definition } = terms;
  if (definition.archiveBase === null) return `${home}/?taxonomy=${definition.name}&term=${term.slug}`;
  const path = definition.hierarchical ? [...ancestors].reverse().map((ancestor) => ancestor.slug).concat(term.slug) : [term.slug];
  return `${home}/${definition.archiveBase}/${path.join('/')}/`;
}

export async function prepareTerm(
  context: RequestContext, terms: TermType, term: TermRecord, lookup: (id: number) => Promise<TermRecord | null>,
): Promise<Item> {
  const { definition } = terms;
  const ancestors = await ancestorsOf(term, lookup);
  const data: Record<string, unknown> = {
    id: term.id,
    count: term.count,
    description: term.description,
    link: publicLink(context, terms, term, ancestors),
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
  };
  if (definition.hierarchical) data.parent = term.parent;
  data.meta = Object.keys(term.meta).length > 0 ? term.meta : [];

  const base = `/${NAMESPACE}/${definition.restBase}`;
  const links: Links = {
    self: [{ href: context.url(`${base}/${term.id}`) }],
    collection: [{ href: context.url(base) }],
    about: [{ href: context.url(`/${NAMESPACE}/taxonomies/${term.taxonomy}`) }],
  };
  if (term.parent > 0 && ancestors[0]?.id === term.parent) {
    links.up = [{ embeddable: true, href: context.url(`${base}/${term.parent}`) }];
  }
  links['https://api.w.org/post_type'] = definition.objectTypes.map((type) => ({
    href: context.url(`/${NAMESPACE}/${REST_BASES[type] ?? type}`, { [definition.restBase]: term.id }),
  }));
  return { data, links };
}
