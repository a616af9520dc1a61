/**
 * Inputs for the golden rendering fixtures: the hostile kinds of the render benchmark at small sizes, hand-made
 * documents (block markup, shortcodes, code and pre sections, smileys, quotes, dashes), the literals of the
 * rendering tests, and seeded random mixes of markup and punctuation fragments.
 */
import { readFileSync } from 'node:fs';

const paragraph = (index: number) =>
  `<!-- wp:paragraph -->\n<p>Paragraph ${index} with <a href="https://example.com/${index}">a link</a> and ` +
  `<strong>bold</strong> text that goes on.</p>\n<!-- /wp:paragraph -->`;

const KINDS: ReadonlyArray<readonly [string, (size: number) => string]> = [
  ['paragraphs', (size) => Array.from({ length: Math.ceil(size / 150) }, (_, index) => paragraph(index)).join('\n\n')],
  ['plain', (size) => 'word '.repeat(size / 5)],
  ['lines', (size) => 'line of text\n'.repeat(size / 13)],
  ['tags', (size) => '<b>'.repeat(size / 3)],
  ['colons', (size) => ': ) ;'.repeat(size / 5)],
  ['quotes', (size) => '"a" \'b\' '.repeat(size / 8)],
  ['smileys', (size) => 'hi :) there ;-) 8O :mrgreen: '.repeat(size / 29)],
  ['dashes', (size) => 'a -- b --- c - d... '.repeat(size / 20)],
];

/** Texts made of one short unit over and over: the densest quotes, primes, dashes, dimensions and ampersands. */
const DENSE_UNITS: ReadonlyArray<readonly [string, string]> = [
  ['dense quote pairs', '\'"'], ['dense quote pairs reversed', '"\''], ['dense apostrophes', "'"], ['dense doubles', '"'],
  ['dense word apostrophes', "a'"], ['dense word doubles', 'a"'], ['dense feet', "1'"], ['dense inches', '1"'],
  ['dense opening singles', " '"], ['dense closing singles', "' "], ['dense closing doubles', '" '],
  ['dense years', "'99' "], ['dense quoted numbers', '"\'1\'" '], ['dense mixed primes', '"1\''],
  ['dense hyphens', '-'], ['dense spaced hyphens', ' - '], ['dense double dashes', '--'], ['dense spaced dashes', ' -- '],
  ['dense triple dashes', '---'], ['dense ellipses', '...'], ['dense ampersands', '& '], ['dense dimensions', '9x9 '],
  ['dense nbsp quotes', '&nbsp;"'], ['dense escaped quotes', '&gt;"'], ['dense crlf', '\r\n'], ['dense breaks', '<br>'],
];
const repeatTo = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** Long runs of digits, periods and commas next to a dimension's "x". */
const DIMENSION_RUNS: ReadonlyArray<readonly [string, (size: number) => string]> = [
  ['dimension then decimal run', (size) => `9x9 ${'.1'.repeat(size / 2)}`],
  ['dimension then comma run', (size) => `9x9 ${'1,'.repeat(size / 2)}y`],
  ['dimension runs', (size) => repeatTo('0x0.0x1,1x.1 ', size)],
  ['long dimension', (size) => `${'1.'.repeat(size / 4)}x${'2,'.repeat(size / 4)}`],
];

