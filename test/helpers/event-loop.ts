import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** The longest time between ticks of a 1 ms timer while `work` runs: how long the event loop was held at a time. */
export async function longestGap(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    longest = Math.max(longest, performance.now() - last);
    last = performance.now();
  }, 1);
  await work();
  clearInterval(ticker);
  return Math.max(longest, performance.now() - last);
}

/**
 * The main thread's CPU time so far, in milliseconds (Linux: its scheduler statistics); elsewhere the whole
 * process's, worker threads included.
 */
export function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

/**
 * The most CPU time the main thread spent between two ticks of a 1 ms timer while `work` runs: how long the event
 * loop was held at a time, without the time a busy machine's other work kept this thread waiting for a core.
 */
export async function longestTurnCpu(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = mainThreadCpuMs();
  const ticker = setInterval(() => {
    const now = mainThreadCpuMs();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  return Math.max(longest, mainThreadCpuMs() - last);
}
