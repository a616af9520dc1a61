/** Handler of `POST /batch/v1`: every item is matched and validated first, then run in order as the caller. */
import type { Params } from '../core/args/define.js';
import type { InternalResponse, PreparedRequest, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { reply } from '../core/response.js';
import { nextTurn, TURN_MS } from '../format/turn.js';
import type { batchArgs } from './args.js';

interface BatchItem {
  method?: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string | string[]>;
}

/** One item of `responses`: the answer as an envelope (empty header maps print as `[]`). */
function envelope(response: InternalResponse): Record<string, unknown> {
  const headers = Object.keys(response.headers).length === 0 ? [] : response.headers;
  return { body: response.body, status: response.status, headers };
}

function notAllowed(): CmsError {
  return new CmsError('rest_batch_not_allowed', 'The requested route does not support batch requests.', 400);
}

function parsePathFailed(): CmsError {
  return new CmsError('parse_path_failed', 'Could not parse the path.', 400);
}

/** A parsed, validated item, or the reason it cannot run. */
interface Planned {
  prepared: PreparedRequest | null;
  error: CmsError | null;
}

function plan(context: RequestContext, item: BatchItem): Planned {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(item.path)) return { prepared: null, error: parsePathFailed() };
  const body = item.body !== null && typeof item.body === 'object' && !Array.isArray(item.body) && Object.keys(item.body).length > 0
    ? item.body as Record<string, unknown>
    : undefined;
  const prepared = context.prepare({
    method: item.method ?? 'POST',
    path: item.path,
    ...(body ? { body } : {}),
    ...(item.headers ? { headers: item.headers } : {}),
  }, 'batch');
  if (prepared.matched && !prepared.allowBatch) return { prepared, error: notAllowed() };
  return { prepared, error: prepared.error };
}

export async function runBatch(context: RequestContext<Params<typeof batchArgs>>): Promise<unknown> {
  // Each item's shape is checked by the engine against batchArgs(); the body and headers go on as sent.
  const items = context.params.requests as unknown as BatchItem[];
  // A large batch (where `maxBatchSize` allows one) takes turns of the event loop, so other requests go on meanwhile.
  let turnStarted = performance.now();
  const takeTurn = async () => {
    if (performance.now() - turnStarted <= TURN_MS) return;
    await nextTurn();
    turnStarted = performance.now();
  };
  const planned: ReturnType<typeof plan>[] = [];
  for (const item of items) {
    planned.push(plan(context, item));
    await takeTurn();
  }
  if (context.params.validation === 'require-all-validate' && planned.some((entry) => entry.error)) {
    const responses = planned.map(({ error }) => (error ? { body: error.toBody(), status: error.status, headers: [] } : null));
    return reply({ failed: 'validation', responses }, { status: 207 });
  }
  const responses: Record<string, unknown>[] = [];
  for (const { prepared, error } of planned) {
    if (!prepared) {
      responses.push({ body: error!.toBody(), status: error!.status, headers: [] });
      continue;
    }
    responses.push(envelope(await prepared.run(error)));
    await takeTurn();
  }
  return reply({ responses }, { status: 207 });
}
