/**
 * The reference's `Allow` header: the methods of a route whose permission check answers exactly `true` for the
 * request, asked after the handler ran. Its text is spelt once for each set of endpoints a route's requests are
 * granted.
 */
import type { HandlerResult, RequestContext } from './context.js';
import { isThenable } from './caller.js';
import type { Endpoint, Route } from './registry.js';

/**
 * The header's value for this request, '' when no method is allowed; at once when every check answers at once
 * (a promise, and a turn, only from the first check that answers with one).
 */
export function allowHeader(route: Route, context: RequestContext): string | Promise<string> {
  const { endpoints } = route;
  // The granted endpoints by position: bits of a number (the text is then spelt once), else a list.
  const granted: boolean[] | null = endpoints.length <= MASK_BITS ? null : [];
  let mask = 0;
  for (let index = 0; index < endpoints.length; index++) {
    const answer = askedAtOnce(endpoints[index]!, context);
    if (isThenable(answer)) return allowHeaderInTurns(route, context, index, answer, mask, granted);
    if (answer === true) mask |= 1 << index;
    granted?.push(answer === true);
  }
  return granted ? spelt(route, (index) => granted[index]!) : allowText(route, mask);
}

/** A check's answer, or its promise; one that throws allows nothing. */
function askedAtOnce(endpoint: Endpoint, context: RequestContext): unknown {
  try {
    return endpoint.permission(context);
  } catch {
    return false;
  }
}

/** `allowHeader` on from the endpoint at `index`, whose check answered with `pending`: each check waited for in turn. */
async function allowHeaderInTurns(
  route: Route, context: RequestContext, index: number, pending: PromiseLike<unknown>, mask: number, granted: boolean[] | null,
): Promise<string> {
  const { endpoints } = route;
  for (let at = index; at < endpoints.length; at++) {
    let allowed = false;
    try {
      allowed = (await (at === index ? pending : endpoints[at]!.permission(context))) === true;
    } catch {
      allowed = false;
    }
    if (allowed) mask |= 1 << at;
    granted?.push(allowed);
  }
  return granted ? spelt(route, (at) => granted[at]!) : allowText(route, mask);
}

/**
 * The request as `Allow` sees it after the handler: one that answers in another context (writes answer in `edit`)
 * asks the checks in that context, as the reference's handlers set the request's `context` before `Allow` is made
 * (so a non-moderator who edits a comment is not allowed to read it in `edit`).
 */
export function asAnswered(context: RequestContext, result: HandlerResult | null): RequestContext {
  const answered = result?.context;
  if (answered === undefined || answered === context.context) return context;
  const params = Object.assign(Object.create(null) as Record<string, unknown>, context.params, { context: answered });
  return Object.freeze({ ...context, context: answered, params, paramsKey: null });
}

/** Routes with more endpoints than a mask holds have their text spelt every time. */
const MASK_BITS = 30;

const texts = new WeakMap<Route, Map<number, string>>();

/** The text for the endpoints granted: bit `index` of `mask` for the endpoint at `index`. */
function allowText(route: Route, mask: number): string {
  let known = texts.get(route);
  if (known === undefined) texts.set(route, (known = new Map()));
  let text = known.get(mask);
  if (text === undefined) known.set(mask, (text = spelt(route, (index) => (mask & (1 << index)) !== 0)));
  return text;
}

function spelt(route: Route, granted: (index: number) => boolean): string {
  const methods: string[] = [];
  route.endpoints.forEach((endpoint, index) => {
    if (granted(index)) methods.push(...endpoint.methods);
  });
  return methods.join(', ');
}
