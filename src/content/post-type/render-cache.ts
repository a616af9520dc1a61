/**
 * Rendered content and excerpts, remembered by their source text. Lists render the same records again and
 * again, and rendering (paragraphs, smart quotes, generated excerpts) costs more than the rest of a list
 * request; the output depends only on the text and the excerpt length, so a small LRU map is safe.
 */
import { renderContent, renderExcerpt } from '../render/index.js';

const LIMIT = 1_000;

class TextCache {
  readonly #entries = new Map<string, string>();

  get(key: string, compute: () => string): string {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.#entries.set(key, value);
    if (this.#entries.size > LIMIT) this.#entries.delete(this.#entries.keys().next().value!);
    return value;
  }
}

const contents = new TextCache();
const excerpts = new TextCache();

export function renderedContent(raw: string): string {
  return contents.get(raw, () => renderContent(raw));
}

export function renderedExcerpt(excerpt: string, content: string, excerptLength: number | undefined): string {
  // The excerpt length and the stored excerpt lead the key; the NUL separators cannot occur in either.
  return excerpts.get(`${excerptLength ?? ''}\u0000${excerpt}\u0000${content}`, () => renderExcerpt(excerpt, content, { excerptLength }));
}
