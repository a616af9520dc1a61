/**
 * Parsing a large urlencoded body (up to the parsed-body limit, 8 MiB by default) without holding the event loop:
 * pairs are read as `parseQueryString` reads them, and a long name or value is decoded slice by slice, taking a
 * turn of the loop whenever the work has held it for `TURN_MS`. The parameters are those `parseQueryString` gives
 * for the whole text, within the same limits (`InputCollector`).
 */
import { BASE_NAME_CHARS, bytewiseDecoded, decodeComponent, InputCollector, PairReader, trimmedName, UNCLOSED_NAME_CHARS, underscored } from './query.js';
import type { ParamMap } from './types.js';
import { nextTurn } from '../format/turn.js';

/** Bodies of this many bytes or more are parsed in turns. */
export const LARGE_FORM_BYTES = 256 * 1024;
/** The most characters of one name or value decoded at once. */
const SLICE_CHARS = 32 * 1024;
/** Pairs read between two offers of a turn. */
const PAIRS_PER_CHECK = 1024;

type Turn = () => Promise<void>;

/** `parseQueryString`, offering `turn` between slices of long components and every `PAIRS_PER_CHECK` pairs. */
export async function parseQueryStringInTurns(text: string, turn: Turn, collector = new InputCollector()): Promise<ParamMap> {
  let count = 0;
  for (const pairs = new PairReader(text); !collector.full && pairs.next();) {
    if (!pairs.empty) {
      const name = await decodeInTurns(pairs.name, turn);
      const value = await decodeInTurns(pairs.value, turn);
      const plainName = name.length < SLICE_CHARS ? name : await plainNameInTurns(name, turn);
      // Joining a long text's slices, registering it and making it a key each copy it whole: one at a time.
      if (plainName.length >= SLICE_CHARS || value.length >= SLICE_CHARS) await turn();
      collector.add(plainName, value);
    }
    if (++count % PAIRS_PER_CHECK === 0) await turn();
  }
  await turn();
  return collector.result();
}

/**
 * `decodeComponent` slice by slice. A slice never ends inside a `%XX` escape nor before an escape of a UTF-8
 * continuation byte, so a character's escapes stay in one slice: every slice decodes when the whole does, to its
 * part of the whole's decoding, and one fails when the whole does (then every slice is read byte by byte). A text
 * with no such place to cut within `CUT_REACH` characters holds more continuation bytes in a row than UTF-8 allows,
 * so it is read byte by byte at once.
 */
export async function decodeInTurns(text: string, turn: Turn): Promise<string> {
  if (text.length < SLICE_CHARS) return decodeComponent(text);
  const decoded: string[] = [];
  const slices = slicesOf(text, true);
  try {
    if (slices === null) throw new URIError('an overlong UTF-8 sequence');
    for (const slice of slices) {
      const spaced = slice.includes('+') ? slice.split('+').join(' ') : slice;
      decoded.push(spaced.includes('%') ? decodeURIComponent(spaced) : spaced);
      await turn();
    }
  } catch {
    decoded.length = 0;
    for (const slice of slicesOf(text, false)!) {
      decoded.push(bytewiseDecoded(slice.includes('+') ? slice.split('+').join(' ') : slice));
      await turn();
    }
  }
  return await joinedInTurns(decoded, turn);
}

/** Slices joined into one text, the copy in a turn of its own: 5–15 ms for 8 MiB on a loaded machine. */
export async function joinedInTurns(slices: readonly string[], turn: Turn): Promise<string> {
  if (slices.length > 1) await nextTurn();
  const joined = slices.join('');
  await turn();
  return joined;
}

const CUT_REACH = 16;

function slicesOf(text: string, keepCharacters: boolean): string[] | null {
  const slices: string[] = [];
  let start = 0;
  while (start < text.length) {
    const target = Math.min(start + SLICE_CHARS, text.length);
    let cut = target;
    while (cut < text.length && !isCut(text, cut, keepCharacters)) {
      if (++cut - target > CUT_REACH) return null;
    }
    slices.push(text.slice(start, cut));
    start = cut;
  }
  return slices;
}

/**
 * Whether `text` may be cut before `index`: not inside a `%XX` escape (nor, keeping characters, before an escaped
 * continuation byte).
 */
function isCut(text: string, index: number, keepCharacters: boolean): boolean {
  if (text.charCodeAt(index - 1) === 0x25 && isHex(text.charCodeAt(index)) && isHex(text.charCodeAt(index + 1))) return false;
  if (text.charCodeAt(index - 2) === 0x25 && isHex(text.charCodeAt(index - 1)) && isHex(text.charCodeAt(index))) return false;
  return !keepCharacters || text.charCodeAt(index) !== 0x25 || !/[89abAB]/.test(text.charAt(index + 1));
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);
}

/**
 * A long name as `InputCollector` reads it, its base name's dots and spaces (and after an unclosed first bracket,
 * its brackets) already underscores, made slice by slice; the collector finds nothing left to replace.
 */
async function plainNameInTurns(rawName: string, turn: Turn): Promise<string> {
  const name = trimmedName(rawName);
  const bracket = name.indexOf('[');
  const base = await underscoredInTurns(bracket === -1 ? name : name.slice(0, bracket), BASE_NAME_CHARS, turn);
  if (bracket === -1 || base === '') return base;
  if (name.indexOf(']', bracket + 1) !== -1) return base + name.slice(bracket);
  return `${base}_${await underscoredInTurns(name.slice(bracket + 1), UNCLOSED_NAME_CHARS, turn)}`;
}

async function underscoredInTurns(text: string, chars: readonly string[], turn: Turn): Promise<string> {
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += SLICE_CHARS) {
    parts.push(underscored(text.slice(start, start + SLICE_CHARS), chars));
    await turn();
  }
  return await joinedInTurns(parts, turn);
}
