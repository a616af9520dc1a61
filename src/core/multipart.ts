import { EventEmitter, once } from 'node:events';
import { turnTaker } from '../format/turn.js';
import { charsetOf, decodingOf, PartText } from './multipart-text.js';
import { InputCollector, MAX_INPUT_VARS } from './query.js';
import type { ParamMap, UploadedFile } from './types.js';

/** PHP's `max_file_uploads`: later files are dropped. */
export const MAX_FILE_UPLOADS = 20;
/** PHP's default `max_multipart_body_parts` (input variables plus uploads): later parts are skipped. */
export const MAX_MULTIPART_PARTS = MAX_INPUT_VARS + MAX_FILE_UPLOADS;
/** The largest header block of one part; longer headers are cut there. */
export const MAX_PART_HEADER_BYTES = 16 * 1024;
/** The most header lines one part may have. */
export const MAX_PART_HEADER_PAIRS = 32;
/**
 * Bodies are fed to the parser in slices this big, with a turn of the event loop whenever the work has held it for
 * `TURN_MS`: a slice of the smallest parts holds about 300 of them (each part costs busboy and this reader two
 * streams), a slice of a field a few milliseconds of decoding.
 */
const SLICE_BYTES = 16 * 1024;
/** Turns of the event loop without progress after which the parser counts as stuck. */
const STALLED_AFTER_TURNS = 5;

export interface MultipartContent {
  form: ParamMap;
  files: UploadedFile[];
  /** The bytes of every text field together; past `maxFieldBytes`, fields are no longer kept. */
  fieldBytes: number;
}

/** A part being read: its field name, and its text as it is decoded (a field) or its bytes (a file). */
interface Part {
  field: string;
  isText: boolean;
  text: PartText | null;
  chunks: Buffer[];
  /** A file's name and media type. */
  filename?: string;
  contentType?: string;
  /** Its stream has ended. */
  ended: boolean;
  /** The body ended inside it. */
  cut: boolean;
}

/**
 * Parses a `multipart/form-data` body as PHP fills `$_POST` and `$_FILES`: a part with a `filename` is a file,
 * any other is a field whose name is read PHP-style (brackets nest, within the input variable and nesting
 * limits). Parts, fields, files and header sizes are bounded; a truncated body keeps what was complete, and a
 * field it cut keeps the text it has.
 *
 * busboy reads every part as a stream, so that no field is decoded in one call when its part ends: the counts of
 * fields and files busboy keeps are kept here, and a field's charset is read from its part's header.
 */
