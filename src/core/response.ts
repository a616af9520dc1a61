import type { HandlerResult, Item, KeyedItem, Paging } from './context.js';

interface ResultInit {
  status?: number;
  headers?: Record<string, string | number>;
  /** Show the records in this context instead of the request's (the reference answers writes in `edit`). */
  context?: string;
  /** Keep the item's links whatever `_fields` asks (see `HandlerResult.linksAlways`). */
  linksAlways?: boolean;
}

function base(init: ResultInit, status = 200): HandlerResult {
  const result: HandlerResult = { kind: 'result', status: init.status ?? status, headers: init.headers ?? {} };
  if (init.context !== undefined) result.context = init.context;
  if (init.linksAlways) result.linksAlways = true;
  return result;
}

/** A single record answer. */
export function item(record: Item, init: ResultInit = {}): HandlerResult {
  const result = base(init);
  result.item = record;
  return result;
}

/** A created record: 201 with `Location`. */
export function created(record: Item, location: string, init: ResultInit = {}): HandlerResult {
  return item(record, { ...init, status: 201, headers: { Location: location, ...init.headers } });
}

/** A collection answer; with `paging`, the total headers and `Link` rel prev/next are added by the core. */
export function collection(records: Item[], paging?: Paging, init: ResultInit = {}): HandlerResult {
  const result = base(init);
  result.items = records;
  if (paging) result.paging = paging;
  return result;
}

/** A single record the core may answer from a view fragment (see `KeyedItem`). */
export function keyedItem(record: KeyedItem, init: ResultInit = {}): HandlerResult {
  const result = base(init);
  result.keyedItem = record;
  return result;
}

/** A collection the core may answer from view fragments (see `KeyedItem`). */
export function keyedCollection(records: KeyedItem[], paging?: Paging, init: ResultInit = {}): HandlerResult {
  const result = base(init);
  result.keyedItems = records;
  if (paging) result.paging = paging;
  return result;
}

/** Any other body, sent as it is. */
export function reply(body: unknown, init: ResultInit = {}): HandlerResult {
  const result = base(init);
  result.body = body;
  return result;
}

export function isHandlerResult(value: unknown): value is HandlerResult {
  return typeof value === 'object' && value !== null && (value as HandlerResult).kind === 'result';
}
