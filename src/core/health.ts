/**
 * The health answer an orchestrator polls: whether the store answers and its schema is the one this code expects.
 * Cheap (one small query at most) and bounded in time, so it may be called every second.
 */
import type { CmsResponse } from './types.js';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  /** Why not ok: `store_unreachable`, `store_timeout` or `schema_not_current`. No error text reaches the client. */
  reason?: 'store_unreachable' | 'store_timeout' | 'schema_not_current';
}

/** What the check asks of the store: the schema check when it has one, else the change token, else one read. */
export interface HealthCheckedStore {
  schemaCurrent?(): Promise<boolean>;
  changeToken?(): Promise<string>;
  get(collection: string, id: number): Promise<unknown>;
}

export const HEALTH_TIMEOUT_MS = 2000;

export async function checkHealth(store: HealthCheckedStore, timeoutMs = HEALTH_TIMEOUT_MS): Promise<HealthReport> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<HealthReport>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'unavailable', reason: 'store_timeout' }), timeoutMs);
  });
  const asked = (async (): Promise<HealthReport> => {
    try {
      if (store.schemaCurrent) {
        return (await store.schemaCurrent()) ? { status: 'ok' } : { status: 'unavailable', reason: 'schema_not_current' };
      }
      if (store.changeToken) await store.changeToken();
      else await store.get('users', 1);
      return { status: 'ok' };
    } catch {
      return { status: 'unavailable', reason: 'store_unreachable' };
    }
  })();
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The report as an HTTP answer: 200 when ok, 503 otherwise; never kept by a cache. */
export function healthResponse(report: HealthReport): CmsResponse {
  return {
    status: report.status === 'ok' ? 200 : 503,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store' },
    body: report,
  };
}
