/** Runs wrk (C, one thread) against a URL and reads its totals; p99 in milliseconds. */
import { spawn } from 'node:child_process';

export interface WrkResult { rate: number; p99: number; total: number }

/** `args` are wrk's options before the URL (threads, connections, duration, headers); `--latency` is added. */
export async function runWrk(args: string[], url: string, command = 'wrk'): Promise<WrkResult> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(command, [...args, '--latency', url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
    child.once('error', reject).once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with code ${code}`))));
  });
  const unit: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(output);
  const total = /^\s*(\d+) requests in /m.exec(output);
  const rate = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  if (!p99 || !total || !rate) throw new Error(`unexpected wrk output:\n${output}`);
  const failures = /Non-2xx or 3xx responses: (\d+)|Socket errors: .*/.exec(output);
  if (failures) process.stderr.write(`warning: ${url}: ${failures[0]}\n`);
  return { rate: Number(rate[1]), p99: Number(p99[1]) * unit[p99[2]!]!, total: Number(total[1]) };
}
