/**
 * Checking a request's long lists without holding the event loop: the items of an argument declared `inTurns`
 * (a batch's requests, a slider's slides) are validated, then sanitised, one at a time, the loop taking a turn
 * whenever it has been held for `TURN_MS`; then `validateParams` runs as always, with that list failing with its
 * first invalid item's problem (what checking the list gives: items come before its length), or checked as a list
 * only (type, length, its own check) and taking its items as sanitised. Where that could change the outcome in any
 * way (the list is not an array held by one parameter group, its schema combines or transforms, an item that
 * validates fails sanitising), the whole check runs in one go instead: the answer is always `validateParams`'s.
 */
import { toList } from './args/coerce.js';
import type { Arg, ArgCheckContext } from './args/define.js';
import { sanitizeValue, validateValue } from './args/engine.js';
import type { JsonSchema } from './args/schema.js';
import { checkedValues, groupsOfValues, validateParams, type CheckedList, type ParamGroups } from './params.js';
import type { Endpoint } from './registry.js';
import { turnTaker } from '../format/turn.js';

type DeclaredArgs = Pick<Endpoint, 'args'>;

/** The item schema, when items can be checked apart from their list with exactly the outcome of checking the list. */
function itemsApart(compiled: Arg): JsonSchema | null {
  const { schema } = compiled;
  if (!compiled.inTurns || compiled.phase === 'none' || compiled.transform) return null;
  if (compiled.phase === 'sanitize' && compiled.check) return null;
  if (schema.type !== 'array' || schema.anyOf || schema.oneOf || schema.enum || schema.format != null || schema.uniqueItems) return null;
  const items = schema.items;
  return items && typeof items === 'object' && !Array.isArray(items) && Object.keys(items).length > 0 ? items : null;
}

/** The argument's items when exactly one group holds it, as an array. */
function soleList(groups: ParamGroups, name: string): unknown[] | null {
  const holders = groups.entries().filter(([, group]) => group.has(name));
  if (holders.length !== 1 || holders[0]![0] === 'defaults') return null;
  const value = holders[0]![1].get(name);
  return Array.isArray(value) ? toList(value) : null;
}

/** `validateParams` with the endpoint's long lists checked in turns; the same outcome. */
export async function validateParamsInTurns(groups: ParamGroups, endpoint: DeclaredArgs, checkContext: ArgCheckContext): Promise<void> {
  const take = turnTaker();
  const lists = new Map<string, CheckedList>();
  for (const [name, compiled] of endpoint.args) {
    const items = itemsApart(compiled);
    const list = items ? soleList(groups, name) : null;
    if (!items || !list) continue;
    const checked = await checkItems(list, items, name, take);
    if (!checked) return validateParams(groups, endpoint, checkContext);
    lists.set(name, checked);
  }
  validateParams(groups, endpoint, checkContext, lists);
}

/** `validateValues` with the long lists checked in turns; the same outcome. */
export async function validateValuesInTurns(
  values: Readonly<Record<string, unknown>>, declared: DeclaredArgs, checkContext: ArgCheckContext,
): Promise<Record<string, unknown>> {
  const groups = groupsOfValues(values, declared);
  await validateParamsInTurns(groups, declared, checkContext);
  return checkedValues(groups, declared);
}

/** Every item validated, then every item sanitised; null when an item validates yet fails sanitising. */
async function checkItems(list: unknown[], items: JsonSchema, name: string, take: () => Promise<void>): Promise<CheckedList | null> {
  for (const [index, item] of list.entries()) {
    await take();
    const issue = validateValue(item, items, `${name}[${index}]`);
    if (issue) return { issue };
  }
  const sanitized: unknown[] = [];
  for (const [index, item] of list.entries()) {
    await take();
    const result = sanitizeValue(item, items, `${name}[${index}]`);
    if (!result.ok) return null;
    sanitized.push(result.value);
  }
  return { items: sanitized };
}

/** Whether an endpoint declares a list checked in turns; worked out once per set of arguments (compiled once, never changed). */
export function hasListsInTurns(endpoint: DeclaredArgs): boolean {
  let found = argsWithLists.get(endpoint.args);
  if (found === undefined) {
    found = false;
    for (const compiled of endpoint.args.values()) if (compiled.inTurns) found = true;
    argsWithLists.set(endpoint.args, found);
  }
  return found;
}

const argsWithLists = new WeakMap<DeclaredArgs['args'], boolean>();
