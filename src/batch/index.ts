/** `POST /batch/v1`: several write requests in one call, each through the full pipeline as the caller. */
import type { Registry } from '../core/registry.js';
import { DEFAULT_MAX_BATCH_SIZE } from './args.js';
import { batchRoutes } from './routes.js';

export { DEFAULT_MAX_BATCH_SIZE } from './args.js';

export function registerBatch(registry: Registry, options: { maxItems?: number } = {}): void {
  registry.addRoutes('', batchRoutes(options.maxItems ?? DEFAULT_MAX_BATCH_SIZE));
}
