/** The rendering functions whose outputs the golden fixtures pin, each as text in, text out. */
import { renderCommentText } from '../../../../src/comments/text.js';
import { autoEmbed } from '../../../../src/content/render/auto-embed.js';
import { autop } from '../../../../src/content/render/autop.js';
import { removeBlocksForExcerpt } from '../../../../src/content/render/blocks/excerpt-blocks.js';
import { renderBlocks } from '../../../../src/content/render/blocks/render.js';
import { capitalizeBrandInContent, convertChars } from '../../../../src/content/render/characters.js';
import { renderContent, type ContentRenderOptions } from '../../../../src/content/render/content.js';
import { filterContentTags } from '../../../../src/content/render/content-tags.js';
import { renderExcerpt, teaserOf } from '../../../../src/content/render/excerpt.js';
import { splitHtml } from '../../../../src/content/render/html-split.js';
import { stripShortcodes, unautopShortcodes } from '../../../../src/content/render/shortcodes.js';
import { convertSmilies } from '../../../../src/content/render/smilies.js';
import { texturize } from '../../../../src/content/render/texturize.js';
import { renderTitle } from '../../../../src/content/render/title.js';
import { trimWords } from '../../../../src/content/render/words.js';
import { stripAllTags } from '../../../../src/format/strip-tags.js';

const SHORTCODES = ['gallery', 'caption', 'code', 'embed', 'x-y'];
const attachmentImage = (tag: string, id: number) => tag.replace('<img', `<img data-id="${id}"`);

const OPTIONS: ContentRenderOptions = {
  resolveEmbed: (url) => (url.includes('example.com') ? `<iframe src="${url}"></iframe>` : undefined),
  renderDynamicBlock: (block, html) => (block.blockName === 'core/latest-posts' ? '<ul class="latest"><li>x</li></ul>' : html === '' ? undefined : `<div class="dyn">${html}</div>`),
  attachmentImage,
  attachmentHtml: '<p class="attachment"><a href="f.pdf">f</a></p>',
  smileyImageBaseUrl: 'https://s.example/smilies/',
  shortcodeTags: SHORTCODES,
};

export const GOLDEN_FUNCTIONS: Readonly<Record<string, (input: string) => string>> = {
  content: (input) => renderContent(input),
  contentWithOptions: (input) => renderContent(input, OPTIONS),
  excerpt: (input) => renderExcerpt('', input),
  excerptShort: (input) => renderExcerpt('', input, { ...OPTIONS, excerptLength: 7 }),
  excerptStored: (input) => renderExcerpt(input, 'unused'),
  title: (input) => renderTitle(input, { status: 'private', hasPassword: false }),
  comment: (input) => renderCommentText(input),
  texturize: (input) => texturize(input),
  texturizeShortcodes: (input) => texturize(input, SHORTCODES),
  autop: (input) => autop(input),
  autopNoBreaks: (input) => autop(input, false),
  smilies: (input) => convertSmilies(input),
  smiliesImages: (input) => convertSmilies(input, { smileyImageBaseUrl: 'https://s.example/"/' }),
  blocks: (input) => renderBlocks(input, OPTIONS),
  excerptBlocks: (input) => removeBlocksForExcerpt(input),
  stripShortcodes: (input) => stripShortcodes(input),
  unautopShortcodes: (input) => unautopShortcodes(input, SHORTCODES),
  contentTags: (input) => filterContentTags(input, { attachmentImage }),
  trimWords: (input) => trimWords(input, 55, ' [&hellip;]'),
  teaser: (input) => teaserOf(input),
  autoEmbed: (input) => autoEmbed(input, OPTIONS.resolveEmbed!),
  brand: (input) => capitalizeBrandInContent(input),
  chars: (input) => convertChars(input),
  splitHtml: (input) => JSON.stringify(splitHtml(input)),
  stripAllTags: (input) => stripAllTags(input),
};
