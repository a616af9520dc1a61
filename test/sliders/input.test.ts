/** A slider body checked in turns: the same accepted inputs and the same errors as the check in one go. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CmsError } from '../../src/core/errors.js';
import { checkSliderBody, checkSliderBodyInTurns } from '../../src/sliders/input.js';
import { anchorHero } from './helpers.js';

type Outcome = { ok: true; value: unknown } | { ok: false; code: string; message: string; status: number; extra: unknown; additional: unknown };

function outcome(run: () => unknown): Outcome {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    assert.ok(error instanceof CmsError, String(error));
    return { ok: false, code: error.code, message: error.message, status: error.status, extra: error.extra, additional: error.additional };
  }
}

async function outcomeInTurns(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    assert.ok(error instanceof CmsError, String(error));
    return { ok: false, code: error.code, message: error.message, status: error.status, extra: error.extra, additional: error.additional };
  }
}

const layers = (count: number) => Array.from({ length: count }, (_, index) => ({ type: 'text', content: { text: `L${index}` }, n: index }));
const slides = (count: number) => Array.from({ length: count }, (_, index) => ({ slide: { title: `S${index}` }, layers: layers(5) }));
const withSlide = (count: number, at: number, slide: unknown) => {
  const list: unknown[] = slides(count);
  list[at] = slide;
  return list;
};

const BODIES: Array<[string, unknown]> = [
  ['a full slider', anchorHero()],
  ['no slides', { alias: 'a', title: 'T', settings: { x: 1 } }],
  ['slides not a list', { alias: 'a', slides: 'x' }],
  ['slides as a map', { alias: 'a', slides: { 0: { slide: {} } } }],
  ['slides null', { alias: 'a', slides: null }],
  ['not an object', ['alias']],
  ['a list for settings', { alias: 'a', settings: [1], slides: slides(3) }],
  ['an empty list for settings', { alias: 'a', settings: [], slides: slides(3) }],
  ['layers as a map', { alias: 'a', slides: [{ slide: {}, layers: { top: { type: 'text' } } }] }],
  ['a list for a slide', { alias: 'a', slides: [{ slide: [], layers: [] }, []] }],
  ['unsafe keys', JSON.parse('{"alias":"a","slides":[{"slide":{"__proto__":{"x":1},"y":2},"layers":[{"__proto__":1,"z":3}]}]}')],
  ['a bad slide late', { alias: 'a', slides: withSlide(300, 250, { slide: 'x' }) }],
  ['a bad layer late', { alias: 'a', slides: withSlide(300, 299, { layers: [{}, 1] }) }],
  ['an extra member late', { alias: 'a', slides: withSlide(300, 120, { extra: 1, layers: [1] }) }],
  ['a bad slide with a bad alias and title', { alias: '9x', title: 5 as unknown, slides: withSlide(40, 30, 5) }],
  ['a bad slide with no alias', { title: 'T', slides: withSlide(40, 30, 5) }],
  ['two static slides', { alias: 'a', slides: [{ slide: { global: true } }, ...slides(50), { slide: { global: true } }] }],
  ['too many slides', { alias: 'a', slides: Array.from({ length: 1001 }, () => ({})) }],
  ['too many slides, one bad', { alias: 'a', slides: withSlide(1001, 1000, { slide: 1 }) }],
  ['a bad alias with good slides', { alias: 'a b', slides: slides(20) }],
  ['a long title with good slides', { alias: 'a', title: 'x'.repeat(256), slides: slides(20) }],
];

describe('checkSliderBodyInTurns', () => {
  for (const creating of [true, false]) {
    for (const [name, body] of BODIES) {
      it(`${creating ? 'create' : 'update'}: ${name}`, async () => {
        const inOneGo = outcome(() => checkSliderBody(body, creating));
        const inTurns = await outcomeInTurns(() => checkSliderBodyInTurns(body, creating));
        assert.deepEqual(inTurns, inOneGo);
      });
    }
  }

  it('refuses the bodies the single check refuses (the comparison above is not vacuous)', () => {
    const refused = BODIES.filter(([, body]) => !outcome(() => checkSliderBody(body, true)).ok).map(([name]) => name);
    assert.ok(refused.includes('a bad layer late') && refused.includes('too many slides, one bad'));
    const bad = outcome(() => checkSliderBody(BODIES.find(([name]) => name === 'a bad layer late')![1], true));
    assert.equal(bad.ok, false);
    assert.match(JSON.stringify(bad), /slides\[299\]\[layers\]\[1\] is not of type object/);
  });

  it('takes turns on a large slider and answers its slides sanitised', async () => {
    const large = { alias: 'large', slides: Array.from({ length: 400 }, (_, index) => ({ slide: { n: index }, layers: layers(60) })) };
    let ticks = 0;
    const ticker = setInterval(() => { ticks += 1; }, 1);
    const started = performance.now();
    const input = await checkSliderBodyInTurns(large, true);
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    assert.deepEqual(input, checkSliderBody(large, true));
    assert.notEqual(input.slides![0]!.layers, large.slides[0]!.layers);
    if (elapsed > 30) assert.ok(ticks > 0, `no turn in ${elapsed.toFixed(0)} ms`);
  });
});
