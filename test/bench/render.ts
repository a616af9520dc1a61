/**
 * Rendering on hostile inputs at the largest text a client can send (the default parsed-body limit, 8 MiB):
 * each stage of `content.rendered` timed on its own, then the generated excerpt, the title, the whole content
 * pipeline and comment text; then typical posts, rendered many times. Prints milliseconds (the best of
 * `repeat` runs, default 1).
 *
 *   npm run bench:render [-- kind[,kind…]|all [repeat]]
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DEFAULT_MAX_ANONYMOUS_BODY_BYTES } from '../../src/cms.js';
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

const SIZE = DEFAULT_MAX_ANONYMOUS_BODY_BYTES;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

const paragraph = (index: number) =>
  `<!-- wp:paragraph -->\n<p>Paragraph ${index} with <a href="https://example.com/${index}">a link</a> and ` +
  `<strong>bold</strong> text that goes on.</p>\n<!-- /wp:paragraph -->`;

const KINDS: Record<string, () => string> = {
  paragraphs: () => Array.from({ length: SIZE / 150 }, (_, index) => paragraph(index)).join('\n\n').slice(0, SIZE),
  plain: () => fill('word '),
  lines: () => fill('line of text\n'),
  breaks: () => fill('\n'),
  'short-paragraphs': () => fill('a\n\n'),
  tags: () => fill('<b>'),
  colons: () => fill(': ) ;'),
  quotes: () => fill('"a" \'b\' '),
  smileys: () => fill('hi :) there ;-) 8O :mrgreen: '),
  dashes: () => fill('a -- b --- c - d... '),
  // The densest shapes of smart punctuation.
  'quote-pairs': () => fill('\'"'),
  apostrophes: () => fill("a'"),
  doubles: () => fill('"'),
  primes: () => fill('"1\''),
  hyphens: () => fill(' -'),
  ampersands: () => fill('& '),
  dimensions: () => fill('9x9 '),
  'number-run': () => `9x9 ${fill('.1')}`,
};

const TYPICAL_PARAGRAPH =
  'It\'s a "typical" paragraph -- with some <em>emphasis</em>, a <a href="https://example.com/a?b=1&c=2">link</a>, ' +
  'a smiley :) and an ellipsis... The 1990s\' best 2x4 boards were 8\' long; she said \'hello\' and left.';
const TYPICAL: Record<string, string> = {
  'classic 6 kB': Array.from({ length: 24 }, () => TYPICAL_PARAGRAPH).join('\n\n'),
  'blocks 6 kB': Array.from({ length: 24 }, () => `<!-- wp:paragraph -->\n<p>${TYPICAL_PARAGRAPH}</p>\n<!-- /wp:paragraph -->`).join('\n\n'),
  'short 300 B': `${TYPICAL_PARAGRAPH}\n\nThanks for reading!`,
};

const [selection = 'all', repeatArgument = '1'] = process.argv.slice(2);
const chosen = selection === 'all' ? Object.keys(KINDS) : selection.split(',');
const repeat = Math.max(1, Number(repeatArgument) || 1);

const best = (work: () => string): [number, string] => {
  let fastest = Infinity;
  let out = '';
  for (let run = 0; run < repeat; run++) {
    const started = performance.now();
    out = work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return [fastest, out];
};

// Wall-clock figures swing with other work on the machine; the load average says how busy it was.
console.log(`load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}; ${(SIZE / 2 ** 20).toFixed(0)} MiB inputs; milliseconds`);
const totals: string[] = [];
for (const name of chosen) {
  const make = KINDS[name];
  if (make === undefined) throw new Error(`unknown kind ${name}`);
  const raw = make();
  const row: string[] = [];
  const step = (label: string, work: () => string): string => {
    const [time, out] = best(work);
    row.push(`${label} ${time.toFixed(0)}`);
    return out;
  };
  let html = step('blocks', () => renderBlocks(raw, {}));
  html = step('texturize', () => texturize(html, DEFAULT_SHORTCODE_TAGS));
  if (!hasBlocks(raw)) html = step('autop', () => autop(html));
  html = step('unautop', () => unautopShortcodes(html, DEFAULT_SHORTCODE_TAGS));
  html = step('tags', () => filterContentTags(html, {}));
  html = step('brand', () => capitalizeBrandInContent(html));
  html = step('smilies', () => convertSmilies(html, {}));
  step('title', () => renderTitle(raw, { status: 'publish', hasPassword: false }));
  console.log(`${name.padEnd(11)} ${(raw.length / 1e6).toFixed(1)} MB: ${row.join(' · ')}`);

  const whole: string[] = [];
  const total = (label: string, work: () => string) => whole.push(`${label} ${best(work)[0].toFixed(0)}`);
  total('content', () => renderContent(raw));
  total('excerpt', () => renderExcerpt('', raw));
  total('comment', () => renderCommentText(raw));
  totals.push(`${name.padEnd(11)} ${whole.join(' · ')}`);
}
console.log('\nwhole pipelines (ms)');
for (const line of totals) console.log(line);

console.log('\ntypical posts (microseconds per render, best of 5 rounds)');
for (const [name, raw] of Object.entries(TYPICAL)) {
  const rounds = 5;
  const count = Math.max(20, Math.round(200_000 / raw.length));
  const time = (work: () => string) => {
    let fastest = Infinity;
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      for (let index = 0; index < count; index++) work();
      fastest = Math.min(fastest, performance.now() - started);
    }
    return ((fastest * 1000) / count).toFixed(0);
  };
  console.log(`${name.padEnd(12)} content ${time(() => renderContent(raw))} · excerpt ${time(() => renderExcerpt('', raw))} · ` +
    `texturize ${time(() => texturize(raw))} · comment ${time(() => renderCommentText(raw))}`);
}
