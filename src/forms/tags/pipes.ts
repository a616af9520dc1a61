/**
 * Pipes: a value written `"Label|after"` shows `Label` to the visitor and puts `after` into posted data and mail.
 * A value without `|` pipes to itself.
 */
import { canonicalize, stripWhitespaces } from '../text.js';

export interface Pipe {
  before: string;
  after: string;
}

export class Pipes {
  readonly #pipes: Pipe[];

  constructor(texts: readonly string[] = []) {
    this.#pipes = texts.map((text) => {
      const bar = text.indexOf('|');
      if (bar === -1) {
        const value = stripWhitespaces(text);
        return { before: value, after: value };
      }
      return { before: stripWhitespaces(text.slice(0, bar)), after: stripWhitespaces(text.slice(bar + 1)) };
    });
  }

  /** Pipes of several same-named tags, in order. */
  static merge(all: readonly Pipes[]): Pipes {
    const merged = new Pipes();
    for (const pipes of all) merged.#pipes.push(...pipes.#pipes);
    return merged;
  }

  get all(): readonly Pipe[] {
    return this.#pipes;
  }

  get empty(): boolean {
    return this.#pipes.length === 0;
  }

  /** The after-value of the first pipe whose before-value matches the input (canonically, case kept). */
  apply(input: string): string {
    const wanted = canonicalize(input, { case: 'as-is' });
    for (const pipe of this.#pipes) {
      if (canonicalize(pipe.before, { case: 'as-is' }) === wanted) return pipe.after;
    }
    return input;
  }

  befores(): string[] {
    return this.#pipes.map((pipe) => pipe.before);
  }

  toArray(): [string, string][] {
    return this.#pipes.map((pipe) => [pipe.before, pipe.after]);
  }
}
