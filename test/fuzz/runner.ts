import type { CmsRequest, CmsResponse } from '../../src/core/types.js';
import { checkResponse, describeError, readBody, MAX_REQUEST_MS, PrototypeGuard, type Violation } from './checks.js';
import { CrashWatch } from './crashes.js';
import { caseSeed } from './random.js';
import { makeCase, type FuzzCase } from './requests.js';
import { seedSite, type SeededSite, type StoreKind } from './site.js';

export interface RunOptions {
  seed: number;
  /** Index of the first case (a run may resume at any index: the site is fresh there). */
  from?: number;
  /** Index after the last case. */
  to: number;
  store: StoreKind;
  /** Share of requests authenticated by application password. */
  appPasswordRate?: number;
  /** The site is seeded afresh every this many cases, so content does not pile up over long runs. */
  freshEvery?: number;
  onProgress?: (done: number, report: RunReport) => void;
}

export interface Failure {
  kind: Violation['kind'];
  signature: string;
  count: number;
  /** The first case that showed it. */
  first: { index: number; caseSeed: number; route: string; caller: string; request: string; status: number; detail: string; siteSeededAt: number };
}

export interface RunReport {
  seed: number;
  store: StoreKind;
  requests: number;
  elapsedMs: number;
  statuses: Record<number, number>;
  /** Error codes answered, with how often. */
  codes: Record<string, number>;
  slowestMs: number;
  failures: Failure[];
}

const DEFAULT_APP_PASSWORD_RATE = 0.01;
/** A request still unanswered after this long fails, however little it computed. */
const HANG_MS = 5 * MAX_REQUEST_MS;
const DEFAULT_FRESH_EVERY = 20_000;

/** A request as text for a report: method, path, query, caller, headers and the start of the body. */
export function describeRequest(request: CmsRequest, caller: string): string {
  const body = request.body === undefined
    ? request.parsedBody === undefined ? '' : ` parsedBody=${JSON.stringify(request.parsedBody).slice(0, 400)}`
    : ` body=${JSON.stringify(typeof request.body === 'string' ? request.body.slice(0, 400) : new TextDecoder().decode(request.body.slice(0, 400)))}`;
  const query = typeof request.query === 'string' && request.query !== '' ? `?${request.query.slice(0, 600)}` : '';
  const user = request.user === undefined ? '' : ` user=${JSON.stringify(request.user)}`;
  return `${JSON.stringify(request.method)} ${JSON.stringify(request.path.slice(0, 300))}${query} as ${caller}${user} headers=${JSON.stringify(request.headers ?? {}).slice(0, 300)}${body}`;
}

export interface CaseResult {
  fuzzCase: FuzzCase;
  response: CmsResponse | null;
  elapsedMs: number;
  violations: Violation[];
}

/** Sends one case and checks everything the fuzzer promises about its answer. */
export async function runCase(site: SeededSite, guard: PrototypeGuard, crashes: CrashWatch, fuzzCase: FuzzCase): Promise<CaseResult> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let response: CmsResponse | null = null;
  const violations: Violation[] = [];
  try {
    const outcome = await crashes.race(site.cms.handle(fuzzCase.request), HANG_MS);
    if ('value' in outcome) response = outcome.value;
    if ('hung' in outcome) violations.push({ kind: 'too-slow', detail: `no answer after ${HANG_MS} ms`, signature: fuzzCase.route });
  } catch (error) {
    const { signature, detail } = describeError(error);
    violations.push({ kind: 'threw', detail, signature });
  }
  for (const error of crashes.take()) {
    const { signature, detail } = describeError(error);
    violations.push({ kind: 'crashed', detail, signature });
  }
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const unexpected = site.takeErrors();
  for (const error of unexpected) {
    const { signature, detail } = describeError(error);
    violations.push({ kind: 'unexpected-error', detail, signature });
  }
  // A 500 internal_error is how an unexpected error reaches the client: reported once, as that error.
  const answerViolations = response ? checkResponse(response) : [];
  violations.push(...answerViolations.filter((violation) => unexpected.length === 0 || !['500 internal_error', '500 -'].includes(violation.signature)));
  violations.push(...guard.check());
  // The time the process spent on the request, so that other processes on a busy machine do not count; a wait
  // far beyond the limit counts however little it computed.
  if (cpuMs > MAX_REQUEST_MS) {
    violations.push({ kind: 'too-slow', detail: `${Math.round(elapsedMs)} ms (${Math.round(cpuMs)} ms of CPU)`, signature: fuzzCase.route });
  }
  return { fuzzCase, response, elapsedMs, violations };
}

