/** Long lists checked in turns: exactly the outcome of `validateParams` in one go, and the loop gets turns. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { args, compileArg, type ArgSpec } from '../../src/core/args/define.js';
import { CmsError } from '../../src/core/errors.js';
import { validateParamsInTurns } from '../../src/core/params-in-turns.js';
import { ParamGroups, validateParams } from '../../src/core/params.js';
import type { ParamMap } from '../../src/core/types.js';
import { batchArgs } from '../../src/batch/args.js';
import { sliderWriteArgs } from '../../src/sliders/args.js';

const endpointOf = (specs: Record<string, ArgSpec>) => ({ args: new Map(Object.entries(specs).map(([name, spec]) => [name, compileArg(name, spec)])) });

interface Sources { json?: unknown; query?: ParamMap; post?: Record<string, unknown> }

function groupsOf(sources: Sources, endpoint: ReturnType<typeof endpointOf>): ParamGroups {
  const copy = structuredClone(sources);
  return new ParamGroups({ json: copy.json, post: copy.post ?? null, query: copy.query ?? (Object.create(null) as ParamMap), url: {}, endpoint });
}

function outcomeOf(groups: ParamGroups, error: unknown): unknown {
  if (error === null) return { groups: groups.entries().map(([name, group]) => [name, [...group]]) };
  assert.ok(error instanceof CmsError, String(error));
  return { code: error.code, message: error.message, status: error.status, extra: error.extra };
}

async function compare(specs: Record<string, ArgSpec>, sources: Sources): Promise<unknown> {
  const endpoint = endpointOf(specs);
  const context = { user: null, method: 'POST', param: () => undefined };
  const inOneGo = groupsOf(sources, endpoint);
  let oneGoError: unknown = null;
  try {
    validateParams(inOneGo, endpoint, context);
  } catch (error) {
    oneGoError = error;
  }
  const inTurns = groupsOf(sources, endpoint);
  let turnsError: unknown = null;
  try {
    await validateParamsInTurns(inTurns, endpoint, context);
  } catch (error) {
    turnsError = error;
  }
  const expected = outcomeOf(inOneGo, oneGoError);
  assert.deepEqual(outcomeOf(inTurns, turnsError), expected);
  return expected;
}

const request = (index: number) => ({ method: 'POST', path: `/cms/v2/posts`, body: { title: `T${index}` }, headers: { 'x-a': ['1', '2'] } });
const requests = (count: number) => Array.from({ length: count }, (_, index) => request(index));
const withItem = (list: unknown[], at: number, item: unknown) => list.map((entry, index) => (index === at ? item : entry));
const refused = (outcome: unknown) => (outcome as { code?: string }).code;

describe('validateParamsInTurns', () => {
  const batch = batchArgs(100);
  const cases: Array<[string, Record<string, ArgSpec>, Sources]> = [
    ['a valid batch', batch, { json: { requests: requests(60) } }],
    ['a batch item of the wrong type late', batch, { json: { requests: withItem(requests(60), 55, 'x') } }],
    ['a batch item missing its path', batch, { json: { requests: withItem(requests(60), 40, { method: 'POST' }) } }],
    ['a bad method and a bad validation', batch, { json: { validation: 'some', requests: withItem(requests(30), 20, { path: '/a', method: 'GET' }) } }],
    ['a bad validation, good requests', batch, { json: { validation: 'some', requests: requests(30) } }],
    ['too many requests, one bad', batch, { json: { requests: withItem(requests(101), 100, 5) } }],
    ['too many requests', batch, { json: { requests: requests(101) } }],
    ['no requests', batch, { json: { validation: 'normal' } }],
    ['requests as a map', batch, { json: { requests: { a: request(1) } } }],
    ['requests in the body and the query', batch, { json: { requests: requests(3) }, query: { requests: 'x' } as unknown as ParamMap }],
    ['requests in the query only', batch, { query: { requests: [{ path: '/a' }] } as unknown as ParamMap }],
    ['slides, valid', sliderWriteArgs(true), { json: { alias: 'a', slides: Array.from({ length: 40 }, () => ({ slide: {}, layers: [{ a: 1 }] })) } }],
    ['slides, two static ones', sliderWriteArgs(true), { json: { alias: 'a', slides: [{ slide: { global: true } }, { slide: { global: true } }] } }],
    ['slides, a bad one and a bad alias', sliderWriteArgs(false), { json: { alias: '1a', title: [], slides: [{}, { layers: [1] }] } }],
    ['slides, a bad one and no alias', sliderWriteArgs(true), { json: { slides: [{}, { layers: [1] }] } }],
    ['an item sanitised differently than validated', {
      list: args.array({ anyOf: [{ type: 'integer' }, { type: 'string' }] }, {}, { inTurns: true }),
    }, { json: { list: ['1', 2, 'x', '3.5'] } }],
    ['a list with a default', { list: args.array({ type: 'integer' }, { default: [1, 2] }, { inTurns: true }) }, { json: {} }],
    ['a list with unique items', { list: args.array({ type: 'integer' }, { uniqueItems: true }, { inTurns: true }) }, { json: { list: [1, '1'] } }],
  ];
  for (const [name, specs, sources] of cases) {
    it(name, async () => {
      await compare(specs, sources);
    });
  }

  it('compares real refusals (the cases are not all accepted)', async () => {
    assert.equal(refused(await compare(batch, cases[1]![2])), 'rest_invalid_param');
    const both = await compare(batch, cases[3]![2]) as { extra: { params: Record<string, string> } };
    assert.deepEqual(Object.keys(both.extra.params), ['validation', 'requests']);
    assert.match(both.extra.params.requests!, /requests\[20\]\[method\] is not one of/);
    assert.match(JSON.stringify(await compare(batch, cases[5]![2])), /requests\[100\] is not of type object/);
  });

  it('lets the loop take turns on a long list', async () => {
    const endpoint = endpointOf(batchArgs(3000));
    const groups = groupsOf({ json: { requests: requests(3000) } }, endpoint);
    let ticks = 0;
    const ticker = setInterval(() => { ticks += 1; }, 1);
    const started = performance.now();
    await validateParamsInTurns(groups, endpoint, { user: null, method: 'POST', param: () => undefined });
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    if (elapsed > 30) assert.ok(ticks > 0, `no turn in ${elapsed.toFixed(0)} ms`);
    assert.equal((groups.get('requests') as unknown[]).length, 3000);
  });
});
