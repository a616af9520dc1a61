/**
 * Decoding a large JSON body (up to the parsed-body limit, 8 MiB by default) without holding the event loop: a
 * count, in turns, measures its nesting and holds it to the JSON limits (`JsonCount`); one scan, in turns, then
 * finds the large values (strings and containers of `GROUP_CHARS` or more); every large container is
 * then parsed group by group (runs of its members of about `GROUP_CHARS`, or one large member alone), every large
 * string slice by slice, each piece with `JSON.parse`, taking a turn of the loop whenever the work has held it for
 * `TURN_MS` (src/format/json-pieces.ts reads the pieces). The value is the one `JSON.parse` gives for the whole
 * text (made safe as `decodeJson` makes it), and the errors are the same codes. A text whose shape the pieces
 * cannot follow (brackets that do not pair up, nesting past the limit, a value that is not one large container or
 * string) is checked in turns for the error the one-call decoding reports (src/core/json-body-errors.ts); only
 * such a text that is JSON (one long number or word) is decoded in one call.
 */
import type { CmsError } from './errors.js';
import {
  CONTROL_ERROR, decodeJson, decodeShallowJson, DEFAULT_JSON_LIMITS, DEPTH_ERROR, hasLoneSurrogateEscape, JsonCount, jsonTooLarge,
  loneSurrogateEscapeIn, MAX_JSON_DEPTH, SURROGATE_ERROR, SYNTAX_ERROR,
} from './json-body.js';
import { jsonFaultInTurns } from './json-body-errors.js';
import { isSpace, MalformedJson, PiecedReader, PiecedText, scanLarge, type PieceRules } from '../format/json-pieces.js';
import { turnTaker } from '../format/turn.js';
import { emptySafeMap, isUnsafeKey, toSafeTree } from './safe-object.js';

/** Bodies this long or longer are decoded in pieces. */
export const LARGE_BODY_CHARS = 256 * 1024;

type Decoded = { ok: true; value: unknown } | { ok: false; error: CmsError };

/** Client input: each piece checked as `decodeJson` checks it, maps without prototypes, no unsafe keys. */
class BodyRules implements PieceRules {
  loneSurrogate = false;

  parse(piece: string): unknown {
    let value: unknown;
    try {
      value = JSON.parse(piece);
    } catch (error) {
      throw new MalformedJson(/control character/i.test((error as Error).message));
    }
    if (!this.loneSurrogate && hasLoneSurrogateEscape(piece)) this.loneSurrogate = true;
    return toSafeTree(value);
  }

  container(isArray: boolean): unknown[] | Record<string, unknown> {
    return isArray ? [] : emptySafeMap();
  }

  setMember(target: Record<string, unknown>, key: string, value: unknown): void {
    if (!isUnsafeKey(key)) target[key] = value;
  }
}

/**
 * `decodeJson`, in turns for a large text, given whole or as the consecutive strings it was decoded into (read
 * as they are, never joined). Its nesting and counts are measured first, so a text past a limit is never parsed.
 */
export async function decodeJsonInTurns(source: string | readonly string[], limits = DEFAULT_JSON_LIMITS): Promise<Decoded> {
  const pieces = typeof source === 'string' ? [source] : source;
  const text = new PiecedText(pieces);
  if (text.length < LARGE_BODY_CHARS) return decodeJson(pieces.join(''), limits);
  const turn = turnTaker();
  const count = new JsonCount(limits);
  const stoppedAt = await countInTurns(text, count, turn);
  if (count.stop === 'depth') return { ok: false, error: await errorBeforeDepthLimitInTurns(text, stoppedAt, turn) };
  if (count.stop !== null) return { ok: false, error: jsonTooLarge(limits, count.stop) };
  const scanned = await scanLarge(text, turn, MAX_JSON_DEPTH);
  // The brackets do not pair up, or (as counted above, never) nest too deep: not JSON.
  if (scanned === null || typeof scanned === 'number') return await decodeOtherInTurns(pieces, text, turn);
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end -= 1;
  if (scanned.get(start)?.end !== end) return await decodeOtherInTurns(pieces, text, turn);
  const rules = new BodyRules();
  try {
    const value = await new PiecedReader(text, scanned, turn, rules).value(start);
    if (rules.loneSurrogate) return { ok: false, error: SURROGATE_ERROR() };
    return { ok: true, value };
  } catch (error) {
    if (error instanceof MalformedJson) return { ok: false, error: error.control ? CONTROL_ERROR() : SYNTAX_ERROR() };
    throw error;
  }
}

/** The characters read between two checks of the turn. */
const SLICE_CHARS = 0x10000;

/**
 * A text the pieces cannot follow, nesting within the limit: its first fault, found in turns; only a text that is
 * JSON (one large number or word with spaces around it) is decoded in one call.
 */
async function decodeOtherInTurns(pieces: readonly string[], text: PiecedText, turn: () => Promise<void>): Promise<Decoded> {
  const fault = await jsonFaultInTurns(text, text.length, turn);
  if (fault === null) return decodeShallowJson(pieces.join(''));
  return { ok: false, error: fault === 'control' ? CONTROL_ERROR() : SYNTAX_ERROR() };
}

/** `errorBeforeDepthLimit` of the text's first `tooDeepAt` characters, in turns. */
async function errorBeforeDepthLimitInTurns(text: PiecedText, tooDeepAt: number, turn: () => Promise<void>): Promise<CmsError> {
  for (let from = 0; from < tooDeepAt; from += SLICE_CHARS) {
    if (loneSurrogateEscapeIn(text, from, Math.min(tooDeepAt, from + SLICE_CHARS), tooDeepAt)) return SURROGATE_ERROR();
    await turn();
  }
  const fault = await jsonFaultInTurns(text, tooDeepAt, turn);
  return fault === 'control' ? CONTROL_ERROR() : fault === 'syntax' ? SYNTAX_ERROR() : DEPTH_ERROR();
}

/** Where `count` stops (see `JsonCount.scan`) reading the whole text, in turns; -1 when it does not. */
async function countInTurns(text: PiecedText, count: JsonCount, turn: () => Promise<void>): Promise<number> {
  let base = 0;
  for (const piece of text.pieces) {
    for (let from = 0; from < piece.length; from += SLICE_CHARS) {
      const found = count.scan(piece, from, Math.min(piece.length, from + SLICE_CHARS));
      if (found !== -1) return base + found;
      await turn();
    }
    base += piece.length;
  }
  return -1;
}
