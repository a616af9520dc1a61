import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { charsetOf, decodableLength, decodingOf, PartText } from '../../src/core/multipart-text.js';
import { MAX_MULTIPART_PARTS, parseMultipart } from '../../src/core/multipart.js';
import { MAX_INPUT_VARS } from '../../src/core/query.js';
import { longestTurnCpu } from '../helpers/event-loop.js';
import { referenceMultipart } from './multipart-reference.js';

const load = createRequire(import.meta.url);
/** busboy's own decoding of a field: its bytes as a binary string, decoded by charset. */
const decodeText = load('@fastify/busboy/lib/utils/decodeText.js') as (text: string, from: string, to: string) => string;
const busboyText = (bytes: Buffer, charset: string) => (bytes.length ? decodeText(bytes.toString('binary'), 'binary', charset) : '');

function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * below);
  };
}

const CHARSETS = [
  'utf8', 'utf-8', 'UTF-8', 'latin1', 'iso-8859-1', 'windows-1252', 'cp1252', 'us-ascii', 'ascii', 'utf16le', 'UTF-16LE', 'ucs-2',
  'base64', 'BASE64', 'shift_jis', 'utf-16be', 'koi8-r', '', 'x-unknown',
];

/** Bytes that are mostly UTF-8 of one to four bytes, with stray and cut sequences among them. */
function randomBytes(next: (below: number) => number, length: number): Buffer {
  const pieces: Buffer[] = [];
  let size = 0;
  const units = ['a', 'é', '€', '😀', '\u0800', '\uffff'];
  while (size < length) {
    const kind = next(10);
    const piece = kind < 6 ? Buffer.from(units[kind]!.repeat(1 + next(4)))
      : kind === 6 ? Buffer.from([0x80 + next(64)])
        : kind === 7 ? Buffer.from('😀').subarray(0, 1 + next(3))
          : kind === 8 ? Buffer.from([0xc0 + next(64), 0x80 + next(64)])
            : Buffer.from([next(256)]);
    pieces.push(piece);
    size += piece.length;
  }
  return Buffer.concat(pieces).subarray(0, length);
}

