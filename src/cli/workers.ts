/**
 * `quire serve --workers N`: the first process forks N server processes (node:cluster) that share its port and
 * the store, and answers no request itself. One worker creates the first administrator and prints its password;
 * the primary prints the listening line once every worker listens. SIGTERM or SIGINT stops every worker; a
 * worker that dies unexpectedly is logged and replaced after a pause that grows while replacements die young. A
 * worker stopped by SIGTERM or SIGINT sent to it alone (an operator's) is replaced too, logged as stopped by that
 * signal rather than as a crash; it neither lengthens nor resets the pause of a run of crashes.
 */
import cluster, { type Worker } from 'node:cluster';
import type { CliCommand } from './args.js';
import { createLogger } from './log.js';

type ServeCommand = Extract<CliCommand, { command: 'serve' }>;

/** What a worker tells the primary, and the primary a worker. */
type FromWorker = { quire: 'listening'; url: string; description: string } | { quire: 'announced' } | { quire: 'stopping'; signal: StopSignal };
type StopSignal = 'SIGTERM' | 'SIGINT';
const STOP_SIGNALS: ReadonlySet<string> = new Set<StopSignal>(['SIGTERM', 'SIGINT']);
type ToWorker = { quire: 'announce' };

const FIRST_RESTART_DELAY_MS = 250;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that served this long counts as healthy: the next replacement starts without delay growth. */
const STABLE_AFTER_MS = 10_000;

/** The pause before a replacement starts, after `quickDeaths` workers in a row died within STABLE_AFTER_MS. */
export const restartDelayMs = (quickDeaths: number): number =>
  Math.min(FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, quickDeaths - 1), MAX_RESTART_DELAY_MS);

export const isServerWorker = (): boolean => cluster.isWorker;

/** The first worker forked is the one that imports `--import` files; replacements never do. */
export const isFirstWorker = (): boolean => cluster.worker?.id === 1;

/**
 * In a worker, once its server listens: tells the primary, and creates the administrator when the primary asks
 * (it asks one worker, once).
 */
export function reportListening(url: string, description: string, announceAdministrator: () => Promise<void>): void {
  process.on('message', (message: ToWorker) => {
    if (message?.quire !== 'announce') return;
    void announceAdministrator().then(() => process.send!({ quire: 'announced' } satisfies FromWorker));
  });
  process.send!({ quire: 'listening', url, description } satisfies FromWorker);
}

/** In a worker told to stop by a signal: says so to the primary before shutting down (it then exits with 0). */
export function reportStopSignal(signal: StopSignal): void {
  if (cluster.isWorker && process.connected) process.send!({ quire: 'stopping', signal } satisfies FromWorker);
}

export function runPrimary(command: ServeCommand): void {
  const logger = createLogger(command.log);
  let ready = false;
  let stopping = false;
  let listening = 0;
  let announcer: Worker | null = null;
  let announced = false;
  let quickDeaths = 0;
  let where: { url: string; description: string } | null = null;
  const restarts = new Set<NodeJS.Timeout>();
  const bornAt = new Map<Worker, number>();
  /** Workers that said a signal told them to stop. */
  const stopSignals = new Map<Worker, StopSignal>();

  const stop = (exitCode: number): void => {
    if (stopping) return;
    stopping = true;
    process.exitCode = exitCode;
    for (const timer of restarts) clearTimeout(timer);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    exitWhenAllGone();
  };
  const exitWhenAllGone = (): void => {
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit();
  };

  const fork = (): void => {
    const worker = cluster.fork();
    bornAt.set(worker, Date.now());
    worker.on('message', (message: FromWorker) => {
      if (message?.quire === 'stopping') {
        if (STOP_SIGNALS.has(message.signal)) stopSignals.set(worker, message.signal);
        return;
      }
      if (message?.quire === 'listening') {
        if (ready) {
          logger.info({ worker: worker.process.pid }, 'worker replaced');
          return;
        }
        listening++;
        where = message;
        if (announcer === null) {
          announcer = worker;
          worker.send({ quire: 'announce' } satisfies ToWorker);
        }
      } else if (message?.quire === 'announced' && worker === announcer) {
        announced = true;
      }
      announceWhenAllListen();
    });
  };
  /** The listening line comes once every worker listens and the administrator's credentials are printed. */
  const announceWhenAllListen = (): void => {
    if (ready || stopping || !announced || listening < command.workers || where === null) return;
    ready = true;
    process.stdout.write(`quire store: ${where.description}\nquire workers: ${command.workers}\nquire listening: ${where.url}\n`);
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (bornAt.get(worker) ?? Date.now());
    bornAt.delete(worker);
    // Stopped by a signal: as it said (it shut down and exited), or killed by one before its handler was set up.
    const stoppedBy = stopSignals.get(worker) ?? (signal !== null && STOP_SIGNALS.has(signal) ? signal : null);
    stopSignals.delete(worker);
    if (stopping) return exitWhenAllGone();
    // A worker that cannot start (the port is taken, the store cannot be opened) has said why on standard error.
    if (!ready) return stop(1);
    if (stoppedBy === null) quickDeaths = lived < STABLE_AFTER_MS ? quickDeaths + 1 : 0;
    const delay = restartDelayMs(quickDeaths);
    if (stoppedBy === null) logger.error({ worker: worker.process.pid, code, signal, restartInMs: delay }, 'worker exited unexpectedly');
    else logger.warn({ worker: worker.process.pid, code, signal: stoppedBy, restartInMs: delay }, 'worker stopped by signal');
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork();
    }, delay);
    restarts.add(timer);
  });
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  for (let index = 0; index < command.workers; index++) fork();
}