const DOCUMENTS: ReadonlyArray<readonly [string, string]> = [
  ['blocks', [
    '<!-- wp:heading {"level":2} -->\n<h2 class="wp-block-heading">It\'s "here" -- now...</h2>\n<!-- /wp:heading -->',
    '<!-- wp:paragraph -->\n<p>First :) para with Wordpress & <em>emphasis</em>; 9x9 and 0x99.</p>\n<!-- /wp:paragraph -->',
    '<!-- wp:columns -->\n<div class="wp-block-columns"><!-- wp:column -->\n<div class="wp-block-column"><!-- wp:paragraph -->\n<p>Left \'col\'</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column -->\n\n<!-- wp:column -->\n<div class="wp-block-column"><!-- wp:image {"id":7} -->\n<figure class="wp-block-image"><img src="a.jpg" width="10" height="10" class="wp-image-7"/></figure>\n<!-- /wp:image --></div>\n<!-- /wp:column --></div>\n<!-- /wp:columns -->',
    '<!-- wp:shortcode -->\n[gallery ids="1,2"]\nline two\n\nnext\n<!-- /wp:shortcode -->',
    '<!-- wp:html -->\n<div>raw "html" :-)</div>\n<script>if (a -- b) x = "y";</script>\n<!-- /wp:html -->',
    '<!-- wp:latest-posts {"postsToShow":3} /-->',
    '<!-- wp:quote -->\n<blockquote class="wp-block-quote"><!-- wp:paragraph -->\n<p>Quoted "text"</p>\n<!-- /wp:paragraph --><cite>Someone</cite></blockquote>\n<!-- /wp:quote -->',
    '<!-- wp:more -->\n<!--more Read on-->\n<!-- /wp:more -->',
    '<!-- wp:preformatted -->\n<pre class="wp-block-preformatted">keep "this" -- :) as is\n\nreally</pre>\n<!-- /wp:preformatted -->',
    '<!-- wp:list -->\n<ul><!-- wp:list-item -->\n<li>one\'s</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->',
    'stray freeform "text" after',
    '<!-- /wp:paragraph -->',
    'and what follows the stray closer',
  ].join('\n\n')],
  ['classic', [
    'Intro line with "quotes" and \'single\' ones -- dashes --- and ellipses...',
    'Second paragraph\nwith a line break\r\nand CRLF\rand CR.',
    '<div class="box">Inside div\n\nTwo paras</div>',
    '<pre>\n  code "kept"\n\n  -- here :)\n</pre>',
    '<p>explicit paragraph</p>\n<p>  </p>',
    '<blockquote>Quote\n\nmore</blockquote>',
    '<ul>\n<li>item one</li>\n<li>item two</li>\n</ul>',
    '<table><tr><td>cell "a"</td></tr></table>',
    '<select><option>one</option>\n  <option>two</option></select>',
    '<object data="x"><param name="a" value="b" />\n<embed src="y" /></object>',
    '[video src="v.mp4"]\n<source src="v.webm" type="video/webm" />\n[/video]',
    '<figure><img src="x.png" width="1" height="2"><figcaption>\n Caption </figcaption></figure>',
    '<hr>\n<hr />text after hr',
    '<br><br/>\n<br /> <br>',
    '<script>var a = "b"\nvar c = 1</script>\n<style>p { a: b }\n</style>',
    '<svg>\n<path d="M0"/>\n</svg>',
    '<!--nextpage-->',
    'Page two "content"',
    '<!--more-->',
    'after more',
  ].join('\n\n')],
  ['shortcodes', [
    '[caption id="attachment_1" align="alignnone" width="300"]<img src="a.jpg" width="300" height="200" class="wp-image-1" /> A "caption"[/caption]',
    '[gallery ids="1,2,3"]',
    '[[gallery]] escaped and [[caption]x[/caption]]',
    '[code]keep "this" -- :)[/code] but "this" changes',
    '[embed]https://example.com/video[/embed]',
    '[audio src="a.mp3" /]',
    '[unknown attr="x"]text "q"[/unknown]',
    '<p>[gallery]</p>\n<p> [caption]inner[/caption] </p>',
    '<a title="[gallery]" href="#">link [gallery] text</a>',
    '&#91;gallery&#93; and [/gallery] closer alone',
    '[playlist ids="1"]\n\n[wp_caption]x[/wp_caption]',
  ].join('\n\n')],
  ['code', [
    'Before <code>"code" -- :) 9x9</code> after "quotes" :)',
    '<kbd>\'k\'</kbd> <tt>"tt"</tt> <textarea>:) "t"</textarea> :)',
    '<pre><code>nested "x"</code> still pre :)</pre> out "y" :)',
    '<code>unclosed "code" :) and on',
    '</code> stray closer "z" :-)',
    '<!-- comment "quotes" :) -- --> text "w"',
    '<![CDATA[ cdata "q" :) ]]> after',
    '<pre>first</pre> mid "m" <pre>second "s"</pre>',
  ].join('\n')],
  ['smileys', Array.from([
    ':mrgreen:', ':neutral:', ':twisted:', ':arrow:', ':shock:', ':smile:', ':???:', ':cool:', ':evil:', ':grin:',
    ':idea:', ':oops:', ':razz:', ':roll:', ':wink:', ':cry:', ':eek:', ':lol:', ':mad:', ':sad:', '8-)', '8-O',
    ':-(', ':-)', ':-?', ':-D', ':-P', ':-o', ':-x', ':-|', ';-)', '8O', ':(', ':)', ':?', ':D', ':P', ':o', ':x',
    ':|', ';)', ':!:', ':?:',
  ], (code, index) => [`${code}`, ` ${code} `, `a${code}`, `${code}b`, `&nbsp;${code}&nbsp;`, `\u00a0${code}\n`, `<b>${code}</b>`, `\t${code}\r`][index % 8]).join(' ')
    + '\n:) :) :)\n:):)\n<img alt=":)" /> :)\n8O8O 8-O. :-)!'],
  ['quotes', [
    '"Hello," she said. \'It\'s 7\' tall and 9" wide.\'',
    'In \'99 and the \'90s, \'tis true, \'twas said \'bout \'em.',
    '"0.42" and \'1,000\' and "He said \'hi\' to me"',
    '``old style\'\' quotes and (tm) mark',
    '"quote 1" "2" 3" 4\'s 5\' 6\'7"',
    '"<b>bold</b>" and \'<i>i</i>\' &lt;"q"&gt; ["x"] {\'y\'} ("z")',
    'He\'s "the \'one\'". "Nested \'quotes\' here," it said.',
    'multiple 1" 2" 3" primes inside "a quote 4" end" done.',
    '"unclosed quote and 5\' 6\' 7\'.',
    'xn--dash and a--b and a - b -- c --- d',
    'He said "a 5". 6". done and \'b 7\'. 8\'. end, "c 1" 2" 3" and "d 4"x 5"',
  ].join('\n\n')],
  ['entities', 'AT&T & friends &amp; &#038; &#x26; &nbsp; &bogus; &toolongentity; <a href="?a=1&b=2">q&a</a> Wordpress (Wordpress) >Wordpress &#8216;Wordpress'],
  ['media', '<img src="a.png" width="1" height="1"> <img class="wp-image-5" src="b.png"> <img src="a.png" width="1" height="1"> <iframe src="v" width="1" height="1"></iframe> <iframe data-secret="s" src="v" width="1" height="1"></iframe> <img loading="eager" decoding="sync" src="c.png" width="1" height="1">'],
  ['embeds', 'https://example.com/a\n\n<p>https://example.com/b</p>\n\ntext https://example.com/c inline\n  https://unknown.example/d  \n<a\nhref="x">newline in tag</a>'],
];

