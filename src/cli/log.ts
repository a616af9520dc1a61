/**
 * The standalone server's log, through pino: one line per request (the `onRequest` entries of the core and the
 * server's own answers outside the API), and unexpected errors once with their stack. JSON lines by default;
 * `pretty` turns each into a readable line.
 */
import { pino, stdSerializers, stdTimeFunctions, type Logger } from 'pino';
import type { RequestLogEntry } from '../core/request-log.js';
import type { LogChoice } from './log-args.js';

export type { Logger } from 'pino';

interface Writable { write(text: string): unknown }

/** Lines are written in batches of this many characters at least, or after FLUSH_EVERY_MS: one write per line costs more than the line. */
const BATCH_BYTES = 4096;
const FLUSH_EVERY_MS = 250;

export function createLogger(choice: LogChoice, output: Writable = process.stdout): Logger {
  const options = {
    level: choice.level,
    base: { pid: process.pid },
    timestamp: stdTimeFunctions.isoTime,
    serializers: { err: stdSerializers.err },
  };
  if (choice.format === 'pretty') return pino(options, { write: (line: string) => output.write(prettyLine(line)) });
  const destination = output === process.stdout ? batchedDestination(1) : output;
  const logger = pino(options, destination);
  requestLines.set(logger, { destination, bindings: (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] ?? '' });
  return logger;
}

/**
 * Where the request lines of a JSON logger go, and its bound fields as pino writes them (`,"pid":…`). A request
 * line is written straight there, as pino would write it: pino's general path (serialising any object, a fresh
 * timestamp string) costs more per request than the rest of a cached read.
 */
const requestLines = new WeakMap<Logger, { destination: Writable; bindings: string }>();

/**
 * A file descriptor or path written in batches: lines are gathered here and handed to the destination (pino's
 * sonic-boom) a batch at a time, written at once; what is left is written when the process exits. The writes are
 * synchronous: a batch still in flight in the background when the process exits would be lost, and one write per
 * batch of about 4 KiB costs far less than the requests it logs. (Given line by line, sonic-boom measures its
 * whole pending buffer again for every line.)
 */
export function batchedDestination(dest: number | string): LineBatches {
  const batches = new LineBatches(pino.destination({ dest, sync: true }));
  setInterval(() => batches.flush(), FLUSH_EVERY_MS).unref();
  process.once('exit', () => batches.flushSync());
  return batches;
}

export class LineBatches implements Writable {
  #lines: string[] = [];
  #characters = 0;

  constructor(readonly destination: ReturnType<typeof pino.destination>) {}

  write(line: string): boolean {
    this.#lines.push(line);
    this.#characters += line.length;
    if (this.#characters >= BATCH_BYTES) this.#handOver();
    return true;
  }

  flush(): void {
    this.#handOver();
    this.destination.flush();
  }

  flushSync(): void {
    this.#handOver();
    try {
      this.destination.flushSync();
    } catch {
      // Not open yet (an exit before the file opened): nothing was written to it either.
    }
  }

  #handOver(): void {
    if (this.#lines.length === 0) return;
    const text = this.#lines.join('');
    this.#lines = [];
    this.#characters = 0;
    this.destination.write(text);
  }
}

/** One request: `info`, or `warn` for a server error; health checks only at `debug`, as they come every second. */
export function logRequest(logger: Logger, entry: RequestLogEntry, healthCheck = false): void {
  const level = healthCheck ? 'debug' : entry.status >= 500 ? 'warn' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const direct = requestLines.get(logger);
  if (direct) {
    direct.destination.write(requestLine(logger.levels.values[level]!, direct.bindings, entry));
    return;
  }
  // The arrival time stays out: pino stamps each line with its own time.
  const fields = {
    method: entry.method, path: entry.path, status: entry.status, bytes: entry.bytes, durationMs: entry.durationMs,
    clientAddress: entry.clientAddress, userId: entry.userId,
  };
  if (healthCheck) logger.debug(fields, 'request');
  else if (entry.status >= 500) logger.warn(fields, 'request');
  else logger.info(fields, 'request');
}

/** The JSON line pino writes for `logger[level](fields, 'request')`, field for field. */
function requestLine(level: number, bindings: string, entry: RequestLogEntry): string {
  const client = entry.clientAddress === null ? 'null' : JSON.stringify(entry.clientAddress);
  return `{"level":${level},"time":"${isoNow()}"${bindings},"method":${JSON.stringify(entry.method)},"path":${JSON.stringify(entry.path)},`
    + `"status":${entry.status},"bytes":${entry.bytes},"durationMs":${entry.durationMs},"clientAddress":${client},"userId":${entry.userId},"msg":"request"}\n`;
}

/** The time as `toISOString` gives it; the part up to the second is built once a second. */
let isoSecond = Number.NaN;
let isoPrefix = '';
function isoNow(): string {
  const now = Date.now();
  const millisecond = now % 1000;
  if (now - millisecond !== isoSecond) {
    isoSecond = now - millisecond;
    isoPrefix = new Date(isoSecond).toISOString().slice(0, -4);
  }
  return `${isoPrefix}${millisecond < 10 ? '00' : millisecond < 100 ? '0' : ''}${millisecond}Z`;
}

export function logError(logger: Logger, error: unknown): void {
  logger.error({ err: error instanceof Error ? error : new Error(String(error)) }, 'unexpected error');
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** A pino JSON line as a readable one: `time method path status bytes duration client user`, or a message and stack. */
export function prettyLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = LEVEL_NAMES[record.level as number] ?? String(record.level);
  if (record.msg === 'request') {
    const user = record.userId === null ? '-' : `user ${String(record.userId)}`;
    return `${String(record.time)} ${level.padEnd(5)} ${String(record.method)} ${String(record.path)} ${String(record.status)} `
      + `${String(record.bytes)}B ${String(record.durationMs)}ms ${String(record.clientAddress ?? '-')} ${user}\n`;
  }
  const err = record.err as { stack?: string; message?: string } | undefined;
  const detail = err ? `\n${err.stack ?? err.message ?? ''}` : '';
  return `${String(record.time)} ${level.padEnd(5)} ${String(record.msg)}${detail}\n`;
}
