/**
 * Abuse benchmark of the standalone server: `npm run bench:auth-abuse` (builds first), or
 * `node --import tsx test/bench/auth-abuse.ts [path/to/cli.js]` to measure another build (the same figures before
 * a change). Starts `quire serve --storage memory` in a child process and measures, with an in-repo load generator:
 *
 * 1. a login holding many application passwords (as many as the server lets one user create, up to 200): failed
 *    attempts per second against it from one client over 1 and over 16 connections, and the server CPU each costs;
 * 2. during a 16-connection attack, p99 latency of anonymous reads and of a valid login from another client,
 *    against the same figures with no attack.
 *
 * Clients are told apart through `X-Forwarded-For` with `--trust-proxy loopback` where the server knows the flag;
 * a server without it sees one client. BENCH_SECONDS (default 5) sets each phase's length; BENCH_PASSWORDS (default 200)
 * how many application passwords the attacked login is given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLI = process.argv[2] ?? fileURLToPath(new URL('../../dist/js/cli.js', import.meta.url));
const ADMIN_PASSWORD = 'benchAdminPassword0000000';
const WANTED_PASSWORDS = Number(process.env.BENCH_PASSWORDS ?? 200);
const WRONG = 'abcd efgh ijkl mnop qrst uvwx';

interface Server { child: ChildProcess; port: number; trustsProxy: boolean }

async function start(): Promise<Server> {
  const help = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, [CLI, '--help']);
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', () => resolve(out));
  });
  const trustsProxy = help.includes('--trust-proxy');
  const args = [CLI, 'serve', '--storage', 'memory', '--port', '0', '--admin-app-password', ADMIN_PASSWORD, ...(trustsProxy ? ['--trust-proxy', 'loopback'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening: http:\/\/[^:]+:(\d+)\//.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', () => reject(new Error(`server exited: ${out}`)));
  });
  return { child, port, trustsProxy };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

interface Answer { status: number; body: string; ms: number }

function request(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({ host: '127.0.0.1', port, method, path: `/cms-json${path}`, agent, headers: {
      ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
    } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const basic = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });
const from = (address: string) => ({ 'x-forwarded-for': address });

/** The server's CPU time so far (user + system), in milliseconds, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Runs `connections` loops of `send` for `seconds`; answers every response's status and time. */
async function load(connections: number, seconds: number, send: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < until) answers.push(await send());
  }));
  return answers;
}

const p99 = (answers: Answer[]) => {
  const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  return times.length === 0 ? NaN : times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!;
};
const count = (answers: Answer[], status: number) => answers.filter((answer) => answer.status === status).length;

async function main(): Promise<void> {
  const server = await start();
  const { port } = server;
  const admin = { ...basic('admin', ADMIN_PASSWORD), ...from('192.0.2.1') };
  try {
    const victim = JSON.parse((await request(port, 'POST', '/cms/v2/users', admin, {
      username: 'victim', email: 'victim@example.test', password: 'x', roles: ['subscriber'],
    })).body);
    const owner = JSON.parse((await request(port, 'POST', '/cms/v2/users', admin, {
      username: 'owner', email: 'owner@example.test', password: 'x', roles: ['editor'],
    })).body);
    const ownerPassword = JSON.parse((await request(port, 'POST', `/cms/v2/users/${owner.id}/application-passwords`, admin, { name: 'owner' })).body).password;
    let held = 0;
    for (; held < WANTED_PASSWORDS; held += 1) {
      const made = await request(port, 'POST', `/cms/v2/users/${victim.id}/application-passwords`, admin, { name: `app ${held}` });
      if (made.status !== 201) break;
    }
    await request(port, 'POST', '/cms/v2/posts', admin, { title: 'Hello', status: 'publish', content: 'Words.' });

    const attack = (connections: number, address: string) => {
      const cpuBefore = cpuMs(server.child.pid!);
      const started = performance.now();
      return load(connections, SECONDS, () => request(port, 'GET', '/cms/v2/users/me', { ...basic('victim', WRONG), ...from(address) }))
        .then((answers) => ({ answers, cpu: cpuMs(server.child.pid!) - cpuBefore, seconds: (performance.now() - started) / 1000 }));
    };
    const describe = (label: string, run: Awaited<ReturnType<typeof attack>>) => {
      const failed = count(run.answers, 401);
      const refused = count(run.answers, 429);
      const others = run.answers.length - failed - refused;
      console.log(`${label}: ${(failed / run.seconds).toFixed(1)} failed attempts/s answered 401 (${failed} in ${run.seconds.toFixed(1)} s),`
        + ` ${(refused / run.seconds).toFixed(0)}/s refused 429${others > 0 ? `, ${others} other answers` : ''};`
        + ` server CPU ${(run.cpu / run.seconds / 10).toFixed(0)}% of a core, ${(run.cpu / Math.max(1, failed)).toFixed(0)} ms per 401`);
    };

    console.log(`server: ${CLI}${server.trustsProxy ? ' (--trust-proxy loopback)' : ' (no --trust-proxy: one client address)'}`);
    console.log(`victim login holds ${held} application passwords (asked for ${WANTED_PASSWORDS})`);
    describe('1 connection ', await attack(1, '203.0.113.1'));
    describe('16 connections', await attack(16, '203.0.113.16'));

    const reads = () => request(port, 'GET', '/cms/v2/posts?per_page=5', from('198.51.100.7'));
    const login = () => request(port, 'GET', '/cms/v2/users/me', { ...basic('owner', ownerPassword), ...from('198.51.100.4') });
    const quiet = await Promise.all([load(1, SECONDS, reads), load(1, SECONDS, login)]);
    const [attacked, readsAttacked, loginAttacked] = await Promise.all([
      attack(16, '203.0.113.99'), load(1, SECONDS, reads), load(1, SECONDS, login),
    ]);
    console.log(`no attack:      p99 anonymous read ${p99(quiet[0]).toFixed(1)} ms; p99 valid login ${p99(quiet[1]).toFixed(1)} ms (${count(quiet[1], 200)}/${quiet[1].length} ok)`);
    console.log(`16-conn attack: p99 anonymous read ${p99(readsAttacked).toFixed(1)} ms; p99 valid login ${p99(loginAttacked).toFixed(1)} ms`
      + ` (${count(loginAttacked, 200)}/${loginAttacked.length} ok, max ${Math.max(...loginAttacked.map((answer) => answer.ms)).toFixed(0)} ms)`);
    describe('  (that attack)', attacked);
  } finally {
    server.child.kill('SIGTERM');
    agent.destroy();
  }
}

await main();
