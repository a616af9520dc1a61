/**
 * Crash rounds against the standalone server on SQLite: concurrent writers, SIGKILL in the middle of their
 * writes, a restart on the same file, and a check that every write the server acknowledged (answered 2xx) is
 * there. The file is kept from round to round, so each restart also re-checks every earlier round's writes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Random } from '../fuzz/random.js';

/** The built `quire` bin (`npm run build` first). */
export const QUIRE_BIN = fileURLToPath(new URL('../../dist/js/cli.js', import.meta.url));
const PASSWORD = 'durabilityPassword2024';
const STARTUP_TIMEOUT_MS = 15_000;

interface Server {
  child: ChildProcess;
  apiUrl: string;
  exited: Promise<unknown>;
}

/** Starts `quire serve` on the database file and waits until it listens. */
async function startServer(dataFile: string): Promise<Server> {
  const child = spawn(process.execPath, [QUIRE_BIN, 'serve', '--port', '0', '--data', dataFile, '--admin-app-password', PASSWORD], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, QUIRE_ADMIN_APP_PASSWORD: '' },
  });
  const exited = once(child, 'exit');
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => { stdout += text; });
  child.stderr!.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    const announced = /^quire listening: (\S+)$/m.exec(stdout);
    if (announced) return { child, apiUrl: announced[1]!, exited };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`quire serve did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const AUTHORIZATION = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;

async function call(server: Server, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.apiUrl}${path.replace(/^\//, '')}`, {
    method,
    headers: { authorization: AUTHORIZATION, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? null : JSON.parse(text) };
}

/**
 * What the server acknowledged, per post: the titles it may now have (the last acknowledged one, plus one whose
 * update was under way when the server died), or that it was deleted.
 */
interface Expectation {
  titles: Set<string>;
  deleted: 'no' | 'acknowledged' | 'maybe';
}

export interface Ledger {
  posts: Map<number, Expectation>;
  tags: Map<number, string>;
}

export function newLedger(): Ledger {
  return { posts: new Map(), tags: new Map() };
}

export interface RoundResult {
  round: number;
  /** Writes answered 2xx in this round. */
  acknowledged: number;
  /** Writes under way or refused when the server died. */
  interrupted: number;
  /** Posts and tags of earlier rounds checked after the restart that began this round. */
  checked: number;
  /** Acknowledged writes of earlier rounds missing or different after that restart. */
  lost: string[];
  /** Writes the running server refused (a non-2xx answer before the kill). */
  refused: string[];
}

class Refused extends Error {}

function expect(answer: { status: number; json: any }, status: number, what: string): any {
  if (answer.status !== status) throw new Refused(`${what} answered ${answer.status}: ${JSON.stringify(answer.json).slice(0, 200)}`);
  return answer.json;
}

interface Counts { acknowledged: number; interrupted: number; refused: string[] }

/** One writer: creates, updates and deletes its own posts, and creates tags, until the server goes away. */
async function writer(server: Server, ledger: Ledger, random: Random, label: string, counts: Counts, stop: () => boolean): Promise<void> {
  const own: number[] = [];
  for (let step = 0; !stop(); step++) {
    const action = own.length === 0 ? 'create' : random.weighted([[5, 'create'], [3, 'update'], [1, 'delete'], [1, 'tag']] as const);
    const title = `${label}-${step}-${action}`;
    try {
      if (action === 'create') {
        const status = random.pick(['publish', 'draft', 'private']);
        const post = expect(await call(server, 'POST', '/cms/v2/posts', { title, content: `Body of ${title}`, status }), 201, 'create');
        ledger.posts.set(post.id, { titles: new Set([title]), deleted: 'no' });
        own.push(post.id);
      } else if (action === 'update') {
        const id = random.pick(own);
        const expectation = ledger.posts.get(id)!;
        // Until the answer arrives, either title may be what the store kept.
        expectation.titles.add(title);
        expect(await call(server, 'POST', `/cms/v2/posts/${id}`, { title }), 200, 'update');
        expectation.titles = new Set([title]);
      } else if (action === 'delete') {
        const id = own.splice(random.below(own.length), 1)[0]!;
        const expectation = ledger.posts.get(id)!;
        expectation.deleted = 'maybe';
        expect(await call(server, 'DELETE', `/cms/v2/posts/${id}?force=true`), 200, 'delete');
        expectation.deleted = 'acknowledged';
      } else {
        const tag = expect(await call(server, 'POST', '/cms/v2/tags', { name: title }), 201, 'tag');
        ledger.tags.set(tag.id, title);
      }
      counts.acknowledged++;
    } catch (error) {
      // A refusal is a failure of its own; a broken connection means the server died under this write, which it
      // may or may not have kept.
      if (error instanceof Refused && !stop()) counts.refused.push(`${label}: ${error.message}`);
      else counts.interrupted++;
      return;
    }
  }
}

