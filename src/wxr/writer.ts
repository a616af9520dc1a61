/**
 * The pieces of a WXR 1.2 file, element for element as WordPress's `export.php` writes them (so WordPress's
 * importer and other WXR readers take them): text values in CDATA sections, ids as numbers, dates as
 * `YYYY-MM-DD HH:MM:SS` with `0000-00-00 00:00:00` for none.
 */
import type { ExportedComment, ExportedTerm, ExportedUser } from './ports.js';

export const WXR_VERSION = '1.2';

/** Characters XML cannot carry at all, not even in CDATA (controls, non-characters, lone surrogates). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as a CDATA section; `]]>` inside is split across two sections, as WordPress does. */
export function cdata(text: string): string {
  return `<![CDATA[${text.replace(NOT_XML, '').replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** Text as escaped character data (for values WordPress writes without CDATA). */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : '&quot;'));
}

/** A stored date as WXR writes it; none → WordPress's zero date. */
export function wxrDate(stored: unknown): string {
  return typeof stored === 'string' && stored.length >= 19 ? `${stored.slice(0, 10)} ${stored.slice(11, 19)}` : '0000-00-00 00:00:00';
}

/** A stored UTC date as RSS writes it: `Tue, 02 Jan 2024 03:04:05 +0000`. */
export function rssDate(instant: Date): string {
  return Number.isNaN(instant.getTime()) ? '' : instant.toUTCString().replace('GMT', '+0000');
}

export interface ChannelHeader {
  title: string;
  link: string;
  description: string;
  language: string;
  siteUrl: string;
  now: Date;
  generator: string;
}

export function header(channel: ChannelHeader): string {
  return `<?xml version="1.0" encoding="UTF-8" ?>
<!-- This is a WordPress eXtended RSS file (WXR ${WXR_VERSION}), an export of a site's posts, pages, media, comments, categories and tags. -->
<!-- WordPress imports it with its "WordPress" importer (Tools: Import); quire with \`quire import\`. -->
<!-- generator="${escapeXml(channel.generator)}" created="${wxrDate(channel.now.toISOString()).slice(0, 16)}" -->
<rss version="2.0"
\txmlns:excerpt="http://wordpress.org/export/${WXR_VERSION}/excerpt/"
\txmlns:content="http://purl.org/rss/1.0/modules/content/"
\txmlns:wfw="http://wellformedweb.org/CommentAPI/"
\txmlns:dc="http://purl.org/dc/elements/1.1/"
\txmlns:wp="http://wordpress.org/export/${WXR_VERSION}/"
>

<channel>
\t<title>${escapeXml(channel.title)}</title>
\t<link>${escapeXml(channel.link)}</link>
\t<description>${escapeXml(channel.description)}</description>
\t<pubDate>${rssDate(channel.now)}</pubDate>
\t<language>${escapeXml(channel.language)}</language>
\t<wp:wxr_version>${WXR_VERSION}</wp:wxr_version>
\t<wp:base_site_url>${escapeXml(channel.siteUrl)}</wp:base_site_url>
\t<wp:base_blog_url>${escapeXml(channel.link)}</wp:base_blog_url>

`;
}

export const FOOTER = `\t<generator>quire</generator>
</channel>
</rss>
`;

export function author(user: ExportedUser): string {
  return `\t<wp:author><wp:author_id>${user.id}</wp:author_id><wp:author_login>${cdata(user.login)}</wp:author_login>`
    + `<wp:author_email>${cdata(user.email)}</wp:author_email><wp:author_display_name>${cdata(user.displayName)}</wp:author_display_name>`
    + `<wp:author_first_name>${cdata(user.firstName)}</wp:author_first_name><wp:author_last_name>${cdata(user.lastName)}</wp:author_last_name></wp:author>\n`;
}

export function category(term: ExportedTerm, parentSlug: string): string {
  return `\t<wp:category>\n\t\t<wp:term_id>${term.id}</wp:term_id>\n\t\t<wp:category_nicename>${cdata(term.slug)}</wp:category_nicename>\n`
    + `\t\t<wp:category_parent>${cdata(parentSlug)}</wp:category_parent>\n\t\t<wp:cat_name>${cdata(term.name)}</wp:cat_name>\n`
    + (term.description === '' ? '' : `\t\t<wp:category_description>${cdata(term.description)}</wp:category_description>\n`)
    + '\t</wp:category>\n';
}

export function tag(term: ExportedTerm): string {
  return `\t<wp:tag>\n\t\t<wp:term_id>${term.id}</wp:term_id>\n\t\t<wp:tag_slug>${cdata(term.slug)}</wp:tag_slug>\n`
    + `\t\t<wp:tag_name>${cdata(term.name)}</wp:tag_name>\n`
    + (term.description === '' ? '' : `\t\t<wp:tag_description>${cdata(term.description)}</wp:tag_description>\n`)
    + '\t</wp:tag>\n';
}

export function postTerm(domain: string, slug: string, name: string): string {
  return `\t\t<category domain="${escapeXml(domain)}" nicename="${escapeXml(slug)}">${cdata(name)}</category>\n`;
}

export function meta(element: 'wp:postmeta' | 'wp:commentmeta', key: string, value: string): string {
  return `\t\t<${element}>\n\t\t\t<wp:meta_key>${cdata(key)}</wp:meta_key>\n\t\t\t<wp:meta_value>${cdata(value)}</wp:meta_value>\n\t\t</${element}>\n`;
}

/** The reference's `comment_approved` for a stored status. */
export function approvedValue(status: string): string {
  return status === 'approved' ? '1' : status === 'hold' ? '0' : status;
}

export function comment(entry: ExportedComment): string {
  const restore = entry.restoreStatus === null ? '' : meta('wp:commentmeta', '_wp_trash_meta_status', approvedValue(entry.restoreStatus));
  return `\t\t<wp:comment>
\t\t\t<wp:comment_id>${entry.id}</wp:comment_id>
\t\t\t<wp:comment_author>${cdata(entry.authorName)}</wp:comment_author>
\t\t\t<wp:comment_author_email>${cdata(entry.authorEmail)}</wp:comment_author_email>
\t\t\t<wp:comment_author_url>${escapeXml(entry.authorUrl)}</wp:comment_author_url>
\t\t\t<wp:comment_author_IP>${cdata(entry.authorIp)}</wp:comment_author_IP>
\t\t\t<wp:comment_date>${cdata(wxrDate(entry.date))}</wp:comment_date>
\t\t\t<wp:comment_date_gmt>${cdata(wxrDate(entry.dateGmt))}</wp:comment_date_gmt>
\t\t\t<wp:comment_content>${cdata(entry.content)}</wp:comment_content>
\t\t\t<wp:comment_approved>${cdata(approvedValue(entry.status))}</wp:comment_approved>
\t\t\t<wp:comment_type>${cdata(entry.type)}</wp:comment_type>
\t\t\t<wp:comment_parent>${entry.parent}</wp:comment_parent>
\t\t\t<wp:comment_user_id>${entry.userId}</wp:comment_user_id>
${restore}\t\t</wp:comment>
`;
}
