/** Reusable blocks (`wp_block` at `cms/v2/blocks`) and the block patterns the inserter reads. */
export { BLOCK_TYPE, PATTERN_SYNC_STATUSES, buildBlockSchema } from './definition.js';
export { CORE_PATTERN_CATEGORIES, REGISTERED_PATTERNS, patternRoutes, type BlockPattern, type PatternCategory, type PatternDeps } from './patterns.js';
