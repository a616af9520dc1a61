import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBody } from '../../src/core/body.js';
import { CmsError } from '../../src/core/errors.js';
import { decodeJsonInTurns, LARGE_BODY_CHARS } from '../../src/core/json-body-large.js';
import { decodeJson, DEFAULT_JSON_LIMITS, DEFAULT_MAX_JSON_MEMBERS, DEFAULT_MAX_JSON_VALUES, jsonLimitsOf } from '../../src/core/json-body.js';
import { createCms, createMemoryStorage, encodeResponse } from '../../src/index.js';
import { sliderLayer } from '../bench/slider-layer.js';
import { longestTurnCpu } from '../helpers/event-loop.js';

function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * below);
  };
}

/** Strings a scan could misread: brackets, commas, quotes and backslashes inside them. */
const STRINGS = ['', 'a', '[', ']', '{', '}', ',', '\\"', '\\\\', '\\\\\\"[', 'é😀', '\\u005b', ' , ] } '];

/** A random JSON text (unique keys in each object) with blanks between its tokens. */
function randomJson(next: (below: number) => number, depth = 0): string {
  const blank = () => [' ', '', '\n', '\t '][next(4)]!;
  const kind = depth > 5 ? 4 + next(5) : next(9);
  if (kind < 2) return `[${blank()}${Array.from({ length: next(6) }, () => blank() + randomJson(next, depth + 1) + blank()).join(',')}]`;
  if (kind < 4) return `{${blank()}${Array.from({ length: next(6) }, (_, index) => `"${STRINGS[next(STRINGS.length)]}${index}"${blank()}:${blank()}${randomJson(next, depth + 1)}`).join(`${blank()},`)}}`;
  if (kind === 4) return `"${STRINGS[next(STRINGS.length)]}"`;
  return ['0', '-1.5e3', 'true', 'false', 'null'][next(5)]!;
}

/** The values of a parsed JSON value (the root, and every member of its arrays and objects), and its largest array or object. */
function countOf(value: unknown): { values: number; members: number } {
  let values = 0;
  let members = 0;
  const walk = (item: unknown) => {
    values += 1;
    if (item === null || typeof item !== 'object') return;
    const children = Array.isArray(item) ? item : Object.values(item);
    members = Math.max(members, children.length);
    children.forEach(walk);
  };
  walk(value);
  return { values, members };
}

/** A refusal's code, status and data, or null when the text decoded. */
const tooLarge = (result: { ok: boolean; error?: CmsError }): Record<string, unknown> | null =>
  (result.ok ? null : { code: result.error!.code, status: result.error!.status, ...result.error!.extra });

