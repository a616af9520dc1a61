/**
 * The blocks that may contribute text to a generated excerpt: text-like blocks are rendered, wrapper blocks
 * (columns, column, group) contribute their allowed inner blocks, and everything else is dropped.
 */
import { parseBlocks, type ParsedBlock } from './parse.js';
import { renderBlock, type BlockRenderOptions } from './render.js';

const TEXT_BLOCKS: ReadonlyArray<string | null> = [
  null,
  'core/freeform',
  'core/heading',
  'core/html',
  'core/list',
  'core/media-text',
  'core/paragraph',
  'core/preformatted',
  'core/pullquote',
  'core/quote',
  'core/table',
  'core/verse',
];
const WRAPPER_BLOCKS: readonly string[] = ['core/columns', 'core/column', 'core/group'];
const EXCERPT_BLOCKS: ReadonlyArray<string | null> = [...TEXT_BLOCKS, ...WRAPPER_BLOCKS];

export function removeBlocksForExcerpt(content: string, options: BlockRenderOptions = {}): string {
  let output = '';
  for (const block of parseBlocks(content)) {
    if (!EXCERPT_BLOCKS.includes(block.blockName)) continue;
    if (block.innerBlocks.length > 0) {
      if (block.blockName !== null && WRAPPER_BLOCKS.includes(block.blockName)) {
        output += renderAllowedInnerBlocks(block, options);
        continue;
      }
      // A text block with nested or non-text inner blocks is skipped whole.
      const hasUnsuitableInner = block.innerBlocks.some(
        (inner) => !TEXT_BLOCKS.includes(inner.blockName) || inner.innerBlocks.length > 0,
      );
      if (hasUnsuitableInner) continue;
    }
    output += renderBlock(block, options);
  }
  return output;
}

function renderAllowedInnerBlocks(block: ParsedBlock, options: BlockRenderOptions): string {
  let output = '';
  for (const inner of block.innerBlocks) {
    if (!EXCERPT_BLOCKS.includes(inner.blockName)) continue;
    output += inner.innerBlocks.length === 0 ? renderBlock(inner, options) : renderAllowedInnerBlocks(inner, options);
  }
  return output;
}