const FRAGMENTS = [
  ' ', ' ', ' ', '\n', '\n\n', '\r\n', '\t', '\u00a0', '&nbsp;', 'word', 'word', 'text', 'Wordpress', '9', '99', 'x', '0x',
  '"', '"', "'", "'", '`', '-', '--', '---', '...', '(tm)', '&', '&amp;', ';', ':', ')', '(', '8', 'O', 'D', 'P', '?', '!',
  ':)', ';-)', ':mrgreen:', ':???:', '8O', '<', '>', '</', '<p>', '</p>', '<br>', '<br />', '<div>', '</div>', '<pre>',
  '</pre>', '<code>', '</code>', '<b>', '</b>', '<a href="x">', '</a>', '<li>', '<ul>', '</ul>', '<blockquote>',
  '</blockquote>', '<script>', '</script>', '<textarea>', '</textarea>', '<!--', '-->', '<!-- x -->', '<!--more-->',
  '<!--nextpage-->', '<![CDATA[', ']]>', '[', ']', '[gallery]', '[/gallery]', '[caption]', '[/caption]', '[[gallery]]',
  '[code]', '[/code]', '<!-- wp:paragraph -->', '<!-- /wp:paragraph -->', '<!-- wp:group -->', '<!-- /wp:group -->',
  '<!-- wp:shortcode -->', '<!-- /wp:shortcode -->', '<!-- wp:image /-->', '<!-- wp:more -->', '<!-- /wp:more -->',
  '<img src="i.png" width="1" height="1">', '<img class="wp-image-3" src="j.png">', '<option>', '<hr>', '<figcaption>',
  '</figcaption>', '<source>', '<pre wp-pre-tag-0></pre>', '<WPPreserveNewline />', '<!-- wpnl -->', 'https://example.com/',
];

/** Quotes, primes and what surrounds them, for the quotation rules. */
const QUOTE_FRAGMENTS = [
  '"', '"', '"', "'", "'", "'", '5', '12', '99', '.', '.', ' ', ' ', 'a', 'word', ',', '\n', '-', '--', '&gt;', '&lt;',
  '&nbsp;', '\u00a0', ')', '(', 'x', '!', ';', ']', '\t', "'tis", '0.42', '&#8217;', '&#8221;', '<b>', '</b>',
];
/** A small deterministic generator (mulberry32), so the random inputs are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function mix(seed: number, pieces: number, fragments: readonly string[] = FRAGMENTS): string {
  const next = random(seed);
  let text = '';
  for (let index = 0; index < pieces; index++) text += fragments[Math.floor(next() * fragments.length)];
  return text;
}

export function goldenInputs(): Array<readonly [string, string]> {
  const inputs: Array<readonly [string, string]> = [];
  for (const [name, make] of KINDS) for (const size of [2_000, 20_000]) inputs.push([`${name} ${size}`, make(size)]);
  for (const [name, unit] of DENSE_UNITS) for (const size of [2_000, 20_000]) inputs.push([`${name} ${size}`, repeatTo(unit, size)]);
  for (const [name, make] of DIMENSION_RUNS) inputs.push([`${name} 2000`, make(2_000)]);
  for (const [name, text] of DOCUMENTS) {
    inputs.push([name, text]);
    inputs.push([`${name} x8`, `${text}\n\n`.repeat(8)]);
  }
  const literals = JSON.parse(readFileSync(new URL('literals.json', import.meta.url), 'utf8')) as string[];
  literals.forEach((text, index) => inputs.push([`literal ${index}`, text]));
  for (let seed = 1; seed <= 160; seed++) inputs.push([`mix ${seed}`, mix(seed, seed % 10 === 0 ? 3_000 : 20 + (seed * 37) % 400)]);
  for (let seed = 1; seed <= 120; seed++) inputs.push([`quote mix ${seed}`, mix(seed * 7919, 10 + (seed * 13) % 120, QUOTE_FRAGMENTS)]);
  return inputs;
}
