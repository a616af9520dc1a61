import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Runs the built `quire` bin (`npm run build` first; `npm test` does). */
export const bin = fileURLToPath(new URL('../../dist/js/cli.js', import.meta.url));
const STARTUP_TIMEOUT_MS = 10_000;
/** The commands run here, so one that opens the default store (`./quire.db`) leaves the checkout untouched. */
const workDir = mkdtempSync(join(tmpdir(), 'quire-cli-'));
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));

export interface Finished { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

export function run(args: string[], environment: Record<string, string> = {}): { child: ChildProcess; output: { stdout: string; stderr: string }; finished: Promise<Finished> } {
  const child = spawn(process.execPath, [bin, ...args], { cwd: workDir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, QUIRE_ADMIN_APP_PASSWORD: '', ...environment } });
  const output = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (text: string) => { output.stdout += text; });
  child.stderr!.setEncoding('utf8').on('data', (text: string) => { output.stderr += text; });
  const finished = once(child, 'exit').then(([code, signal]) => ({ code, signal, ...output }) as Finished);
  return { child, output, finished };
}

/** Starts `quire serve` and waits for the line announcing the API URL. */
export async function serve(args: string[], environment: Record<string, string> = {}): Promise<{ child: ChildProcess; apiUrl: string; finished: Promise<Finished>; output: { stdout: string; stderr: string } }> {
  const storeFlags = args.some((arg) => ['--data', '--storage', '--postgres'].includes(arg)) ? [] : ['--storage', 'memory'];
  const started = run(['serve', '--port', '0', ...storeFlags, ...args], environment);
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    const announced = /^quire listening: (\S+)$/m.exec(started.output.stdout);
    if (announced) return { child: started.child, apiUrl: announced[1]!, finished: started.finished, output: started.output };
    if (started.child.exitCode !== null || Date.now() > deadline) {
      started.child.kill();
      assert.fail(`quire serve did not start: ${started.output.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function assertNoStackTrace(text: string): void {
  assert.doesNotMatch(text, /^\s+at /m, 'no stack trace');
}

