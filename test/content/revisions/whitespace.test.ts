import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeWhitespace, sameWhitespaceAside } from '../../../src/content/revisions/record.js';
import { makeSite } from './helpers.js';

const PIECE = 256 * 1024;
const MIB = 1024 * 1024;

/** A text of `length` characters whose runs of blanks and line breaks fall on and across every piece boundary. */
function spaced(length: number, seed: number): string {
  const parts: string[] = ['  \r\n'];
  let size = 4;
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  while (size < length) {
    const runs = ['word', ' ', '\t \t', '\n', '\r\n\r', ' \n ', '\n\n\n \t', 'é', ' '.repeat(next() % 40), '\n'.repeat(next() % 9)];
    const part = runs[next() % runs.length]!;
    parts.push(part);
    size += part.length;
  }
  // Long runs of one kind across the first few piece boundaries.
  return `${parts.join('')}\n`.slice(0, PIECE - 3) + ' '.repeat(PIECE) + 'x' + '\r\n'.repeat(PIECE / 2) + `${parts.join('')}  `;
}

/** A seeded generator of integers below `bound`. */
function randomFrom(seed: number): (bound: number) => number {
  let state = seed;
  return (bound) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * bound);
  };
}

const BLANKS = [' ', '\t'];
const LINE_BREAKS = ['\n', '\r'];
/** What trimming removes but collapsing leaves alone, letters, a two-byte letter and a surrogate pair. */
const KEPT = ['a', 'b', 'é', '\0', '\x0B', '\u{1F600}'];
const TRIMMED = [' ', '\t', '\n', '\r', '\0', '\x0B'];

function runOf(random: (bound: number) => number, kinds: string[], most: number): string {
  let run = '';
  for (let count = 1 + random(most); count > 0; count -= 1) run += kinds[random(kinds.length)]!;
  return run;
}

/** A random text of letters and runs of blanks and line breaks, a few ends trimming removes included. */
function randomText(random: (bound: number) => number, length: number): string {
  let text = random(3) === 0 ? runOf(random, TRIMMED, 5) : '';
  while (text.length < length) {
    const choice = random(6);
    text += choice < 3 ? KEPT[random(KEPT.length)]! : runOf(random, choice === 3 ? LINE_BREAKS : BLANKS, choice === 5 ? 30 : 4);
  }
  return random(3) === 0 ? text + runOf(random, TRIMMED, 5) : text;
}

/** The same text with every run of blanks or line breaks redrawn and the ends padded: the same, whitespace aside. */
function rewhitespaced(random: (bound: number) => number, text: string): string {
  const padding = () => (random(2) === 0 ? runOf(random, TRIMMED, 8) : '');
  const body = text
    .replace(/[ \t]+/g, () => runOf(random, BLANKS, 12))
    .replace(/[\r\n]+/g, () => runOf(random, LINE_BREAKS, 12));
  return padding() + body + padding();
}

const at = (text: string, position: number, insert: string, remove = 0) => text.slice(0, position) + insert + text.slice(position + remove);

/** Variants of `text` near the start, the end and every multiple of `piece`: changes and whitespace only. */
function variants(random: (bound: number) => number, text: string, piece: number): string[] {
  const positions = [0, 1, text.length - 1, text.length];
  for (let boundary = piece; boundary < text.length; boundary += piece) positions.push(boundary - 1, boundary, boundary + 1);
  const result: string[] = [];
  for (const position of positions.filter((position) => position >= 0 && position <= text.length)) {
    result.push(
      at(text, position, 'X'),
      at(text, position, '', 1),
      at(text, position, 'Y', 1),
      at(text, position, ' '),
      at(text, position, '\n'),
      at(text, position, runOf(random, BLANKS, piece + 2)),
      at(text, position, runOf(random, LINE_BREAKS, piece + 2)),
    );
  }
  return result;
}

