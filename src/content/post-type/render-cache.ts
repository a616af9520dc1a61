/**
 * Rendered content and excerpts, remembered by their source text. Lists render the same records again and
 * again, and rendering (paragraphs, smart quotes, generated excerpts) costs more than the rest of a list
 * request; the output depends only on the text and the excerpt length, so a small LRU map is safe. A generated
 * excerpt is cut from the rendered content, which is usually the very text `content.rendered` was made from,
 * so it is taken from the same cache. Both caches are bounded in entries and in characters held, so large posts
 * cannot make them hold more than a few tens of megabytes.
 */
import { renderContent, renderExcerpt } from '../render/index.js';

const LIMIT = 1_000;
/** Characters of source and output one cache holds at most; an entry larger than a quarter of it is not kept. */
const CHARACTER_BUDGET = 32 * 1024 * 1024;

class TextCache<Key> {
  readonly #entries = new Map<Key, { value: string; size: number }>();
  #characters = 0;

  get(key: Key, keySize: number, compute: () => string): string {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value;
    }
    const value = compute();
    const size = keySize + value.length;
    if (size > CHARACTER_BUDGET / 4) return value;
    this.#entries.set(key, { value, size });
    this.#characters += size;
    while (this.#entries.size > LIMIT || this.#characters > CHARACTER_BUDGET) {
      const [oldest, entry] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      this.#characters -= entry.size;
    }
    return value;
  }
}

const contents = new TextCache<string>();
const excerpts = new TextCache<string>();

export function renderedContent(raw: string): string {
  return contents.get(raw, raw.length, () => renderContent(raw));
}

export function renderedExcerpt(excerpt: string, content: string, excerptLength: number | undefined): string {
  // The excerpt length and the stored excerpt lead the key; the NUL separators cannot occur in either.
  const key = `${excerptLength ?? ''}\u0000${excerpt}\u0000${content}`;
  return excerpts.get(key, key.length, () => renderExcerpt(excerpt, content, { excerptLength, renderTeaser: renderedContent }));
}
