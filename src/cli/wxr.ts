/** `quire import <file.xml>` and `quire export`: WordPress export files in and out of the store. */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { Cms } from '../cms.js';
import { isCmsError } from '../core/errors.js';
import { createProgressReporter, type WxrCounts, type WxrImportSummary } from '../wxr/index.js';
import type { CliCommand } from './args.js';

type ImportCommand = Extract<CliCommand, { command: 'import' }>;
type ExportCommand = Extract<CliCommand, { command: 'export' }>;

function counts(counted: WxrCounts): string {
  return Object.entries(counted).map(([kind, count]) => `${count} ${kind}`).join(', ');
}

function summaryLines(summary: WxrImportSummary): string {
  const skipped = Object.entries(summary.skipped).map(([reason, count]) => `${reason} ${count}`).join(', ');
  return `quire import: created ${counts(summary.created)}\n`
    + `quire import: already there ${counts(summary.existing)}\n`
    + `quire import: ${summary.filesFetched} files fetched; skipped: ${skipped || 'nothing'}\n`;
}

/** Imports the file; answers the exit code. */
export async function importWxrFile(cms: Cms, command: ImportCommand): Promise<number> {
  let size: number;
  try {
    size = (await stat(command.file)).size;
  } catch (error) {
    process.stderr.write(`quire: cannot read ${command.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
    return 1;
  }
  const reporter = createProgressReporter({ stream: process.stderr, totalBytes: size, label: 'quire import' });
  try {
    const summary = await cms.importWxr(createReadStream(command.file), {
      fetchAttachments: command.fetchAttachments,
      ...(command.authorRole ? { authorRole: command.authorRole } : {}),
      onProgress: (progress) => reporter.update(progress),
    });
    reporter.finish();
    for (const warning of summary.warnings) process.stderr.write(`quire import: warning: ${warning}\n`);
    process.stdout.write(summaryLines(summary));
    return 0;
  } catch (error) {
    reporter.finish();
    if (!isCmsError(error) && !(error as NodeJS.ErrnoException).code) throw error;
    process.stderr.write(`quire: ${command.file}: ${(error as Error).message}\nquire: nothing was imported.\n`);
    return 1;
  }
}

/**
 * Waits for room in the stream's buffer, or its end. Removes both listeners afterwards: an `events.once` left
 * waiting on every full buffer would keep its listeners, and node warns of a leak after ten.
 */
function drainedOrClosed(target: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      target.off('drain', done);
      target.off('close', done);
      resolve();
    };
    target.on('drain', done);
    target.on('close', done);
  });
}

/** Writes the export with backpressure; answers the exit code. */
export async function exportWxrFile(cms: Cms, command: ExportCommand): Promise<number> {
  const target: Writable = command.output ? createWriteStream(command.output) : process.stdout;
  let failure: Error | null = null;
  target.on('error', (error) => { failure = error; });
  try {
    for await (const piece of cms.exportWxr()) {
      if (failure) break;
      if (!target.write(piece)) await drainedOrClosed(target);
    }
    if (command.output && !failure) {
      target.end();
      await once(target, 'close');
    }
  } catch (error) {
    failure ??= error as Error;
  }
  // A reader that stopped early (`quire export | head`) is not an error.
  if (failure === null || (failure as NodeJS.ErrnoException).code === 'EPIPE') return 0;
  process.stderr.write(`quire: the export could not be written: ${(failure as Error).message}\n`);
  return 1;
}