describe('revisions: comparing texts whitespace aside', () => {
  it('agrees with normalizeWhitespace on long texts, piece boundaries inside runs included', async () => {
    for (const seed of [1, 2, 3]) {
      const text = spaced(3 * PIECE + 17, seed);
      const normalized = normalizeWhitespace(text);
      assert.ok(normalized.length < text.length);
      assert.equal(await sameWhitespaceAside(text, normalized), true);
      assert.equal(await sameWhitespaceAside(normalized, `${text}\n \t`), true);
      assert.equal(await sameWhitespaceAside(text, text.replace('word', 'Word')), false);
      // A blank where the other has a line break, or a blank gained between two words, is a change.
      assert.equal(await sameWhitespaceAside(text, normalized.replace(' ', '\n')), normalizeWhitespace(normalized.replace(' ', '\n')) === normalized);
      assert.equal(await sameWhitespaceAside(text, normalized.replace('wordword', 'word word')), !normalized.includes('wordword'));
    }
    assert.equal(await sameWhitespaceAside(' a  b\r\n', 'a b\n'), true);
    assert.equal(await sameWhitespaceAside('a b', 'ab'), false);
    assert.equal(await sameWhitespaceAside('x'.repeat(PIECE + 1), ` ${'x'.repeat(PIECE + 1)}\n`), true);
    assert.equal(await sameWhitespaceAside(' '.repeat(2 * PIECE), ''), true);
  });

  it('agrees with normalizeWhitespace on random texts, whatever the length of the pieces', async () => {
    const take = async () => {};
    let same = 0;
    let different = 0;
    for (let seed = 1; seed <= 300; seed += 1) {
      const random = randomFrom(seed);
      const piece = 1 + random(24);
      const text = randomText(random, random(12 * piece));
      const others = [text, rewhitespaced(random, text), randomText(random, random(12 * piece)), ...variants(random, text, piece)];
      for (const other of [...others, ...others.map((each) => rewhitespaced(random, each))]) {
        const expected = normalizeWhitespace(text) === normalizeWhitespace(other);
        if (expected) same += 1;
        else different += 1;
        const context = `seed ${seed}, pieces of ${piece}: ${JSON.stringify(text)} and ${JSON.stringify(other)}`;
        assert.equal(await sameWhitespaceAside(text, other, take, piece), expected, context);
        assert.equal(await sameWhitespaceAside(other, text, take, piece), expected, context);
      }
    }
    // Both answers are well represented.
    assert.ok(same > 5000 && different > 5000, `${same} same, ${different} different`);
  });

  it('agrees with normalizeWhitespace where a run straddles a piece boundary on one side only', async () => {
    const take = async () => {};
    const piece = 8;
    const words = 'abcdefghijklmnopqrstuvwxyz'.repeat(4);
    for (let boundary = piece; boundary < words.length; boundary += piece) {
      for (const run of [' ', ' \t ', '\n', '\r\n\r', ' '.repeat(3 * piece), '\n'.repeat(3 * piece)]) {
        for (const shift of [-2, -1, 0, 1]) {
          const spaced = at(words, boundary + shift, run);
          const collapsed = at(words, boundary + shift, run.includes(' ') || run.includes('\t') ? ' ' : '\n');
          assert.equal(await sameWhitespaceAside(spaced, collapsed, take, piece), true, JSON.stringify(spaced));
          assert.equal(await sameWhitespaceAside(collapsed, spaced, take, piece), true, JSON.stringify(spaced));
          assert.equal(await sameWhitespaceAside(spaced, words, take, piece), false, JSON.stringify(spaced));
          // A blank where the other has a line break, and a run going on into a letter the other lacks.
          const other = at(words, boundary + shift, run.includes('\n') ? ' ' : '\n');
          assert.equal(await sameWhitespaceAside(spaced, other, take, piece), false, JSON.stringify(spaced));
          assert.equal(await sameWhitespaceAside(spaced, `${collapsed}z`, take, piece), false);
        }
      }
    }
  });

  it('stops at the first difference, and trims megabytes of trailing whitespace in turns', async () => {
    const long = 'A line of text,\twith  blanks.\n\n'.repeat(4 * MIB / 32);
    let turns = 0;
    const take = async () => {
      turns += 1;
    };
    assert.equal(await sameWhitespaceAside(`X${long}`, long, take), false);
    assert.ok(turns <= 2, `${turns} turns for a difference at the start`);
    turns = 0;
    const trailing = `x${' \t'.repeat(MIB)}${'\n\r'.repeat(MIB)}`;
    assert.equal(await sameWhitespaceAside(trailing, 'x', take), true);
    assert.equal(await sameWhitespaceAside(`${trailing}y`, 'x\ny', take), false);
    assert.equal(await sameWhitespaceAside(`${trailing}y`, 'x \ny', take), true);
    assert.ok(turns >= 4, `${turns} turns for megabytes of trailing whitespace`);
  });

  it('lets the event loop take a turn between the pieces of a long text', async () => {
    const long = `${'A line of text,\twith  blanks.\n\n'.repeat(8 * MIB / 32)}`;
    const other = `${long}More.`;
    let turns = 0;
    const take = async () => {
      turns += 1;
    };
    assert.equal(await sameWhitespaceAside(long, other, take), false);
    // Both texts normalised a piece at a time: at least one turn offered per piece.
    assert.ok(turns >= 2 * Math.floor(long.length / PIECE), `${turns} turns for ${long.length} characters`);
    turns = 0;
    assert.equal(await sameWhitespaceAside(long, long.slice(0), take), true);
    assert.equal(turns, 0, 'equal texts need no normalising');
  });

  it('an update of a post with long texts makes a revision only when they changed, whitespace aside', async () => {
    const site = await makeSite({ maxParsedBodyBytes: 64 * MIB });
    const content = `<p>${'Long content, "quoted".\n'.repeat(2 * MIB / 24)}</p>`;
    const post = await site.create({ title: 'Long', content, excerpt: 'Short', status: 'publish' });
    await site.update(post.id, { title: 'Long' });
    assert.equal((await site.storedRevisions(post.id)).length, 1);
    await site.update(post.id, { content: `\n${content.replaceAll('\n', '\r\n\n')}  ` });
    assert.equal((await site.storedRevisions(post.id)).length, 1, 'line breaks and blanks alone make no revision');
    await site.update(post.id, { excerpt: `${'Long excerpt. '.repeat(MIB / 14)}` });
    const revisions = await site.storedRevisions(post.id);
    assert.equal(revisions.length, 2);
    assert.ok(String(revisions.at(-1)!.excerpt).startsWith('Long excerpt. '));
  });
});
