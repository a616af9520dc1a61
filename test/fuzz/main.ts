/**
 * The long fuzz run: `npm run fuzz -- --requests 1000000 [--seed N] [--store sqlite]`, and the replay of one case:
 * `npm run fuzz -- --replay CASE_SEED [--store sqlite]`. Prints counts, the status histogram and every distinct
 * failure with the command that replays it; exits 1 when anything failed.
 */
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { PrototypeGuard } from './checks.js';
import { CrashWatch } from './crashes.js';
import { makeCase } from './requests.js';
import { describeRequest, formatReport, runCase, runFuzz } from './runner.js';
import { seedSite, type StoreKind } from './site.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    store: { type: 'string', default: 'memory' },
    from: { type: 'string', default: '0' },
    replay: { type: 'string' },
    'app-password-rate': { type: 'string', default: '0.01' },
    'fresh-every': { type: 'string', default: '20000' },
  },
});

function whole(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    process.stderr.write(`fuzz: --${name} must be a whole number, not '${text}'\n`);
    process.exit(2);
  }
  return value;
}

const store = values.store as StoreKind;
if (store !== 'memory' && store !== 'sqlite') {
  process.stderr.write(`fuzz: --store must be memory or sqlite, not '${values.store}'\n`);
  process.exit(2);
}
const appPasswordRate = Number(values['app-password-rate']);

if (values.replay !== undefined) {
  const site = await seedSite(store);
  const fuzzCase = makeCase(site, site.cms.registry.routes, whole('replay', values.replay), { appPasswordRate });
  const crashes = new CrashWatch();
  crashes.start();
  const result = await runCase(site, new PrototypeGuard(), crashes, fuzzCase);
  crashes.stop();
  await site.close();
  const body = result.response?.body;
  const shown = body instanceof Uint8Array ? new TextDecoder().decode(body) : JSON.stringify(body);
  process.stdout.write([
    `case ${fuzzCase.seed} on ${fuzzCase.route}`,
    `request: ${describeRequest(fuzzCase.request, fuzzCase.caller)}`,
    `answer: ${result.response?.status} in ${Math.round(result.elapsedMs)} ms ${JSON.stringify(result.response?.headers ?? {})}`,
    `body: ${shown?.slice(0, 2000)}`,
    ...result.violations.map((violation) => `VIOLATION ${violation.kind}: ${violation.detail}`),
    '',
  ].join('\n'));
  process.exit(result.violations.length > 0 ? 1 : 0);
}

const seed = values.seed === undefined ? randomInt(2 ** 32) : whole('seed', values.seed);
const from = whole('from', values.from);
const to = from + whole('requests', values.requests);
process.stdout.write(`fuzz seed ${seed}, store ${store}, cases ${from}..${to - 1}\n`);
const report = await runFuzz({
  seed,
  from,
  to,
  store,
  appPasswordRate,
  freshEvery: Math.max(1, whole('fresh-every', values['fresh-every'])),
  onProgress: (done, partial) => {
    if (done % 10_000 === 0) {
      const rate = Math.round(done / (partial.elapsedMs / 1000));
      process.stdout.write(`  ${done} requests, ${rate}/s, ${partial.failures.length} distinct failures\n`);
    }
  },
});
process.stdout.write(`${formatReport(report)}\n`);
process.exit(report.failures.length > 0 ? 1 : 0);
