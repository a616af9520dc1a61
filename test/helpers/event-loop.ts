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
