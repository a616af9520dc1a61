/**
 * Auto-embeds: a bare http(s) URL alone on a line, or alone in a paragraph, is replaced by the embed HTML a
 * resolver returns for it. URLs the resolver does not know stay as plain text.
 */
import { replaceInHtmlTags } from './html-split.js';

/** Returns embed HTML for the URL, or `undefined` when it cannot be embedded. */
export type EmbedResolver = (url: string) => string | undefined;

const LINE_BREAK_MARK = '<!-- wp-line-break -->';
const NEWLINE_IN_TAG = new Map([['\n', LINE_BREAK_MARK]]);
const MAY_HAVE_URL = /(?:^|[\t\n\v\f\r ]|>)https?:\/\//i;
const URL_ON_OWN_LINE = /^([\t\n\v\f\r ]*)(https?:\/\/[^\t\n\v\f\r <>"]+)([\t\n\v\f\r ]*)$/gim;
const URL_IN_OWN_PARAGRAPH = /(<p(?: [^>]*)?>[\t\n\v\f\r ]*)(https?:\/\/[^\t\n\v\f\r <>"]+)([\t\n\v\f\r ]*<\/p>)/gi;

export function autoEmbed(content: string, resolve: EmbedResolver): string {
  let html = replaceInHtmlTags(content, NEWLINE_IN_TAG);
  if (MAY_HAVE_URL.test(html)) {
    const embed = (whole: string, before: string, url: string, after: string) => {
      const replacement = resolve(url);
      return replacement ? `${before}${replacement}${after}` : whole;
    };
    html = html.replace(URL_ON_OWN_LINE, embed).replace(URL_IN_OWN_PARAGRAPH, embed);
  }
  return html.replaceAll(LINE_BREAK_MARK, '\n');
}
