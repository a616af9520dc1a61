/** The core blocks the app offers, and the formats of the format library. */
import { __experimentalGetCoreBlocks as getCoreBlocks, registerCoreBlocks } from '@wordpress/block-library';
import '@wordpress/format-library';

/**
 * Blocks that need what quire does not serve (templates, menus, widgets, reusable blocks, patterns, comments
 * forms, site blocks) stay out of the inserter.
 */
const OFFERED = new Set([
  'core/paragraph', 'core/heading', 'core/list', 'core/list-item', 'core/quote', 'core/image', 'core/gallery',
  'core/embed', 'core/code', 'core/preformatted', 'core/pullquote', 'core/table', 'core/buttons', 'core/button',
  'core/columns', 'core/column', 'core/group', 'core/separator', 'core/spacer', 'core/verse', 'core/html',
  'core/more', 'core/nextpage', 'core/media-text', 'core/cover', 'core/file', 'core/audio', 'core/video',
  'core/details', 'core/missing', 'core/shortcode',
]);

export function registerBlocks(): void {
  registerCoreBlocks(getCoreBlocks().filter((block: { name: string }) => OFFERED.has(block.name)));
}