describe('JSON limits', () => {
  it('count every value and the members of every array and object, exactly, on random texts', async () => {
    const next = random(41);
    for (let round = 0; round < 3000; round += 1) {
      const text = randomJson(next);
      const { values, members } = countOf(JSON.parse(text));
      const exactly = { maxValues: values, maxMembers: Math.max(1, members) };
      assert.equal(decodeJson(text, exactly).ok, true, `${text}: within ${values} values, ${members} members`);
      if (values > 1) {
        assert.deepEqual(tooLarge(decodeJson(text, { maxValues: values - 1, maxMembers: Infinity })), {
          code: 'rest_request_too_large', status: 413, max_values: values - 1,
        }, `${text}: one value over`);
      }
      if (members > 1) {
        assert.deepEqual(tooLarge(decodeJson(text, { maxValues: Infinity, maxMembers: members - 1 })), {
          code: 'rest_request_too_large', status: 413, max_members: members - 1,
        }, `${text}: one member over`);
      }
    }
  });

  it('hold a large body decoded in turns, given whole or in pieces, to the same counts', async () => {
    const next = random(43);
    const items = Array.from({ length: 6000 }, () => randomJson(next));
    const text = `{"list":[${items.join(',')}],"more":[${items.slice(0, 300).join(' , ')}]}`;
    assert.ok(text.length >= LARGE_BODY_CHARS);
    const { values, members } = countOf(JSON.parse(text));
    const cut = Math.floor(text.length / 3);
    for (const source of [text, [text.slice(0, cut), text.slice(cut)]]) {
      const within = await decodeJsonInTurns(source, { maxValues: values, maxMembers: members });
      assert.equal(within.ok, true);
      assert.deepEqual(tooLarge(await decodeJsonInTurns(source, { maxValues: values - 1, maxMembers: members })), {
        code: 'rest_request_too_large', status: 413, max_values: values - 1,
      });
      assert.deepEqual(tooLarge(await decodeJsonInTurns(source, { maxValues: values, maxMembers: members - 1 })), {
        code: 'rest_request_too_large', status: 413, max_members: members - 1,
      });
    }
  });

  it('count values of each kind, nested, and an empty array or object as one value', () => {
    const limits = (maxValues: number, maxMembers = 100) => ({ maxValues, maxMembers });
    for (const [text, values] of [
      ['1', 1], ['"a,b]"', 1], ['[]', 1], ['{}', 1], ['[[]]', 2], ['[{}, []]', 3], ['{"a":{"b":{}}}', 3],
      ['[1, "x", true, false, null, -2.5e1]', 7], ['{"a": 1, "b": [1, 2], "c": {"d": null}}', 7], ['[[[1, 2], [3]], []]', 8],
    ] as const) {
      assert.equal(decodeJson(text, limits(values)).ok, true, text);
      if (values > 1) assert.equal(tooLarge(decodeJson(text, limits(values - 1)))?.max_values, values - 1, text);
    }
    // Members: of an array, of an object (its keys are not values), of one nested deep.
    for (const text of ['[1,2,3]', '{"a":1,"b":2,"c":3}', '[[[{"a":[1,[2,3,4],3]}]]]', '[[1,2],[1,2],[1,2]]']) {
      assert.equal(decodeJson(text, limits(100, 3)).ok, true, text);
    }
    for (const text of ['[1,2,3,4]', '{"a":1,"b":2,"c":3,"d":4}', '[[[{"a":[1,[2,3,4,5],3]}]]]', '[{},{},{},{}]']) {
      assert.deepEqual(tooLarge(decodeJson(text, limits(100, 3))), { code: 'rest_request_too_large', status: 413, max_members: 3 }, text);
    }
  });

  it('go by the first limit the text reaches, and refuse before an error later in the text', () => {
    const limits = { maxValues: 100, maxMembers: 50 };
    const deep = '['.repeat(600);
    assert.equal(tooLarge(decodeJson(`[${'1,'.repeat(60)}${deep}`, limits))?.max_members, 50);
    assert.equal(tooLarge(decodeJson(`[${deep}${'1,'.repeat(60)}`, limits))?.json_error_code, 1);
    assert.equal(tooLarge(decodeJson(`[${'[1,2],'.repeat(40)}tru]`, limits))?.max_values, 100);
    assert.equal(tooLarge(decodeJson(`[tru,${'[1,2],'.repeat(40)}]`, limits))?.max_values, 100);
    assert.equal(tooLarge(decodeJson(`[tru,${'[1,2],'.repeat(5)}]`, limits))?.json_error_code, 4);
    // Brackets and commas in strings are not counted.
    assert.equal(decodeJson(`["${'[1,{},'.repeat(1000)}\\"],"]`, limits).ok, true);
  });

  it('refuse 8 MiB of tiny values holding the loop briefly, and never parse them', async () => {
    const size = 8 * 1024 * 1024;
    const bodies = {
      numbers: `[${'0,'.repeat(size / 2 - 1)}0]`,
      'empty objects': `{"a":[${'{},'.repeat(size / 3 - 3)}{}]}`,
      '700,000 keys': `{${Array.from({ length: 700_000 }, (_, index) => `"${index.toString(36)}":0`).join(',')}}`,
      'lists of the most members': `[${Array(1000).fill(`[${Array(DEFAULT_MAX_JSON_MEMBERS).fill('0').join(',')}]`).join(',')}]`,
    };
    for (const [label, text] of Object.entries(bodies)) {
      let refused: Awaited<ReturnType<typeof decodeJsonInTurns>> | undefined;
      const turnCpu = await longestTurnCpu(async () => {
        refused = await decodeJsonInTurns(text);
      });
      assert.equal(tooLarge(refused!)?.status, 413, label);
      assert.ok(turnCpu < 25, `${label}: longest turn ${turnCpu.toFixed(1)} ms of CPU`);
    }
  });

  it('let through the largest bodies the routes take: a slider of 200 slides of 50 layers, a batch of 25', async () => {
    const slides = Array.from({ length: 200 }, (_, slide) => ({
      slide: { title: `Slide ${slide}`, publish: { state: 'published', from: '', to: '' } },
      layers: Array.from({ length: 50 }, (_, index) => sliderLayer(slide, index)),
    }));
    const slider = JSON.stringify({ alias: 'large', title: 'Large', settings: { general: { lazyLoad: 'none' } }, slides });
    assert.ok(slider.length > 6_000_000);
    const decoded = await decodeJsonInTurns(slider);
    assert.equal(decoded.ok, true);
    assert.ok(countOf(JSON.parse(slider)).values < DEFAULT_MAX_JSON_VALUES * 0.7);
    const batch = JSON.stringify({ requests: Array.from({ length: 25 }, (_, index) => ({ method: 'POST', path: '/cms/v2/posts', body: { title: `${index}`, meta: { a: [1, 2] } } })) });
    assert.equal(decodeJson(batch).ok, true);
  });
});

