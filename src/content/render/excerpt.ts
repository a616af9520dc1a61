/**
 * `excerpt.rendered`: a stored excerpt through the excerpt display filters, or, when none is stored, one
 * generated from the content's teaser (the first page, up to `<!--more-->`), trimmed to a number of words.
 */
import { autop } from './autop.js';
import { removeBlocksForExcerpt } from './blocks/excerpt-blocks.js';
import { hasBlocks } from './blocks/render.js';
import { convertChars } from './characters.js';
import { renderContent, type ContentRenderOptions } from './content.js';
import { filterContentTags } from './content-tags.js';
import { replaceEach } from './patterns.js';
import { phpTrim } from '../../format/php.js';
import { DEFAULT_SHORTCODE_TAGS, stripShortcodes, unautopShortcodes } from './shortcodes.js';
import { convertSmilies } from './smilies.js';
import { trimWords } from './words.js';
import { texturize } from './texturize.js';

export const DEFAULT_EXCERPT_LENGTH = 55;
/** Appended to a generated excerpt that was cut short. */
export const EXCERPT_MORE = ' [&hellip;]';

export interface ExcerptRenderOptions extends ContentRenderOptions {
  /** Words kept in a generated excerpt (default 55). */
  excerptLength?: number | undefined;
  /** Whether an empty stored excerpt is generated from the content (default true; revisions do not). */
  generateFromContent?: boolean | undefined;
  /**
   * Renders the text a generated excerpt is cut from, in place of `renderContent(text, options)` (which it must
   * equal): a cache of rendered content, since that text is often the whole content, rendered for the same read.
   */
  renderTeaser?: ((text: string) => string) | undefined;
}

export function renderExcerpt(rawExcerpt: string, rawContent: string, options: ExcerptRenderOptions = {}): string {
  let excerpt = rawExcerpt;
  if (phpTrim(excerpt) === '' && options.generateFromContent !== false) {
    excerpt = generateExcerpt(rawContent, options);
  }
  const shortcodeTags = options.shortcodeTags ?? DEFAULT_SHORTCODE_TAGS;
  let html = texturize(excerpt, shortcodeTags);
  html = convertSmilies(html, { smileyImageBaseUrl: options.smileyImageBaseUrl });
  html = convertChars(html);
  html = autop(html);
  html = unautopShortcodes(html, shortcodeTags);
  return filterContentTags(html, { attachmentImage: options.attachmentImage });
}

function generateExcerpt(rawContent: string, options: ExcerptRenderOptions): string {
  let text = stripShortcodes(teaserOf(rawContent), options.shortcodeTags ?? DEFAULT_SHORTCODE_TAGS);
  text = removeBlocksForExcerpt(text, { renderDynamicBlock: options.renderDynamicBlock });
  text = (options.renderTeaser ? options.renderTeaser(text) : renderContent(text, options)).replaceAll(']]>', ']]&gt;');
  return trimWords(text, options.excerptLength ?? DEFAULT_EXCERPT_LENGTH, EXCERPT_MORE);
}

const NEXT_PAGE = '<!--nextpage-->';
const MORE_TAG = /<!--more/g;
const MORE_BLOCK_DELIMITER = /<!-- \/?wp:more/g;

/**
 * The spans `opener … closer` with no line break between, the closer the first after the opener, left to right
 * (as `opener[^\n]*?closer`). With `nonEmpty` the text between must not be empty unless nothing else matches
 * (as `opener([^\n]*?)?closer`, whose optional group may not match empty). The next closer and line break found
 * are remembered, so openers without a closer on their line cost no search of the rest of the text.
 */
function* spansOnOneLine(text: string, opener: RegExp, closer: string, nonEmpty = false): Generator<readonly [number, number]> {
  let close = -2;
  let newline = -2;
  const gap = nonEmpty ? 1 : 0;
  opener.lastIndex = 0;
  for (let match = opener.exec(text); match !== null; match = opener.exec(text)) {
    const from = match.index + match[0].length;
    if (close !== -1 && close < from + gap) close = text.indexOf(closer, from + gap);
    if (newline !== -1 && newline < from) newline = text.indexOf('\n', from);
    let end = -1;
    if (close !== -1 && (newline === -1 || newline >= close)) end = close + closer.length;
    else if (nonEmpty && text.startsWith(closer, from)) end = from + closer.length;
    if (end === -1) {
      opener.lastIndex = match.index + 1;
      continue;
    }
    yield [match.index, end];
    opener.lastIndex = end;
  }
}

/** The part of the content shown before "read more": the first page, cut at the first `<!--more-->`. */
export function teaserOf(content: string): string {
  let text = content;
  if (text.includes(NEXT_PAGE)) {
    text = replaceEach(text, [
      [`\n${NEXT_PAGE}\n`, NEXT_PAGE],
      [`\n${NEXT_PAGE}`, NEXT_PAGE],
      [`${NEXT_PAGE}\n`, NEXT_PAGE],
      ['<!-- wp:nextpage -->', ''],
      ['<!-- /wp:nextpage -->', ''],
    ]);
    if (text.startsWith(NEXT_PAGE)) text = text.slice(NEXT_PAGE.length);
    text = text.split(NEXT_PAGE)[0] ?? '';
  }
  const first = spansOnOneLine(text, MORE_TAG, '-->', true).next().value;
  if (first === undefined) return text;
  const more = text.slice(first[0], first[1]);
  if (hasBlocks(text) && (text.includes('<!-- wp:core/more ') || text.includes('<!-- wp:more '))) {
    let kept = '';
    let copied = 0;
    for (const [start, end] of spansOnOneLine(text, MORE_BLOCK_DELIMITER, ' -->')) {
      kept += text.slice(copied, start);
      copied = end;
    }
    text = kept + text.slice(copied);
  }
  const cut = text.indexOf(more);
  return cut === -1 ? text : text.slice(0, cut);
}
