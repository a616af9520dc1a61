/**
 * Rendering stages on large hostile inputs (3–7.5 MB): each stage of `content.rendered` timed on its own, then
 * the generated excerpt, the title, the whole content pipeline and comment text. Prints milliseconds.
 *
 *   npm run bench:render [-- kind]
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { renderCommentText } from '../../src/comments/text.js';
import { autop } from '../../src/content/render/autop.js';
import { hasBlocks, renderBlocks } from '../../src/content/render/blocks/render.js';
import { capitalizeBrandInContent } from '../../src/content/render/characters.js';
import { renderContent } from '../../src/content/render/content.js';
import { filterContentTags } from '../../src/content/render/content-tags.js';
import { renderExcerpt } from '../../src/content/render/excerpt.js';
import { DEFAULT_SHORTCODE_TAGS, unautopShortcodes } from '../../src/content/render/shortcodes.js';
import { convertSmilies } from '../../src/content/render/smilies.js';
import { texturize } from '../../src/content/render/texturize.js';
import { renderTitle } from '../../src/content/render/title.js';

const paragraph = (index: number) =>
  `<!-- wp:paragraph -->\n<p>Paragraph ${index} with <a href="https://example.com/${index}">a link</a> and ` +
  `<strong>bold</strong> text that goes on.</p>\n<!-- /wp:paragraph -->`;

const KINDS: Record<string, () => string> = {
  paragraphs: () => Array.from({ length: 30_000 }, (_, index) => paragraph(index)).join('\n\n'),
  plain: () => 'word '.repeat(1_500_000),
  lines: () => 'line of text\n'.repeat(500_000),
  tags: () => '<b>'.repeat(1_000_000),
  colons: () => ': ) ;'.repeat(1_000_000),
  quotes: () => '"a" \'b\' '.repeat(500_000),
  smileys: () => 'hi :) there ;-) 8O :mrgreen: '.repeat(150_000),
  dashes: () => 'a -- b --- c - d... '.repeat(250_000),
};

const only = process.argv[2];
// Wall-clock figures swing with other work on the machine; the load average says how busy it was.
console.log(`load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}; milliseconds per stage`);
const totals: string[] = [];
for (const [name, make] of Object.entries(KINDS)) {
  if (only !== undefined && name !== only) continue;
  const raw = make();
  const row: string[] = [];
  const step = (label: string, work: () => string): string => {
    const started = performance.now();
    const out = work();
    row.push(`${label} ${(performance.now() - started).toFixed(0)}`);
    return out;
  };
  let html = step('blocks', () => renderBlocks(raw, {}));
  html = step('texturize', () => texturize(html, DEFAULT_SHORTCODE_TAGS));
  if (!hasBlocks(raw)) html = step('autop', () => autop(html));
  html = step('unautop', () => unautopShortcodes(html, DEFAULT_SHORTCODE_TAGS));
  html = step('tags', () => filterContentTags(html, {}));
  html = step('brand', () => capitalizeBrandInContent(html));
  html = step('smilies', () => convertSmilies(html, {}));
  step('excerpt', () => renderExcerpt('', raw, {}));
  step('title(1MB)', () => renderTitle(raw.slice(0, 1_000_000), { status: 'publish', hasPassword: false }));
  console.log(`${name.padEnd(10)} ${(raw.length / 1e6).toFixed(1)} MB: ${row.join(' · ')}`);

  const whole: string[] = [];
  const total = (label: string, work: () => string) => {
    const started = performance.now();
    work();
    whole.push(`${label} ${(performance.now() - started).toFixed(0)}`);
  };
  total('content', () => renderContent(raw));
  total('excerpt', () => renderExcerpt('', raw));
  total('comment(1MB)', () => renderCommentText(raw.slice(0, 1_000_000)));
  totals.push(`${name.padEnd(10)} ${whole.join(' · ')}`);
}
console.log('\nwhole pipelines (ms)');
for (const line of totals) console.log(line);