describe('the JSON limits of a site', () => {
  const site = (options: Parameters<typeof createCms>[0] = {}) => createCms({ storage: createMemoryStorage(), site: { url: 'http://limits.test' }, ...options });
  const json = (body: string, extra: Record<string, unknown> = {}) => ({ method: 'POST', path: '/cms/v2/posts', query: '', headers: { 'content-type': 'application/json' }, body, ...extra });
  const answerOf = async (cms: ReturnType<typeof createCms>, request: Parameters<ReturnType<typeof createCms>['handle']>[0]) => {
    const response = await cms.handle(request);
    return { status: response.status, body: JSON.parse(new TextDecoder().decode(encodeResponse(response).body!)) as Record<string, unknown> };
  };

  it('answer 413 with the limit, before any route is matched, to everyone', async () => {
    const cms = site({ maxJsonValues: 5, maxJsonMembers: 3 });
    const admin = await cms.users.create({ login: 'admin', email: 'admin@limits.test', roles: ['administrator'] });
    assert.deepEqual(await answerOf(cms, json('{"title":"a","tags":[1,2,3,4]}', { user: admin })), {
      status: 413,
      body: {
        code: 'rest_request_too_large', message: 'An array or object of the JSON body holds more than the 3 members allowed.',
        data: { status: 413, max_members: 3 },
      },
    });
    assert.deepEqual(await answerOf(cms, json('{"title":"a","tags":[1,2],"meta":{"a":[[]]}}')), {
      status: 413,
      body: { code: 'rest_request_too_large', message: 'The JSON body holds more than the 5 values allowed.', data: { status: 413, max_values: 5 } },
    });
    assert.equal((await answerOf(cms, json('[1,2,3,4]', { path: '/no/such/route' }))).status, 413);
    // At the limits: the body is read, and the route answers.
    assert.equal((await answerOf(cms, json('{"title":"a","tags":[],"status":"draft"}', { user: admin }))).status, 201);
    assert.equal((await answerOf(cms, json('{"title":"a","content":"[1,2,3,4,5,6]"}', { user: admin }))).status, 201);
  });

  it('hold a body the host\'s framework parsed to the same limits', async () => {
    const cms = site({ maxJsonValues: 5, maxJsonMembers: 3 });
    const admin = await cms.users.create({ login: 'admin', email: 'admin@limits.test', roles: ['administrator'] });
    const parsed = (parsedBody: unknown) => ({ method: 'POST', path: '/cms/v2/posts', query: '', user: admin, headers: { 'content-type': 'application/json' }, parsedBody });
    assert.deepEqual((await answerOf(cms, parsed({ title: 'a', tags: [1, 2, 3, 4] }))).body.data, { status: 413, max_members: 3 });
    assert.deepEqual((await answerOf(cms, parsed({ title: 'a', meta: { a: {}, b: {}, c: {} } }))).body.data, { status: 413, max_values: 5 });
    assert.deepEqual((await answerOf(cms, parsed({ a: 1, b: 2, c: 3, d: 4 }))).body.data, { status: 413, max_members: 3 });
    assert.equal((await answerOf(cms, parsed({ title: 'a', status: 'draft', tags: [] }))).status, 201);
    // A form a host parsed too.
    const form = await cms.handle({ ...parsed({ title: 'a', status: 'draft', x: [1, 2, 3, 4] }), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.status, 413);
  });

  it('are the defaults unless the host names others, which must be whole numbers of 1 or more', () => {
    assert.deepEqual(jsonLimitsOf({}), DEFAULT_JSON_LIMITS);
    assert.deepEqual(DEFAULT_JSON_LIMITS, { maxValues: 1_000_000, maxMembers: 10_000 });
    assert.deepEqual(jsonLimitsOf({ maxJsonValues: 1, maxJsonMembers: 2 ** 40 }), { maxValues: 1, maxMembers: 2 ** 40 });
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '10' as unknown as number]) {
      assert.throws(() => site({ maxJsonValues: bad }), { name: 'RangeError', message: `maxJsonValues must be a whole number of 1 or more, not ${String(bad)}` });
      assert.throws(() => site({ maxJsonMembers: bad }), { name: 'RangeError', message: `maxJsonMembers must be a whole number of 1 or more, not ${String(bad)}` });
    }
  });

  it('let an ordinary body through parseBody unchanged', async () => {
    const parsed = await parseBody({ method: 'POST', path: '/', body: '{"a":[1,2,{"b":null}]}' }, 'application/json', undefined, { maxValues: 6, maxMembers: 3 });
    assert.deepEqual(structuredClone(parsed.json), { a: [1, 2, { b: null }] });
    await assert.rejects(parseBody({ method: 'POST', path: '/', body: '{"a":[1,2,{"b":null,"c":1}]}' }, 'application/json', undefined, { maxValues: 6, maxMembers: 3 }), {
      code: 'rest_request_too_large', status: 413,
    });
  });
});