/** `bytes` pushed in random chunks, as the part reader hands them on. */
function pushedInChunks(next: (below: number) => number, bytes: Buffer, text: PartText, longest: number): string {
  for (let offset = 0; offset < bytes.length;) {
    const size = 1 + next(longest);
    text.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return text.end();
}

describe('multipart text decoded as it arrives', () => {
  it('decodes each charset as busboy does', () => {
    const next = random(7);
    for (let round = 0; round < 300; round += 1) {
      const bytes = randomBytes(next, next(40));
      for (const charset of CHARSETS) {
        assert.equal(bytes.toString(decodingOf(charset)), busboyText(bytes, charset), `${charset}: ${bytes.toString('hex')}`);
      }
    }
  });

  it('gives the whole text from any chunks, characters cut at any place, within the size limit', () => {
    const next = random(11);
    for (let round = 0; round < 400; round += 1) {
      const bytes = randomBytes(next, next(3) === 0 ? next(5000) : next(60));
      const charset = CHARSETS[next(CHARSETS.length)]!;
      const limit = next(3) === 0 ? next(bytes.length + 2) : Infinity;
      const text = pushedInChunks(next, bytes, new PartText(decodingOf(charset), limit), 1 + next(9));
      assert.equal(text, busboyText(bytes.subarray(0, limit), charset), `${charset}, limit ${limit}: ${bytes.toString('hex')}`);
    }
  });

  it('keeps at most three bytes of UTF-8 for the next chunk', () => {
    const next = random(13);
    for (let round = 0; round < 2000; round += 1) {
      const bytes = randomBytes(next, next(12));
      const whole = decodableLength(bytes, 'utf8');
      assert.ok(bytes.length - whole <= 3);
      for (const after of [Buffer.from('a'), Buffer.from([0x80]), Buffer.from([0xbf, 0xbf]), Buffer.from([0xe2])]) {
        const together = Buffer.concat([bytes, after]);
        assert.equal(bytes.subarray(0, whole).toString() + together.subarray(whole).toString(), together.toString(), bytes.toString('hex'));
      }
    }
  });

  it('reads the charset from the part header as busboy does', () => {
    const header = (value: string) => ({ 'content-type': [value] });
    assert.equal(charsetOf({}), 'utf8');
    assert.equal(charsetOf(header('text/plain')), 'utf8');
    assert.equal(charsetOf(header('text/plain; charset=ISO-8859-1')), 'iso-8859-1');
    assert.equal(charsetOf(header('text/plain;charset="UTF-16LE"')), 'utf-16le');
    assert.equal(charsetOf(header('text/plain; format=flowed; charset=base64; charset=latin1')), 'base64');
    assert.equal(charsetOf(header('text/plain; charset=')), '');
    assert.equal(charsetOf(header('')), 'utf8');
  });
});

const BOUNDARY = 'xYzZY';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A random multipart body: fields with and without charsets, files, names that nest, parts around `size` bytes. */
function randomBody(next: (below: number) => number, size: number): Buffer {
  const parts: Buffer[] = [];
  const count = 1 + next(5);
  for (let index = 0; index < count; index += 1) {
    const name = ['a', 'b[]', 'c[x]', '_charset_', 'a'][next(5)]!;
    const isFile = next(5) === 0;
    const named = CHARSETS[next(CHARSETS.length)]!;
    const contentTypes = [
      `text/plain; charset=${named}`, `text/plain;charset="${named}"`, `text/plain;\tCharset=${named}; format=flowed`, `charset=${named}`,
      `text/plain; charset*=${named}''x`, 'text/plain', '', `TEXT/PLAIN ; charset = ${named}`, `text/plain; a="b;c"; charset=${named}`,
    ];
    const charset = next(3) === 0 ? `Content-Type: ${contentTypes[next(contentTypes.length)]}\r\n` : '';
    const disposition = `Content-Disposition: form-data; name="${name}"${isFile ? '; filename="f.txt"' : ''}\r\n`;
    const value = randomBytes(next, next(2) === 0 ? size - next(8) : next(100));
    parts.push(Buffer.from(`--${BOUNDARY}\r\n${disposition}${charset}\r\n`), value, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

describe('multipart bodies with streamed text parts', () => {
  it('give what the one-call decoding gave, on random bodies', async () => {
    const next = random(17);
    for (let round = 0; round < 160; round += 1) {
      // Parts about as large as the slices the body is fed in (1 MiB), so that characters straddle them.
      const body = randomBody(next, round % 8 === 0 ? 1024 * 1024 + next(8) : 2000);
      const limit = [Infinity, 1000, 3000, 1024 * 1024, body.length][next(5)]!;
      const expected = await referenceMultipart(body, CONTENT_TYPE, limit);
      const actual = await parseMultipart(body, CONTENT_TYPE, limit);
      assert.equal(actual.fieldBytes, expected.fieldBytes, `round ${round}`);
      assert.deepEqual(structuredClone(actual.form), structuredClone(expected.form), `round ${round}`);
      assert.deepEqual(actual.files, expected.files, `round ${round}`);
    }
  });

  it('keeps a field the body ended inside, drops such a file, and survives a cut nameless file', async () => {
    const part = (disposition: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n${value}`;
    const cutBodies = [
      part('name="done"', '1\r\n') + part('name="g"', 'partial'),
      part('name="done"', '1\r\n') + part('name="f"; filename="f.txt"', 'partial'),
      part('name="f"; filename="f.txt"', 'full\r\n') + part('name="g"; filename="g.txt"', 'partial'),
      part('filename="f.txt"', 'partial'),
      part('name="done"', '1\r\n') + part('filename="f.txt"', 'partial'),
    ];
    const parsed = await Promise.all(cutBodies.map((body) => parseMultipart(Buffer.from(body), CONTENT_TYPE)));
    assert.deepEqual(parsed.map((content) => structuredClone(content.form)), [{ done: '1', g: 'partial' }, { done: '1' }, {}, {}, { done: '1' }]);
    assert.deepEqual(parsed.map((content) => content.files.map((file) => file.field)), [[], [], ['f'], [], []]);
  });

  it('keeps an 8 MiB field of any width, in any charset, without holding the event loop', async () => {
    const size = 8 * 1024 * 1024 - 256;
    for (const [unit, charset] of [['a', 'utf-8'], ['é', 'utf-8'], ['😀', 'utf-8'], ['é', 'utf-16le'], ['a', 'base64']] as const) {
      const value = Buffer.from(unit.repeat(Math.floor(size / Buffer.byteLength(unit))));
      const body = Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="content"\r\nContent-Type: text/plain; charset=${charset}\r\n\r\n`),
        value, Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]);
      let content: unknown;
      const turnCpu = await longestTurnCpu(async () => {
        content = (await parseMultipart(body, CONTENT_TYPE)).form.content;
      });
      assert.equal(content, busboyText(value, charset));
      assert.ok(turnCpu < 35, `${unit} in ${charset}: longest turn ${turnCpu.toFixed(1)} ms of CPU`);
    }
  });

  it('keeps 1,000 fields of 8 KiB, or the most parts, without holding the event loop', async () => {
    const many = (count: number, value: string) => Buffer.from(`${`--${BOUNDARY}\r\nContent-Disposition: form-data; name="f[]"\r\n\r\n${value}\r\n`.repeat(count)}--${BOUNDARY}--\r\n`);
    for (const [count, value] of [[1000, 'é'.repeat(4000)], [MAX_MULTIPART_PARTS, '']] as const) {
      let kept: unknown;
      const turnCpu = await longestTurnCpu(async () => {
        kept = (await parseMultipart(many(count, value), CONTENT_TYPE)).form.f;
      });
      assert.deepEqual(kept, Array(Math.min(count, MAX_INPUT_VARS)).fill(value));
      assert.ok(turnCpu < 35, `${count} parts: longest turn ${turnCpu.toFixed(1)} ms of CPU`);
    }
  });
});
