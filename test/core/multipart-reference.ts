/**
 * The multipart parse as it was when busboy decoded each text field in one call at its part's end: the reference the
 * streamed text parts of `parseMultipart` are compared with.
 */
import { once } from 'node:events';
import { MAX_FILE_UPLOADS, MAX_MULTIPART_PARTS, MAX_PART_HEADER_BYTES, MAX_PART_HEADER_PAIRS, type MultipartContent } from '../../src/core/multipart.js';
import { InputCollector, MAX_INPUT_VARS } from '../../src/core/query.js';
import type { UploadedFile } from '../../src/core/types.js';

/** Bodies are fed to the parser in slices this big, yielding to other work between them. */
const SLICE_BYTES = 1024 * 1024;
/** Turns of the event loop without progress after which the parser counts as stuck. */
const STALLED_AFTER_TURNS = 5;

/**
 * Parses a `multipart/form-data` body as PHP fills `$_POST` and `$_FILES`: a part with a `filename` is a file,
 * any other is a field whose name is read PHP-style (brackets nest, within the input variable and nesting
 * limits). Parts, fields, files and header sizes are bounded; a truncated body keeps what was complete.
 */
export async function referenceMultipart(raw: Uint8Array, contentType: string, maxFieldBytes = Infinity): Promise<MultipartContent> {
  const collector = new InputCollector();
  let fieldBytes = 0;
  const files: UploadedFile[] = [];
  // Loaded on the first multipart body (~50 ms): hosts that take no uploads or form posts never load it.
  const { Busboy } = await import('@fastify/busboy');
  const parser = Busboy({
    headers: { 'content-type': contentType },
    preservePath: false,
    isPartAFile: (_field, _type, filename) => filename !== undefined,
    limits: {
      fieldSize: Number.isFinite(maxFieldBytes) ? maxFieldBytes + 1 : Infinity,
      fields: MAX_INPUT_VARS,
      files: MAX_FILE_UPLOADS,
      parts: MAX_MULTIPART_PARTS,
      headerPairs: MAX_PART_HEADER_PAIRS,
      headerSize: MAX_PART_HEADER_BYTES,
    },
  });
  const pending: Promise<void>[] = [];
  let progress = 0;
  parser.on('drain', () => progress++);
  parser.on('field', (name: string | undefined, value: string | undefined) => {
    progress++;
    // A part without a name is not a form variable (PHP skips it too).
    if (typeof name !== 'string' || typeof value !== 'string') return;
    fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (fieldBytes <= maxFieldBytes) collector.add(name, value);
  });
  parser.on('file', (field: string | undefined, stream, filename, _encoding, mimeType) => {
    if (typeof field !== 'string') {
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let cut = false;
    pending.push(new Promise((resolve) => {
      stream.on('data', (chunk: Buffer) => {
        progress++;
        chunks.push(chunk);
      });
      stream.on('end', () => {
        if (!cut) files.push({ field, filename, contentType: mimeType || 'application/octet-stream', bytes: new Uint8Array(Buffer.concat(chunks)) });
        resolve();
      });
      // A part cut short by the end of the body is not an upload.
      stream.on('error', () => {
        cut = true;
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
  for (let offset = 0; offset < body.length; offset += SLICE_BYTES) {
    if (offset > 0) await new Promise((resolve) => setImmediate(resolve));
    progress++;
    if (!parser.write(body.subarray(offset, offset + SLICE_BYTES))) await Promise.race([once(parser, 'drain'), over]);
  }
  parser.end();
  await over;
  await Promise.all(pending);
  return { form: collector.result(), files, fieldBytes };
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
