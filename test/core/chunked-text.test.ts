import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChunkedText, chunkedTextOf, textBytes, textBytesInTurns, textOfBytes, WHOLE_TEXT_CHARS } from '../../src/core/chunked-text.js';

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

describe('long texts in chunks', () => {
  it('reads one-byte and two-byte texts back whole, never splitting a surrogate pair', async () => {
    const oneByte = `caf\u00e9 &#8220;${'ab'.repeat(WHOLE_TEXT_CHARS)}\u00ff`;
    // Pairs straddle every place a chunk of a whole number of mebi-characters could end.
    const twoByte = `x${'\ud83d\ude00'.repeat(WHOLE_TEXT_CHARS + 3)}\u2019 lone \ud800 end`;
    for (const [text, encoding] of [[oneByte, 'latin1'], [twoByte, 'utf16le']] as const) {
      const bytes = textBytes(text);
      assert.equal(bytes.encoding, encoding);
      const chunked = await chunkedTextOf(bytes);
      assert.ok(chunked.chunks.length > 1, 'a text this long is held in several chunks');
      assert.equal(chunked.length, text.length);
      assert.equal(chunked.chunks.join(''), text);
      for (const chunk of chunked.chunks.slice(0, -1)) assert.ok(!isHighSurrogate(chunk.charCodeAt(chunk.length - 1)));
    }
  });

  it('serialises as the one string it stands for', () => {
    const chunked = new ChunkedText(['<p>"quoted"', ' \u2019 \ud83d\ude00', '\n</p>']);
    const whole = chunked.chunks.join('');
    assert.equal(JSON.stringify({ rendered: chunked }), JSON.stringify({ rendered: whole }));
    assert.equal(String(chunked), whole);
  });

  it('lets timers run while it reads a long text', async () => {
    const bytes = textBytes('&#8216;&#8221;'.repeat(3 * WHOLE_TEXT_CHARS));
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 1);
    const started = performance.now();
    await chunkedTextOf(bytes);
    const spent = performance.now() - started;
    clearInterval(timer);
    assert.ok(ticks >= Math.floor(spent / 50), `${ticks} timer ticks in ${spent.toFixed(0)} ms`);
  });

  it('encodes a long text in turns to the very bytes of encoding it at once, surrogate pairs across chunks included', async () => {
    const oneByte = `caf\u00e9 ${'ab'.repeat(WHOLE_TEXT_CHARS)}\u00ff`;
    // The only two-byte character sits past the first chunks, so the scan must go on to find it.
    const lateWide = `${'a'.repeat(3 * WHOLE_TEXT_CHARS)}\u2019`;
    const twoByte = `x${'\ud83d\ude00'.repeat(WHOLE_TEXT_CHARS + 3)} lone \udc00 end`;
    for (const [text, encoding] of [[oneByte, 'latin1'], [lateWide, 'utf16le'], [twoByte, 'utf16le']] as const) {
      const inTurns = await textBytesInTurns(text);
      assert.equal(inTurns.encoding, encoding);
      assert.deepEqual(inTurns, textBytes(text));
      assert.equal(inTurns.bytes.byteLength, inTurns.bytes.buffer.byteLength, 'the bytes own their buffer, which can be transferred');
      assert.equal(textOfBytes(inTurns), text);
    }
  });

  it('lets timers run while it encodes a long text', async () => {
    const text = `${'&#8216;&#8221;'.repeat(3 * WHOLE_TEXT_CHARS)}\u2019`;
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 1);
    const started = performance.now();
    await textBytesInTurns(text);
    const spent = performance.now() - started;
    clearInterval(timer);
    assert.ok(ticks >= Math.floor(spent / 50), `${ticks} timer ticks in ${spent.toFixed(0)} ms`);
  });
});
