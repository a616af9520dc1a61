/**
 * Rendering parsed blocks to HTML. A static block renders as its saved HTML with its inner blocks rendered in
 * place, so the block comments disappear and everything else stays. Dynamic blocks are rendered by a
 * caller-supplied renderer; the shortcode block is built in.
 */
import { autop } from '../autop.js';
import { parseBlocks, type ParsedBlock } from './parse.js';

/**
 * Renders a dynamic block. Receives the block and its inner HTML (saved HTML with inner blocks already
 * rendered); returns the HTML to use, or `undefined` to keep the inner HTML.
 */
export type DynamicBlockRenderer = (block: ParsedBlock, innerHtml: string) => string | undefined;

export interface BlockRenderOptions {
  renderDynamicBlock?: DynamicBlockRenderer | undefined;
}

const BUILT_IN_RENDERERS: Readonly<Record<string, (innerHtml: string) => string>> = {
  'core/shortcode': (innerHtml) => autop(innerHtml),
};

/** Whether the text contains block markup at all (the reference's cheap substring test). */
export function hasBlocks(content: string): boolean {
  return content.includes('<!-- wp:');
}

/** 1 when the content uses the block format, else 0. */
export function blockVersion(content: string): number {
  return hasBlocks(content) ? 1 : 0;
}

export function renderBlocks(content: string, options: BlockRenderOptions = {}): string {
  return parseBlocks(content)
    .map((block) => renderBlock(block, options))
    .join('');
}

export function renderBlock(block: ParsedBlock, options: BlockRenderOptions = {}): string {
  let html = '';
  let innerIndex = 0;
  for (const chunk of block.innerContent) {
    if (chunk !== null) {
      html += chunk;
      continue;
    }
    const inner = block.innerBlocks[innerIndex++];
    if (inner) html += renderBlock(inner, options);
  }
  if (block.blockName === null) return html;

  const custom = options.renderDynamicBlock?.(block, html);
  if (custom !== undefined) return custom;
  const builtIn = BUILT_IN_RENDERERS[block.blockName];
  return builtIn ? builtIn(html) : html;
}
