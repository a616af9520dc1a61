/**
 * The core blocks the app offers, imported one by one so the bundle holds only these, and the format library.
 * Blocks that need what quire does not serve (templates, menus, widgets, reusable blocks, patterns, comment
 * forms, site blocks) are left out.
 */
import { setDefaultBlockName, setGroupingBlockName, setUnregisteredTypeHandlerName } from '@wordpress/blocks';
import '@wordpress/format-library';
import * as paragraph from '@wordpress/block-library/build-module/paragraph/index.mjs';
import * as heading from '@wordpress/block-library/build-module/heading/index.mjs';
import * as listBlock from '@wordpress/block-library/build-module/list/index.mjs';
import * as listItem from '@wordpress/block-library/build-module/list-item/index.mjs';
import * as quoteBlock from '@wordpress/block-library/build-module/quote/index.mjs';
import * as pullquote from '@wordpress/block-library/build-module/pullquote/index.mjs';
import * as imageBlock from '@wordpress/block-library/build-module/image/index.mjs';
import * as gallery from '@wordpress/block-library/build-module/gallery/index.mjs';
import * as embedBlock from '@wordpress/block-library/build-module/embed/index.mjs';
import * as codeBlock from '@wordpress/block-library/build-module/code/index.mjs';
import * as preformatted from '@wordpress/block-library/build-module/preformatted/index.mjs';
import * as verse from '@wordpress/block-library/build-module/verse/index.mjs';
import * as tableBlock from '@wordpress/block-library/build-module/table/index.mjs';
import * as buttons from '@wordpress/block-library/build-module/buttons/index.mjs';
import * as buttonBlock from '@wordpress/block-library/build-module/button/index.mjs';
import * as columns from '@wordpress/block-library/build-module/columns/index.mjs';
import * as column from '@wordpress/block-library/build-module/column/index.mjs';
import * as groupBlock from '@wordpress/block-library/build-module/group/index.mjs';
import * as separator from '@wordpress/block-library/build-module/separator/index.mjs';
import * as spacer from '@wordpress/block-library/build-module/spacer/index.mjs';
import * as htmlBlock from '@wordpress/block-library/build-module/html/index.mjs';
import * as moreBlock from '@wordpress/block-library/build-module/more/index.mjs';
import * as nextpage from '@wordpress/block-library/build-module/nextpage/index.mjs';
import * as mediaText from '@wordpress/block-library/build-module/media-text/index.mjs';
import * as cover from '@wordpress/block-library/build-module/cover/index.mjs';
import * as fileBlock from '@wordpress/block-library/build-module/file/index.mjs';
import * as audioBlock from '@wordpress/block-library/build-module/audio/index.mjs';
import * as videoBlock from '@wordpress/block-library/build-module/video/index.mjs';
import * as details from '@wordpress/block-library/build-module/details/index.mjs';
import * as missing from '@wordpress/block-library/build-module/missing/index.mjs';
import * as shortcode from '@wordpress/block-library/build-module/shortcode/index.mjs';

const OFFERED: { init(): unknown }[] = [
  paragraph, heading, listBlock, listItem, quoteBlock, pullquote, imageBlock, gallery, embedBlock, codeBlock, preformatted, verse, tableBlock, buttons, buttonBlock, columns, column, groupBlock, separator, spacer, htmlBlock, moreBlock, nextpage, mediaText, cover, fileBlock, audioBlock, videoBlock, details, missing, shortcode,
];

export function registerBlocks(): void {
  for (const block of OFFERED) block.init();
  setDefaultBlockName('core/paragraph');
  setUnregisteredTypeHandlerName('core/missing');
  setGroupingBlockName('core/group');
}
