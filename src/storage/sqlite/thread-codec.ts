import { textBytesSteps, textOfBytes, type TextBytes } from '../../format/text-bytes.js';
import { finished, finishedSoonOrInTurns, nextTurn } from '../../format/turn.js';
import { isPlainObject, setMember } from '../json.js';

/**
 * Values crossing between the main thread and the store's writing thread. Copying a long string into a message
 * holds the sending thread for tens of milliseconds in one call (and reading it back for another ten), so texts
 * over `LONG_TEXT` travel as bytes, handed over without copying: encoded a chunk at a time, with turns of the
 * event loop between where the main thread sends, and read one text a turn where it receives.
 */
const LONG_TEXT = 1024 * 1024;

type Path = (string | number)[];
interface PackedText extends TextBytes { paths: Path[] }
/** A value with its long texts taken out (`null` where they were) and carried as bytes. */
export interface Packed { value: unknown; texts: PackedText[] }

/** A value ready to post: the message and the buffers to hand over with it. */
export interface PackedMessage { packed: Packed; transfer: ArrayBuffer[] }

/**
 * `value` ready to post: at once where packing it takes less than a turn's time (any value without long texts),
 * else a promise of it, packed in turns.
 */
export function packInTurns(value: unknown): PackedMessage | Promise<PackedMessage> {
  return finishedSoonOrInTurns(packing(value));
}

/** `value` ready to post, at once (where the time does not matter: the writing thread). */
export function pack(value: unknown): PackedMessage {
  return finished(packing(value));
}

function* packing(value: unknown): Generator<void, PackedMessage> {
  const found = new Map<string, Path[]>();
  const stripped = strip(value, [], found);
  const texts: PackedText[] = [];
  for (const [text, paths] of found) texts.push({ paths, ...yield* textBytesSteps(text) });
  return { packed: { value: stripped, texts }, transfer: texts.map((text) => text.bytes.buffer as ArrayBuffer) };
}

/** `value` without its long texts, copied only along the way to them; the same text found twice travels once. */
function strip(value: unknown, path: Path, found: Map<string, Path[]>): unknown {
  if (typeof value === 'string') {
    if (value.length <= LONG_TEXT) return value;
    const paths = found.get(value);
    if (paths) paths.push([...path]);
    else found.set(value, [[...path]]);
    return null;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let index = 0; index < value.length; index++) {
      const member: unknown = value[index];
      if (typeof member !== 'object' && typeof member !== 'string') continue;
      path.push(index);
      const kept = strip(member, path, found);
      path.pop();
      if (kept !== member) (copy ??= value.slice())[index] = kept;
    }
    return copy ?? value;
  }
  if (isPlainObject(value)) {
    let copy: Record<string, unknown> | null = null;
    for (const [key, member] of Object.entries(value)) {
      if (typeof member !== 'object' && typeof member !== 'string') continue;
      path.push(key);
      const kept = strip(member, path, found);
      path.pop();
      if (kept !== member) setMember(copy ??= shallowCopy(value), key, kept);
    }
    return copy ?? value;
  }
  return value;
}

function shallowCopy(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) setMember(copy, key, member);
  return copy;
}

/** The value a `Packed` stands for, its texts read one a turn (the main thread). */
export async function unpackInTurns(packed: Packed): Promise<unknown> {
  for (const text of packed.texts) {
    await nextTurn();
    place(packed, text);
  }
  return packed.value;
}

/** The value a `Packed` stands for, at once (the writing thread). */
export function unpack(packed: Packed): unknown {
  for (const text of packed.texts) place(packed, text);
  return packed.value;
}

function place(packed: Packed, packedText: PackedText): void {
  const text = textOfBytes(packedText);
  const { paths } = packedText;
  for (const path of paths) {
    if (path.length === 0) {
      packed.value = text;
      continue;
    }
    let parent = packed.value as Record<string | number, unknown>;
    for (let index = 0; index < path.length - 1; index++) parent = parent[path[index]!] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (typeof last === 'number') parent[last] = text;
    else setMember(parent as Record<string, unknown>, last, text);
  }
}