/** Every acknowledged post and tag, read back after the restart; what is missing or different. */
async function verify(server: Server, ledger: Ledger): Promise<{ checked: number; lost: string[] }> {
  const lost: string[] = [];
  const ids = [...ledger.posts.keys()];
  const found = new Map<number, string>();
  for (let at = 0; at < ids.length; at += 100) {
    const page = ids.slice(at, at + 100);
    const answer = await call(server, 'GET', `/cms/v2/posts?context=edit&status=any&per_page=100&include=${page.join(',')}`);
    if (answer.status !== 200) throw new Error(`listing posts after the restart answered ${answer.status}: ${JSON.stringify(answer.json)}`);
    for (const post of answer.json as { id: number; title: { raw: string } }[]) found.set(post.id, post.title.raw);
  }
  for (const [id, expectation] of ledger.posts) {
    const title = found.get(id);
    if (expectation.deleted === 'acknowledged') {
      if (title !== undefined) lost.push(`post ${id} was deleted (acknowledged) but is back as "${title}"`);
      continue;
    }
    if (title === undefined) {
      if (expectation.deleted === 'no') lost.push(`post ${id} (acknowledged as "${[...expectation.titles].join('" or "')}") is missing`);
      continue;
    }
    if (!expectation.titles.has(title)) lost.push(`post ${id} has title "${title}", expected "${[...expectation.titles].join('" or "')}"`);
  }
  const tagIds = [...ledger.tags.keys()];
  for (let at = 0; at < tagIds.length; at += 100) {
    const page = tagIds.slice(at, at + 100);
    const answer = await call(server, 'GET', `/cms/v2/tags?per_page=100&hide_empty=false&include=${page.join(',')}`);
    if (answer.status !== 200) throw new Error(`listing tags after the restart answered ${answer.status}`);
    const names = new Map((answer.json as { id: number; name: string }[]).map((tag) => [tag.id, tag.name]));
    for (const id of page) {
      if (names.get(id) !== ledger.tags.get(id)) lost.push(`tag ${id} ("${ledger.tags.get(id)}") is ${names.has(id) ? `named "${names.get(id)}"` : 'missing'}`);
    }
  }
  return { checked: ledger.posts.size + ledger.tags.size, lost };
}

/**
 * One round: start the server on the file, check every write acknowledged in earlier rounds (the previous
 * round ended with a SIGKILL), run `writers` concurrent writers, and SIGKILL the server once a random number of
 * writes were acknowledged. `finalCheck` restarts once more and checks the last round's writes.
 */
export async function durabilityRound(options: { dataFile: string; ledger: Ledger; round: number; seed: number; writers?: number }): Promise<RoundResult> {
  const random = new Random(options.seed);
  const counts: Counts = { acknowledged: 0, interrupted: 0, refused: [] };
  const killAt = random.between(3, 40);
  const server = await startServer(options.dataFile);
  let killed = false;
  try {
    const { checked, lost } = await verify(server, options.ledger);
    const writers = Array.from({ length: options.writers ?? 4 }, (_, index) =>
      writer(server, options.ledger, new Random(random.uint32()), `r${options.round}w${index}`, counts, () => killed));
    const killer = (async () => {
      while (counts.acknowledged < killAt && counts.interrupted + counts.refused.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      await new Promise((resolve) => setTimeout(resolve, random.below(15)));
      server.child.kill('SIGKILL');
      killed = true;
    })();
    await Promise.all([killer, ...writers]);
    return { round: options.round, acknowledged: counts.acknowledged, interrupted: counts.interrupted, checked, lost, refused: counts.refused };
  } finally {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

/** Restarts the server after the last round and checks every acknowledged write. */
export async function finalCheck(dataFile: string, ledger: Ledger): Promise<{ checked: number; lost: string[] }> {
  const server = await startServer(dataFile);
  try {
    return await verify(server, ledger);
  } finally {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}
