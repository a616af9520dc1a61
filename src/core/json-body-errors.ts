/**
 * Finding the error in a large JSON body without holding the event loop. A body whose shape the pieces cannot
 * follow (brackets that do not pair up, text after the value, nesting past the limit) is not JSON, or is one
 * large number or word: one pass over its text, in turns, finds the first place it stops being JSON, which is
 * where `JSON.parse` stops, and so the same error as the one-call decoding. Only a valid body is then parsed.
 */
import { isSpace, type PiecedText } from '../format/json-pieces.js';

/**
 * Where a text stops being JSON: a raw control character in a string, any other `syntax` error, its `end` while
 * a value is still open, or null when it is one whole JSON value.
 */
export type JsonFault = 'control' | 'syntax' | 'end' | null;

/** The characters checked between two checks of the turn. */
const SLICE_CHARS = 0x10000;

// What the next character may be.
const VALUE = 0;
const VALUE_OR_CLOSE = 1;
const KEY_OR_CLOSE = 2;
const KEY = 3;
const COLON = 4;
const AFTER_VALUE = 5;
const STRING = 6;
const ESCAPE = 7;
const HEX = 8;
const MINUS = 9;
const ZERO = 10;
const INTEGER = 11;
const POINT = 12;
const FRACTION = 13;
const EXPONENT = 14;
const EXPONENT_SIGN = 15;
const EXPONENT_DIGITS = 16;
const WORD = 17;

/** Where a number may end. */
const NUMBER_ENDS = new Set([ZERO, INTEGER, FRACTION, EXPONENT_DIGITS]);
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isHex = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
/** The characters that may follow a backslash (besides `u`). */
const ESCAPED = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/** The JSON grammar, one character at a time. */
class Checker {
  state = VALUE;
  /** The open containers, true for an array. */
  readonly open: boolean[] = [];
  stringIsKey = false;
  hexLeft = 0;
  word = '';
  wordAt = 0;

  /** Checks `piece` from `from` to `end`; the fault found, or undefined to go on. */
  check(piece: string, from: number, end: number): Exclude<JsonFault, 'end' | null> | undefined {
    for (let index = from; index < end; index += 1) {
      const code = piece.charCodeAt(index);
      switch (this.state) {
        case STRING:
          if (code === 0x22) this.state = this.stringIsKey ? COLON : AFTER_VALUE;
          else if (code === 0x5c) this.state = ESCAPE;
          else if (code < 0x20) return 'control';
          continue;
        case ESCAPE:
          if (code === 0x75) {
            this.state = HEX;
            this.hexLeft = 4;
          } else if (ESCAPED.has(code)) this.state = STRING;
          else return 'syntax';
          continue;
        case HEX:
          if (!isHex(code)) return 'syntax';
          if (--this.hexLeft === 0) this.state = STRING;
          continue;
        case WORD:
          if (code !== this.word.charCodeAt(this.wordAt)) return 'syntax';
          if (++this.wordAt === this.word.length) this.state = AFTER_VALUE;
          continue;
        case MINUS:
          if (code === 0x30) this.state = ZERO;
          else if (isDigit(code)) this.state = INTEGER;
          else return 'syntax';
          continue;
        case ZERO:
        case INTEGER:
          if (this.state === INTEGER && isDigit(code)) continue;
          if (code === 0x2e) this.state = POINT;
          else if (code === 0x65 || code === 0x45) this.state = EXPONENT;
          else if (isDigit(code)) return 'syntax';
          else {
            this.state = AFTER_VALUE;
            index -= 1;
          }
          continue;
        case POINT:
          if (!isDigit(code)) return 'syntax';
          this.state = FRACTION;
          continue;
        case FRACTION:
          if (isDigit(code)) continue;
          if (code === 0x65 || code === 0x45) this.state = EXPONENT;
          else {
            this.state = AFTER_VALUE;
            index -= 1;
          }
          continue;
        case EXPONENT:
          if (code === 0x2b || code === 0x2d) this.state = EXPONENT_SIGN;
          else if (isDigit(code)) this.state = EXPONENT_DIGITS;
          else return 'syntax';
          continue;
        case EXPONENT_SIGN:
          if (!isDigit(code)) return 'syntax';
          this.state = EXPONENT_DIGITS;
          continue;
        case EXPONENT_DIGITS:
          if (isDigit(code)) continue;
          this.state = AFTER_VALUE;
          index -= 1;
          continue;
      }
      if (isSpace(code)) continue;
      const fault = this.#token(code);
      if (fault) return fault;
    }
    return undefined;
  }

  /** A character outside strings, numbers and words. */
  #token(code: number): 'syntax' | undefined {
    const state = this.state;
    if (state === VALUE_OR_CLOSE && code === 0x5d) return this.#close(true);
    if (state === VALUE || state === VALUE_OR_CLOSE) return this.#value(code);
    if (state === KEY_OR_CLOSE && code === 0x7d) return this.#close(false);
    if (state === KEY || state === KEY_OR_CLOSE) {
      if (code !== 0x22) return 'syntax';
      this.state = STRING;
      this.stringIsKey = true;
      return undefined;
    }
    if (state === COLON) {
      if (code !== 0x3a) return 'syntax';
      this.state = VALUE;
      return undefined;
    }
    const open = this.open;
    if (open.length === 0) return 'syntax';
    if (code === 0x2c) {
      this.state = open[open.length - 1] ? VALUE : KEY;
      return undefined;
    }
    if (code === 0x5d || code === 0x7d) return this.#close(code === 0x5d);
    return 'syntax';
  }

  #close(isArray: boolean): 'syntax' | undefined {
    if (this.open.pop() !== isArray) return 'syntax';
    this.state = AFTER_VALUE;
    return undefined;
  }

  #value(code: number): 'syntax' | undefined {
    if (code === 0x22) {
      this.state = STRING;
      this.stringIsKey = false;
    } else if (code === 0x5b || code === 0x7b) {
      this.open.push(code === 0x5b);
      this.state = code === 0x5b ? VALUE_OR_CLOSE : KEY_OR_CLOSE;
    } else if (code === 0x2d) this.state = MINUS;
    else if (code === 0x30) this.state = ZERO;
    else if (isDigit(code)) this.state = INTEGER;
    else if (code === 0x74 || code === 0x66 || code === 0x6e) {
      this.word = code === 0x74 ? 'true' : code === 0x66 ? 'false' : 'null';
      this.wordAt = 1;
      this.state = WORD;
    } else return 'syntax';
    return undefined;
  }

  /** What the end of the text makes of it. */
  atEnd(): JsonFault {
    if (this.open.length > 0) return 'end';
    if (this.state === AFTER_VALUE || NUMBER_ENDS.has(this.state)) return null;
    return 'end';
  }
}

/** The first fault of the text's first `end` characters (see `JsonFault`), found in turns. */
export async function jsonFaultInTurns(text: PiecedText, end: number, turn: () => Promise<void>): Promise<JsonFault> {
  const checker = new Checker();
  let base = 0;
  for (const piece of text.pieces) {
    const pieceEnd = Math.min(piece.length, end - base);
    for (let from = 0; from < pieceEnd; from += SLICE_CHARS) {
      const fault = checker.check(piece, from, Math.min(pieceEnd, from + SLICE_CHARS));
      if (fault) return fault;
      await turn();
    }
    base += piece.length;
    if (base >= end) break;
  }
  return checker.atEnd();
}

