/**
 * Image work is background work: a worker thread lowers its own scheduling priority so that, when cores are
 * short, the main thread (answering requests) runs first and a decode waits a little instead. Linux only: there a
 * thread has a nice value of its own, set through its thread id, which `/proc/thread-self` names. Elsewhere, or
 * when it cannot be done, the thread keeps the process's priority.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Nice value of image worker threads: main-thread requests win most of a shared core, the worker keeps the rest. */
export const WORKER_NICE = 10;

/** This thread's id on Linux (`<pid>/task/<tid>`), or null. */
function threadId(): number | null {
  try {
    const match = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Lowers this thread's priority to `nice` (never raises it); returns whether it was set. */
export function lowerThreadPriority(nice: number = WORKER_NICE): boolean {
  const tid = threadId();
  if (tid === null || tid === process.pid) return false;
  try {
    if (getPriority(tid) >= nice) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
