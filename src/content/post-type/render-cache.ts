/**
 * Rendered content and excerpts, remembered by their source text. Lists render the same records again and
 * again, and rendering (paragraphs, smart quotes, generated excerpts) costs more than the rest of a list
 * request; the output depends only on the text and the excerpt length, so a small LRU map is safe. A generated
 * excerpt is cut from the rendered content, which is usually the very text `content.rendered` was made from,
 * so it is taken from the same cache. Both caches are bounded in entries and in characters held, so large posts
 * cannot make them hold more than a few tens of megabytes.
 */
import type { ChunkedText } from '../../core/chunked-text.js';
import { renderContent, renderExcerpt, renderTitle } from '../render/index.js';
import { OFF_THREAD_CHARACTERS, renderOffThread } from '../render/pool/jobs.js';

const LIMIT = 1_000;
/** Characters of source and output one cache holds at most; an entry larger than a quarter of it is not kept. */
const CHARACTER_BUDGET = 32 * 1024 * 1024;

/** A rendering: a string, or chunks when it is very long and came from a worker thread. */
type Rendered = string | ChunkedText;

class TextCache<Key> {
  readonly #entries = new Map<Key, { value: Rendered; size: number }>();
  #characters = 0;

  get(key: Key, keySize: number, compute: () => string): Rendered {
    return this.peek(key) ?? this.put(key, keySize, compute());
  }

  async getAsync(key: Key, keySize: number, compute: () => Promise<Rendered>): Promise<Rendered> {
    return this.peek(key) ?? this.put(key, keySize, await compute());
  }

  /** Whether an entry this large could be kept at all: when not, looking it up only costs hashing its key. */
  static keeps(keySize: number): boolean {
    return keySize <= CHARACTER_BUDGET / 4;
  }

  peek(key: Key): Rendered | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.value;
  }

  put<Value extends Rendered>(key: Key, keySize: number, value: Value): Value {
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
const titles = new TextCache<string>();

/**
 * `title.rendered` as the REST answers show it (no "Protected: " prefix): it depends on the title, on whether
 * the record has a password and, without one, on whether it is private.
 */
export function renderedTitle(raw: string, status: string, hasPassword: boolean): string {
  const options = { status, hasPassword };
  // Only "Private: " is ever added, and only without a password: the other records share one key per title.
  const key = `${!hasPassword && status === 'private' ? 'p' : '-'}${raw}`;
  return String(titles.get(key, key.length, () => renderTitle(raw, options)));
}

export function renderedContent(raw: string): string {
  return String(contents.get(raw, raw.length, () => renderContent(raw)));
}

export function renderedExcerpt(excerpt: string, content: string, excerptLength: number | undefined): string {
  const key = excerptKey(excerpt, content, excerptLength);
  return String(excerpts.get(key, key.length, () => renderExcerpt(excerpt, content, { excerptLength, renderTeaser: renderedContent })));
}

/**
 * As `renderedContent`, with large texts rendered on a worker thread (the same output; the loop stays free): the
 * very longest come back as chunks, which answers encode as the same JSON string.
 */
export function renderedContentAsync(raw: string): Rendered | Promise<Rendered> {
  if (raw.length <= OFF_THREAD_CHARACTERS) return renderedContent(raw);
  const render = () => renderOffThread({ kind: 'content', raw }, renderedContent);
  return TextCache.keeps(raw.length) ? contents.getAsync(raw, raw.length, render) : render();
}

/** As `renderedExcerpt`, with large texts rendered on a worker thread. */
export function renderedExcerptAsync(excerpt: string, content: string, excerptLength: number | undefined): Rendered | Promise<Rendered> {
  if (excerpt.length + content.length <= OFF_THREAD_CHARACTERS) return renderedExcerpt(excerpt, content, excerptLength);
  if (!TextCache.keeps(excerpt.length + content.length)) return renderOffThread({ kind: 'excerpt', excerpt, content, excerptLength }, renderedContent);
  const key = excerptKey(excerpt, content, excerptLength);
  return excerpts.getAsync(key, key.length, () => renderOffThread({ kind: 'excerpt', excerpt, content, excerptLength }, renderedContent));
}

// The excerpt length and the stored excerpt lead the key; the NUL separators cannot occur in either.
const excerptKey = (excerpt: string, content: string, excerptLength: number | undefined) => `${excerptLength ?? ''}\u0000${excerpt}\u0000${content}`;
