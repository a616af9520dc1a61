/**
 * Showing an import's progress: on a terminal, one line redrawn in place (a bar when the file size is known,
 * counts and the rate of items per second); elsewhere (a log, a pipe) a plain line now and then, so logs stay
 * readable.
 */
import type { WxrProgress } from './import-run.js';

export interface ProgressReporterOptions {
  /** Where to write (stderr, typically); `isTTY` decides between the redrawn line and plain lines. */
  stream: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  /** The file's size in bytes, when known: the bar and the percentage. */
  totalBytes?: number;
  /** Milliseconds since some fixed point (default `performance.now()`). */
  now?: () => number;
  /** Least time between two plain lines (default 2000 ms); a terminal line is redrawn at most every 100 ms. */
  intervalMs?: number;
  /** Starts each line (default `import`). */
  label?: string;
}

export interface ProgressReporter {
  update(progress: WxrProgress): void;
  /** Writes the last state (and, on a terminal, ends the line). */
  finish(): void;
}

const BAR_WIDTH = 24;
const TTY_INTERVAL_MS = 100;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function countsOf(progress: WxrProgress, rate: number): string {
  return `${progress.items} items (${Math.round(rate)}/s), ${progress.authors} authors, ${progress.terms} terms, `
    + `${progress.comments} comments, ${progress.files} files, ${megabytes(progress.bytes)} read`;
}

export function createProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  const { stream, totalBytes } = options;
  const now = options.now ?? (() => performance.now());
  const tty = stream.isTTY === true;
  const interval = tty ? TTY_INTERVAL_MS : options.intervalMs ?? 2000;
  const label = options.label ?? 'import';
  const started = now();
  let last: WxrProgress | null = null;
  let shownAt = -Infinity;
  let shownPhase = '';

  function line(progress: WxrProgress): string {
    // The first second's rate is noise; count it as a whole second.
    const seconds = Math.max((now() - started) / 1000, 1);
    const counts = countsOf(progress, progress.items / seconds);
    const phase = progress.phase === 'reading' ? '' : ` [${progress.phase === 'linking' ? 'linking' : 'done'}]`;
    if (!tty || !totalBytes) return `${label}: ${counts}${phase}`;
    const share = Math.min(progress.bytes / totalBytes, 1);
    const filled = Math.round(share * BAR_WIDTH);
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ${counts}${phase}`;
  }

  function show(progress: WxrProgress): void {
    shownAt = now();
    shownPhase = progress.phase;
    const text = line(progress);
    if (!tty) {
      stream.write(`${text}\n`);
      return;
    }
    const columns = stream.columns ?? 120;
    stream.write(`\r\x1b[K${text.length >= columns ? text.slice(0, columns - 1) : text}`);
  }

  return {
    update(progress) {
      last = progress;
      if (progress.phase !== shownPhase && progress.phase !== 'reading') show(progress);
      else if (now() - shownAt >= interval) show(progress);
    },
    finish() {
      if (!last) return;
      if (tty || shownPhase !== last.phase) show(last);
      if (tty) stream.write('\n');
    },
  };
}
