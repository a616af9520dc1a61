/**
 * Exporting the site as a WXR 1.2 file, as WordPress's `export.php` does for "all content": the channel, the
 * authors of the exported records, every category (parents before children) and tag, then posts, pages and
 * attachments (auto-drafts and revisions left out) with their terms, the meta the interface has, and their
 * comments (spam left out). Written as a stream, one item at a time.
 */
import { nextTurn, TURN_MS } from '../format/turn.js';
import { exportPort, resolvedSite, type ContentPortDeps } from './content-port.js';
import type { ExportedPost, ExportedTerm, ExportPort } from './ports.js';
import { author, category, cdata, comment, FOOTER, header, meta, postTerm, rssDate, tag, wxrDate } from './writer.js';

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  aside: 'Aside', chat: 'Chat', gallery: 'Gallery', link: 'Link', image: 'Image', quote: 'Quote', status: 'Status', video: 'Video', audio: 'Audio',
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const number = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) ? value : 0);
const ids = (value: unknown) => (Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : []);

/** Categories with every parent before its children (a parent that is missing counts as none). */
function parentsFirst(terms: ExportedTerm[]): ExportedTerm[] {
  const byId = new Map(terms.map((term) => [term.id, term]));
  const placed = new Set<number>();
  const ordered: ExportedTerm[] = [];
  const place = (term: ExportedTerm, seen: Set<number>) => {
    if (placed.has(term.id) || seen.has(term.id)) return;
    seen.add(term.id);
    const parent = byId.get(term.parent);
    if (parent) place(parent, seen);
    placed.add(term.id);
    ordered.push(term);
  };
  for (const term of terms) place(term, new Set());
  return ordered;
}

function postMeta(post: ExportedPost): string {
  let out = '';
  if (number(post.featured_media) > 0) out += meta('wp:postmeta', '_thumbnail_id', String(post.featured_media));
  if (text(post.template) !== '') out += meta('wp:postmeta', '_wp_page_template', text(post.template));
  if (text(post.file) !== '') out += meta('wp:postmeta', '_wp_attached_file', text(post.file));
  if (text(post.alt_text) !== '') out += meta('wp:postmeta', '_wp_attachment_image_alt', text(post.alt_text));
  if (post.status === 'trash') {
    out += meta('wp:postmeta', '_wp_trash_meta_status', text(post.trashed_from_status) || 'draft');
    const trashedAt = Date.parse(`${text(post.trashed_at)}Z`);
    if (!Number.isNaN(trashedAt)) out += meta('wp:postmeta', '_wp_trash_meta_time', String(Math.floor(trashedAt / 1000)));
    if (text(post.trashed_slug) !== '') out += meta('wp:postmeta', '_wp_desired_post_slug', text(post.trashed_slug));
  }
  const registered = post.meta !== null && typeof post.meta === 'object' ? Object.entries(post.meta as Record<string, unknown>) : [];
  for (const [key, value] of registered) if (typeof value === 'string' && value !== '') out += meta('wp:postmeta', key, value);
  return out;
}

function itemTerms(post: ExportedPost, terms: ReadonlyMap<number, ExportedTerm>[]): string {
  let out = '';
  for (const [index, field] of (['categories', 'tags'] as const).entries()) {
    for (const id of ids(post[field])) {
      const term = terms[index]!.get(id);
      if (term) out += postTerm(index === 0 ? 'category' : 'post_tag', term.slug, term.name);
    }
  }
  const format = text(post.format);
  const name = Object.hasOwn(FORMAT_NAMES, format) ? FORMAT_NAMES[format] : undefined;
  if (name) out += postTerm('post_format', `post-format-${format}`, name);
  return out;
}

async function itemHead(port: ExportPort, post: ExportedPost, terms: ReadonlyMap<number, ExportedTerm>[]): Promise<string> {
  const gmt = text(post.date_gmt) || text(post.date);
  return `\t<item>
\t\t<title>${cdata(text(post.title))}</title>
\t\t<link>${cdata(await port.permalink(post))}</link>
\t\t<pubDate>${rssDate(new Date(`${gmt.slice(0, 19)}Z`))}</pubDate>
\t\t<dc:creator>${cdata(await port.userLogin(number(post.author)))}</dc:creator>
\t\t<guid isPermaLink="false">${cdata(text(post.guid))}</guid>
\t\t<description></description>
\t\t<content:encoded>${cdata(text(post.content))}</content:encoded>
\t\t<excerpt:encoded>${cdata(text(post.excerpt))}</excerpt:encoded>
\t\t<wp:post_id>${post.id}</wp:post_id>
\t\t<wp:post_date>${cdata(wxrDate(post.date))}</wp:post_date>
\t\t<wp:post_date_gmt>${cdata(wxrDate(post.date_gmt))}</wp:post_date_gmt>
\t\t<wp:post_modified>${cdata(wxrDate(post.modified))}</wp:post_modified>
\t\t<wp:post_modified_gmt>${cdata(wxrDate(post.modified_gmt))}</wp:post_modified_gmt>
\t\t<wp:comment_status>${cdata(text(post.comment_status))}</wp:comment_status>
\t\t<wp:ping_status>${cdata(text(post.ping_status))}</wp:ping_status>
\t\t<wp:post_name>${cdata(text(post.slug))}</wp:post_name>
\t\t<wp:status>${cdata(post.status)}</wp:status>
\t\t<wp:post_parent>${number(post.parent)}</wp:post_parent>
\t\t<wp:menu_order>${number(post.menu_order)}</wp:menu_order>
\t\t<wp:post_type>${cdata(post.type)}</wp:post_type>
\t\t<wp:post_password>${cdata(text(post.password))}</wp:post_password>
\t\t<wp:is_sticky>${post.sticky === true ? 1 : 0}</wp:is_sticky>
${post.type === 'attachment' ? `\t\t<wp:attachment_url>${cdata(port.fileUrl(post))}</wp:attachment_url>\n` : ''}`
    + itemTerms(post, terms) + postMeta(post);
}

/** The site as a WXR file, in pieces to write out as they come. */
export async function* exportWxr(deps: ContentPortDeps): AsyncGenerator<string> {
  const site = await resolvedSite(deps);
  const port = exportPort(deps, site);
  yield header({
    title: site.name, link: site.home, description: site.description, language: site.language, siteUrl: site.url,
    now: deps.services.clock.now(), generator: 'quire',
  });
  for await (const user of port.authors()) yield author(user);
  const categories = await port.terms('category');
  const tags = await port.terms('post_tag');
  const slugs = new Map(categories.map((term) => [term.id, term.slug]));
  yield parentsFirst(categories).map((term) => category(term, slugs.get(term.parent) ?? '')).join('');
  yield tags.map(tag).join('');
  const terms = [new Map(categories.map((term) => [term.id, term])), new Map(tags.map((term) => [term.id, term]))];
  // Storage reads of a memory store resolve at once: a large site's export takes turns of the event loop.
  let turnStarted = performance.now();
  for await (const post of port.posts()) {
    if (performance.now() - turnStarted > TURN_MS) {
      await nextTurn();
      turnStarted = performance.now();
    }
    yield await itemHead(port, post, terms);
    for await (const entry of port.comments(post.id)) if (entry.status !== 'spam') yield comment(entry);
    yield '\t</item>\n';
  }
  yield FOOTER;
}
