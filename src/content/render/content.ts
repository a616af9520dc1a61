/** `content.rendered`: the display pipeline for stored post content, in the reference's filter order. */
import { autop } from './autop.js';
import { autoEmbed, type EmbedResolver } from './auto-embed.js';
import { hasBlocks, renderBlocks, type DynamicBlockRenderer } from './blocks/render.js';
import { capitalizeBrandInContent } from './characters.js';
import { filterContentTags } from './content-tags.js';
import { DEFAULT_SHORTCODE_TAGS, unautopShortcodes } from './shortcodes.js';
import { convertSmilies } from './smilies.js';
import { texturize } from './texturize.js';

export interface ContentRenderOptions {
  /** Turns a URL standing on its own line or in its own paragraph into embed HTML (`undefined`: leave it). */
  resolveEmbed?: EmbedResolver | undefined;
  /** Renders dynamic blocks; static blocks always render as their saved HTML. */
  renderDynamicBlock?: DynamicBlockRenderer | undefined;
  /** Adds dimensions and `srcset`/`sizes` to `<img class="wp-image-{id}">` tags. */
  attachmentImage?: ((imageTag: string, attachmentId: number) => string) | undefined;
  /** Markup placed before the content of an attachment (its file link or image), after paragraphs are made. */
  attachmentHtml?: string | undefined;
  /** Base URL (ending in `/`) for image smileys such as `:mrgreen:`; without it they stay as text. */
  smileyImageBaseUrl?: string | undefined;
  /** Registered shortcode names (they are not expanded; they are protected from formatting). */
  shortcodeTags?: readonly string[] | undefined;
}

export function renderContent(raw: string, options: ContentRenderOptions = {}): string {
  const shortcodeTags = options.shortcodeTags ?? DEFAULT_SHORTCODE_TAGS;
  let html = options.resolveEmbed ? autoEmbed(raw, options.resolveEmbed) : raw;

  // Block content is already structured: paragraphs are not inferred from its line breaks.
  const isBlockContent = hasBlocks(html);
  html = renderBlocks(html, { renderDynamicBlock: options.renderDynamicBlock });
  html = texturize(html, shortcodeTags);
  if (!isBlockContent) html = autop(html);
  html = unautopShortcodes(html, shortcodeTags);
  if (options.attachmentHtml !== undefined) html = `${options.attachmentHtml}\n${html}`;
  html = filterContentTags(html, { attachmentImage: options.attachmentImage });
  html = capitalizeBrandInContent(html);
  return convertSmilies(html, { smileyImageBaseUrl: options.smileyImageBaseUrl });
}
