/**
 * Paragraphs from plain line breaks: text separated by blank lines becomes `<p>` elements, remaining single
 * newlines become `<br />`, block-level elements are never wrapped, and `<pre>` contents stay untouched.
 */
import { breakBareNewlines, paragraphsBetweenBreaks, rewriteNewlineSensitive, unwrapListItems } from './autop-scans.js';
import { replaceInHtmlTags } from './html-split.js';
import { ASCII_SPACE } from './patterns.js';

const W = ASCII_SPACE;
const BLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|' +
  'address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|' +
  'figcaption|details|menu|summary)';

const NEWLINE_IN_TAG = new Map([['\n', ' <!-- wpnl --> ']]);
const PRESERVED_NEWLINE = '<WPPreserveNewline />';

const DOUBLE_BR = new RegExp(`<br${W}*/?>${W}*<br${W}*/?>`, 'g');
const BEFORE_BLOCK_OPEN = new RegExp(`(<${BLOCKS}[\\t\\n\\v\\f\\r /> ])`, 'g');
const AFTER_BLOCK_CLOSE = new RegExp(`(</${BLOCKS}>)`, 'g');
const AFTER_HR = new RegExp(`(<hr${W}*?/?>)`, 'g');
const BEFORE_OPTION = new RegExp(`${W}*<option`, 'g');
const AFTER_OPTION = new RegExp(`</option>${W}*`, 'g');
const OBJECT_OPEN = new RegExp(`(<object[^>]*>)${W}*`, 'g');
const OBJECT_CLOSE = new RegExp(`${W}*</object>`, 'g');
const OBJECT_PARTS = new RegExp(`${W}*(</?(?:param|embed)[^>]*>)${W}*`, 'g');
const MEDIA_OPEN = new RegExp(`([<\\[](?:audio|video)[^>\\]]*[>\\]])${W}*`, 'g');
const MEDIA_CLOSE = new RegExp(`${W}*([<\\[]/(?:audio|video)[>\\]])`, 'g');
const MEDIA_SOURCES = new RegExp(`${W}*(<(?:source|track)[^>]*>)${W}*`, 'g');
const BEFORE_FIGCAPTION = new RegExp(`${W}*(<figcaption[^>]*>)`, 'g');
const AFTER_FIGCAPTION = new RegExp(`</figcaption>${W}*`, 'g');
const BLANK_LINES = /\n\n+/g;
const EMPTY_PARAGRAPH = new RegExp(`<p>${W}*</p>`, 'g');
const CONTAINER_CLOSE = /<\/(?:div|address|form)>/;
const UNCLOSED_IN_CONTAINER = /<p>([^<]+)<\/(div|address|form)>/g;
const WRAPPED_BLOCK_TAG = new RegExp(`<p>${W}*(</?${BLOCKS}[^>]*>)${W}*</p>`, 'g');
const WRAPPED_BLOCKQUOTE = /<p><blockquote([^>]*)>/gi;
const P_BEFORE_BLOCK_TAG = new RegExp(`<p>${W}*(</?${BLOCKS}[^>]*>)`, 'g');
const P_AFTER_BLOCK_TAG = new RegExp(`(</?${BLOCKS}[^>]*>)${W}*</p>`, 'g');
const BR_AFTER_BLOCK_TAG = new RegExp(`(</?${BLOCKS}[^>]*>)${W}*<br />`, 'g');
const BR_BEFORE_BLOCK_TAG = new RegExp(`<br />(${W}*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)`, 'g');
const FINAL_NEWLINE_IN_P = /\n<\/p>(?=\n?$)/g;

// Anything but what PHP's `trim` removes.
const NOT_TRIMMED = /[^ \t\n\r\0\x0B]/;

export function autop(input: string, lineBreaks = true): string {
  if (!NOT_TRIMMED.test(input)) return '';

  let text = `${input}\n`;
  const preBlocks = new Map<string, string>();
  if (text.includes('<pre')) text = hidePreBlocks(text, preBlocks);

  text = text.replace(DOUBLE_BR, '\n\n');
  text = text.replace(BEFORE_BLOCK_OPEN, '\n\n$1');
  text = text.replace(AFTER_BLOCK_CLOSE, '$1\n\n');
  text = text.replace(AFTER_HR, '$1\n\n');
  text = text.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
  text = replaceInHtmlTags(text, NEWLINE_IN_TAG);

  if (text.includes('<option')) {
    text = text.replace(BEFORE_OPTION, '<option').replace(AFTER_OPTION, '</option>');
  }
  if (text.includes('</object>')) {
    text = text.replace(OBJECT_OPEN, '$1').replace(OBJECT_CLOSE, '</object>').replace(OBJECT_PARTS, '$1');
  }
  if (text.includes('<source') || text.includes('<track')) {
    text = text.replace(MEDIA_OPEN, '$1').replace(MEDIA_CLOSE, '$1').replace(MEDIA_SOURCES, '$1');
  }
  if (text.includes('<figcaption')) {
    text = text.replace(BEFORE_FIGCAPTION, '$1').replace(AFTER_FIGCAPTION, '</figcaption>');
  }

  text = text.replace(BLANK_LINES, '\n\n');
  text = paragraphsBetweenBreaks(text);

  text = text.replace(EMPTY_PARAGRAPH, '');
  if (CONTAINER_CLOSE.test(text)) {
    text = text.replace(UNCLOSED_IN_CONTAINER, '<p>$1</p></$2>');
  }
  text = text.replace(WRAPPED_BLOCK_TAG, '$1');
  text = unwrapListItems(text);
  text = text.replace(WRAPPED_BLOCKQUOTE, '<blockquote$1><p>').replaceAll('</blockquote></p>', '</p></blockquote>');
  text = text.replace(P_BEFORE_BLOCK_TAG, '$1');
  text = text.replace(P_AFTER_BLOCK_TAG, '$1');

  if (lineBreaks) {
    text = rewriteNewlineSensitive(text, (element) => element.replaceAll('\n', PRESERVED_NEWLINE));
    text = text.replaceAll('<br>', '<br />').replaceAll('<br/>', '<br />');
    text = breakBareNewlines(text);
    text = text.replaceAll(PRESERVED_NEWLINE, '\n');
  }

  if (text.includes('<br />')) text = text.replace(BR_AFTER_BLOCK_TAG, '$1').replace(BR_BEFORE_BLOCK_TAG, '$1');
  text = text.replace(FINAL_NEWLINE_IN_P, '</p>');

  for (const [placeholder, original] of preBlocks) text = text.split(placeholder).join(original);

  if (text.includes('<!-- wpnl -->')) {
    text = text.replaceAll(' <!-- wpnl --> ', '\n').replaceAll('<!-- wpnl -->', '\n');
  }
  return text;
}

/** Swaps each `<pre>…</pre>` for a placeholder element, remembering the original. */
function hidePreBlocks(text: string, preBlocks: Map<string, string>): string {
  const parts = text.split('</pre>');
  const rest = parts.pop() ?? '';
  let result = '';
  for (const part of parts) {
    const start = part.indexOf('<pre');
    if (start === -1) {
      result += part;
      continue;
    }
    const placeholder = `<pre wp-pre-tag-${preBlocks.size}></pre>`;
    preBlocks.set(placeholder, `${part.slice(start)}</pre>`);
    result += part.slice(0, start) + placeholder;
  }
  return result + rest;
}