/** Runs cases `from`..`to` of a seeded run and gathers statuses and distinct failures. */
export async function runFuzz(options: RunOptions): Promise<RunReport> {
  const from = options.from ?? 0;
  const freshEvery = options.freshEvery ?? DEFAULT_FRESH_EVERY;
  const appPasswordRate = options.appPasswordRate ?? DEFAULT_APP_PASSWORD_RATE;
  const report: RunReport = { seed: options.seed, store: options.store, requests: 0, elapsedMs: 0, statuses: {}, codes: {}, slowestMs: 0, failures: [] };
  const failures = new Map<string, Failure>();
  const guard = new PrototypeGuard();
  const crashes = new CrashWatch();
  crashes.start();
  const started = performance.now();
  let site: SeededSite | null = null;
  let seededAt = from;
  try {
    for (let index = from; index < options.to; index++) {
      if (site === null || (index - from) % freshEvery === 0) {
        await site?.close();
        site = await seedSite(options.store);
        seededAt = index;
      }
      const routes = site.cms.registry.routes;
      const fuzzCase = makeCase(site, routes, caseSeed(options.seed, index), { appPasswordRate });
      const result = await runCase(site, guard, crashes, fuzzCase);
      report.requests++;
      if (result.response) report.statuses[result.response.status] = (report.statuses[result.response.status] ?? 0) + 1;
      const code = errorCode(result.response);
      if (code !== null) report.codes[code] = (report.codes[code] ?? 0) + 1;
      report.slowestMs = Math.max(report.slowestMs, result.elapsedMs);
      for (const violation of result.violations) {
        // A changed prototype or an unexpected error (named by where it was thrown) has one cause wherever it is
        // reached from; other failures are told apart by route too.
        const key = violation.kind === 'prototype-changed' ? `${violation.kind} ${violation.signature.split('.')[0]}`
          : ['unexpected-error', 'threw', 'crashed'].includes(violation.kind) ? `${violation.kind} ${violation.signature}`
            : `${violation.kind} ${violation.signature} ${fuzzCase.route}`;
        const known = failures.get(key);
        if (known) {
          known.count++;
          continue;
        }
        failures.set(key, {
          kind: violation.kind,
          signature: violation.signature,
          count: 1,
          first: {
            index,
            caseSeed: fuzzCase.seed,
            route: fuzzCase.route,
            caller: fuzzCase.caller,
            request: describeRequest(fuzzCase.request, fuzzCase.caller),
            status: result.response?.status ?? 0,
            detail: violation.detail,
            siteSeededAt: seededAt,
          },
        });
      }
      if (options.onProgress && report.requests % 1000 === 0) {
        report.elapsedMs = performance.now() - started;
        report.failures = [...failures.values()];
        options.onProgress(report.requests, report);
      }
    }
  } finally {
    crashes.stop();
    await site?.close();
  }
  report.elapsedMs = performance.now() - started;
  report.failures = [...failures.values()];
  return report;
}

function errorCode(response: CmsResponse | null): string | null {
  if (!response || response.status < 400) return null;
  const { value } = readBody(response);
  const code = (value as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '(none)';
}

/** How to replay a failure: the single case on a fresh site, and the whole sequence that led to it. */
export function replayHint(report: Pick<RunReport, 'seed' | 'store'>, failure: Failure): string {
  const store = report.store === 'memory' ? '' : ` --store ${report.store}`;
  return `npm run fuzz -- --replay ${failure.first.caseSeed}${store}   (sequence: npm run fuzz -- --seed ${report.seed} --from ${failure.first.siteSeededAt} --requests ${failure.first.index - failure.first.siteSeededAt + 1}${store})`;
}

/** The report as text: counts, the status histogram, and each distinct failure with how to replay it. */
export function formatReport(report: RunReport): string {
  const lines = [
    `fuzz seed ${report.seed}, store ${report.store}: ${report.requests} requests in ${(report.elapsedMs / 1000).toFixed(1)} s`
      + ` (${Math.round(report.requests / (report.elapsedMs / 1000))}/s, slowest ${Math.round(report.slowestMs)} ms)`,
    `statuses: ${Object.entries(report.statuses).map(([status, count]) => `${status}×${count}`).join(' ')}`,
    `error codes: ${Object.entries(report.codes).sort((a, b) => b[1] - a[1]).map(([code, count]) => `${code}×${count}`).join(' ')}`,
    `failures: ${report.failures.length} distinct, ${report.failures.reduce((sum, failure) => sum + failure.count, 0)} in all`,
  ];
  for (const failure of report.failures) {
    lines.push(
      `- ${failure.kind} [${failure.signature}] on ${failure.first.route} ×${failure.count}`,
      `    request: ${failure.first.request}`,
      `    answer: ${failure.first.status}; ${failure.first.detail.split('\n').slice(0, 6).join('\n      ')}`,
      `    replay: ${replayHint(report, failure)}`,
    );
  }
  return lines.join('\n');
}
