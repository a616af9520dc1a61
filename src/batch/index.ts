/** `POST /batch/v1`: several write requests in one call, each through the full pipeline as the caller. */
import { defineResource } from '../core/resource.js';
import { DEFAULT_MAX_BATCH_SIZE } from './args.js';
import { batchRoutes } from './routes.js';

export { DEFAULT_MAX_BATCH_SIZE } from './args.js';

export const batchResource = defineResource({
  namespace: null,
  deps: (_shared: unknown, options: { maxBatchSize?: number }) => ({ maxItems: options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE }),
  routes: (deps) => batchRoutes(deps.maxItems),
});
