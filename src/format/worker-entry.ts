import type { Worker as NodeWorker } from 'node:worker_threads';

/**
 * Running from TypeScript sources (tests, `node --import tsx`), a worker does not get the main thread's loader
 * hooks on Node 20, so it registers tsx itself before loading its `.ts` entry. Without tsx the import fails and
 * the worker ends with that error.
 */
const TYPESCRIPT_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  await import(workerData.entry);
})().catch((error) => process.nextTick(() => { throw error; }));
`;

function typescriptLoader(): string | null {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return null;
  }
}

/** Starts a worker on `entry`, a built module or (from sources) a TypeScript one, handing it `workerData`. */
export function startWorker(Worker: typeof NodeWorker, entry: URL, workerData: Record<string, unknown> = {}): NodeWorker {
  return entry.pathname.endsWith('.ts')
    ? new Worker(TYPESCRIPT_BOOTSTRAP, { eval: true, workerData: { ...workerData, entry: entry.href, loader: typescriptLoader() } })
    : new Worker(entry, { workerData });
}
