import { args } from '../core/args/define.js';
import type { InternalResponse, PreparedRequest, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { allowAnyone, type Registry } from '../core/registry.js';
import { reply } from '../core/response.js';

export const DEFAULT_MAX_BATCH_SIZE = 25;

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

async function serveBatch(context: RequestContext) {
  const items = context.params.requests as BatchItem[];
  const planned = items.map((item) => plan(context, item));
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
  }
  return reply({ responses }, { status: 207 });
}

/** `POST /batch/v1`: several write requests in one call, each through the full pipeline as the caller. */
export function registerBatch(registry: Registry, options: { maxItems?: number } = {}): void {
  registry.add('', '/batch/v1', [{
    methods: ['POST'],
    args: {
      validation: args.string({ enum: ['require-all-validate', 'normal'], default: 'normal' }, { phase: 'sanitize' }),
      requests: args.array({
        type: 'object',
        properties: {
          method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
          path: { type: 'string', required: true },
          body: { type: 'object', properties: {}, additionalProperties: true },
          headers: {
            type: 'object',
            properties: {},
            additionalProperties: { type: ['string', 'array'], items: { type: 'string' } },
          },
        },
      }, { maxItems: options.maxItems ?? DEFAULT_MAX_BATCH_SIZE }, { required: true, phase: 'sanitize' }),
    },
    permission: allowAnyone,
    handler: serveBatch,
  }]);
}
