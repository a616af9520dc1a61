/**
 * What the guides' examples take as given from the surrounding application: a `cms`, an HTTP request and
 * response, an Express app, the host's own session lookup, the test runner vitest (not installed here). Everything
 * else an example uses it imports itself.
 */
declare const cms: import('quire').Cms;
declare const req: import('node:http').IncomingMessage;
declare const res: import('node:http').ServerResponse;
declare const app: import('express').Express;
declare const session: { quireUserId: number; email: string };
declare const sessions: { fromCookie(cookie: string | undefined): Promise<{ email: string } | null> };
declare function renderSite(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void;
declare function sessionUserOf(req: import('express').Request): { cmsId: number } | null;
declare const Deno: { serve(handler: (request: Request) => Response | Promise<Response>): unknown };
/** vitest's `describe` and `it`, with the signatures of its own types (the package does not depend on vitest). */
declare module 'vitest' {
  export function describe(name: string | Function, factory?: () => void, timeout?: number): void;
  export function it(name: string | Function, fn?: (context: { task: unknown; signal: AbortSignal }) => unknown, timeout?: number): void;
}
