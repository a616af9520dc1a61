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
