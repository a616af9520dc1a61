/**
 * The reference's `Allow` header: the methods of a route whose permission check answers exactly `true` for the
 * request, asked after the handler ran. Its text is spelt once for each set of endpoints a route's requests are
 * granted.
 */
import type { HandlerResult, RequestContext } from './context.js';
import type { Route } from './registry.js';

/** The header's value for this request, '' when no method is allowed. */
export async function allowHeader(route: Route, context: RequestContext): Promise<string> {
  const { endpoints } = route;
  // The granted endpoints by position: bits of a number (the text is then spelt once), else a list.
  const granted: boolean[] | null = endpoints.length <= MASK_BITS ? null : [];
  let mask = 0;
  for (let index = 0; index < endpoints.length; index++) {
    let allowed = false;
    try {
      allowed = (await endpoints[index]!.permission(context)) === true;
    } catch {
      allowed = false;
    }
    if (allowed) mask |= 1 << index;
    granted?.push(allowed);
  }
  return granted ? spelt(route, (index) => granted[index]!) : allowText(route, mask);
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
  return Object.freeze({ ...context, context: answered, params });
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