export async function parseMultipart(raw: Uint8Array, contentType: string, maxFieldBytes = Infinity): Promise<MultipartContent> {
  const texts: Part[] = [];
  const uploads: Part[] = [];
  // A field is cut one byte past the limit, where busboy cut it, so that a field over the limit is seen to be.
  const fieldSizeLimit = Number.isFinite(maxFieldBytes) ? maxFieldBytes + 1 : Infinity;
  // Loaded on the first multipart body (~50 ms): hosts that take no uploads or form posts never load it.
  const { Busboy } = await import('@fastify/busboy');
  const parser = Busboy({
    headers: { 'content-type': contentType },
    preservePath: false,
    isPartAFile: () => true,
    limits: { files: Infinity, parts: MAX_MULTIPART_PARTS, headerPairs: MAX_PART_HEADER_PAIRS, headerSize: MAX_PART_HEADER_BYTES },
  });
  let fieldCount = 0;
  let fileCount = 0;
  // The part whose header is being read: busboy announces its stream first, then the header is read here.
  let announced: Part | null = null;
  partsOf(parser).on('part', (reader: EventEmitter) => reader.on('header', (header: Record<string, string[]>) => {
    const part = announced;
    announced = null;
    if (!part) return;
    if (part.isText) part.text = new PartText(decodingOf(charsetOf(header)), fieldSizeLimit);
    reader.on('error', () => {
      part.cut = true;
    });
  }));
  const pending: Promise<void>[] = [];
  let progress = 0;
  parser.on('drain', () => progress++);
  parser.on('file', (field: string | undefined, stream, filename, _encoding, mimeType) => {
    progress++;
    // Every part's stream gets an error listener: busboy passes it the error of a body cut short.
    stream.on('error', () => {});
    const isText = filename === undefined;
    // busboy's counts: a part past the most fields, or the most files, is skipped. A part without a name counts,
    // and is dropped (PHP skips it too).
    const skipped = isText ? fieldCount === MAX_INPUT_VARS : fileCount === MAX_FILE_UPLOADS;
    if (!skipped && isText) fieldCount++;
    else if (!skipped) fileCount++;
    if (skipped || typeof field !== 'string') {
      stream.resume();
      return;
    }
    const part: Part = { field, isText, text: null, chunks: [], ended: false, cut: false };
    announced = part;
    if (isText) texts.push(part);
    else uploads.push(Object.assign(part, { filename, contentType: mimeType || 'application/octet-stream' }));
    pending.push(new Promise((resolve) => {
      stream.on('data', (chunk: Buffer) => {
        progress++;
        if (part.text) part.text.push(chunk);
        else part.chunks.push(chunk);
      });
      stream.on('end', () => {
        part.ended = true;
        resolve();
      });
    }));
  });
  let done = false;
  const finished = new Promise<void>((resolve) => {
    parser.on('finish', resolve);
    parser.on('error', () => resolve());
  }).then(() => {
    done = true;
  });
  // Ends with `finished`, or when the parser is stuck (see `whenStalled`): what was complete is kept.
  const over = Promise.race([finished, whenStalled(() => progress, () => done)]);
  const body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const turn = turnTaker();
  for (let offset = 0; offset < body.length; offset += SLICE_BYTES) {
    if (offset > 0) await turn();
    progress++;
    if (!parser.write(body.subarray(offset, offset + SLICE_BYTES))) await Promise.race([once(parser, 'drain'), over]);
    // The parts' streams hand their data on in `process.nextTick` callbacks, which run only once no promise
    // continuation is left: without this, the decoding of every slice written before the next turn would run
    // after it, all at once.
    await new Promise((resolve) => process.nextTick(resolve));
  }
  parser.end();
  await over;
  await Promise.all(pending);
  const collector = new InputCollector();
  let fieldBytes = 0;
  for (const { field, text, ended } of texts) {
    if (!ended || !text) continue;
    await turn();
    const value = text.end();
    fieldBytes += Buffer.byteLength(field) + Buffer.byteLength(value);
    if (fieldBytes <= maxFieldBytes) collector.add(field, value);
  }
  await turn();
  // A file the body ended inside is not an upload.
  const files = uploads.filter((part) => part.ended && !part.cut).map((part): UploadedFile => ({
    field: part.field, filename: part.filename!, contentType: part.contentType!, bytes: new Uint8Array(Buffer.concat(part.chunks)),
  }));
  return { form: collector.result(), files, fieldBytes };
}

/**
 * The part reader inside busboy (its Dicer), which announces each part and reads its header: busboy does not pass
 * a part's charset on with its stream.
 */
function partsOf(parser: object): EventEmitter {
  const parts = (parser as { _parser?: { parser?: unknown } })._parser?.parser;
  if (!(parts instanceof EventEmitter)) throw new Error('@fastify/busboy keeps its part reader elsewhere: multipart charsets cannot be read.');
  return parts;
}

/**
 * Resolves once the parser has made no progress (`progress` unchanged) for a few turns of the event loop while not
 * `done`. The whole body is in memory, so a parser that stops moving is stuck: busboy stops reading, with no
 * error, when a part's header holds a bare line feed and its data passes 16 KiB.
 */
function whenStalled(progress: () => number, done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    let last = progress();
    let idleTurns = 0;
    const check = () => {
      if (done()) return resolve();
      const now = progress();
      idleTurns = now === last ? idleTurns + 1 : 0;
      last = now;
      if (idleTurns >= STALLED_AFTER_TURNS) return resolve();
      setImmediate(check);
    };
    setImmediate(check);
  });
}

/** Whether the content type names a boundary at all (without one the body cannot be read). */
export function hasBoundary(contentType: string): boolean {
  return /;\s*boundary=(?:"[^"]+"|[^;\s]+)/i.test(contentType);
}
