import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startReceiver } from '../webhooks/receiver.js';
import { verifies } from '../webhooks/helpers.js';
import { QUIRE_BIN } from './durability.js';

const PASSWORD = 'webhookCrashPassword2024';
const SECRET = 'a-webhook-secret-for-the-crash-test';
const AUTHORIZATION = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;

async function startServer(dataFile: string, webhook: string): Promise<{ child: ChildProcess; apiUrl: string }> {
  const child = spawn(process.execPath, [QUIRE_BIN, 'serve', '--port', '0', '--data', dataFile, '--admin-app-password', PASSWORD, '--webhook', webhook, '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, QUIRE_ADMIN_APP_PASSWORD: '', QUIRE_WEBHOOK_SECRET: SECRET, QUIRE_WEBHOOK_RETRY_MS: '200', QUIRE_WEBHOOK_TIMEOUT_MS: '1000' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => { stdout += text; });
  child.stderr!.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const announced = /^quire listening: (\S+)$/m.exec(stdout);
    if (announced) return { child, apiUrl: announced[1]! };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`quire serve did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

test('events of writes made before a SIGKILL, with the receiver down, all arrive after a restart', async () => {
  assert.ok(existsSync(QUIRE_BIN), 'dist/ is missing: run `npm run build` first');
  const folder = mkdtempSync(join(tmpdir(), 'quire-webhook-crash-'));
  const dataFile = join(folder, 'site.db');
  // The receiver's port, taken and given back: nothing listens there while the first server runs.
  const probe = await startReceiver();
  const port = probe.port;
  await probe.close();
  const webhook = `http://127.0.0.1:${port}/hook`;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    server = await startServer(dataFile, webhook);
    const titles: string[] = [];
    for (let index = 0; index < 5; index++) {
      const title = `Crash ${index}`;
      const response = await fetch(`${server.apiUrl}cms/v2/posts`, {
        method: 'POST', headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
        body: JSON.stringify({ title, status: 'publish' }),
      });
      assert.equal(response.status, 201);
      titles.push(title);
    }
    await killed(server.child);
    server = null;

    receiver = await startReceiver(port);
    server = await startServer(dataFile, webhook);
    const deadline = Date.now() + 20_000;
    const published = () => receiver!.received.filter((delivery) => delivery.json.event === 'post.published');
    while (published().length < titles.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(published().map((delivery) => delivery.json.resource.title.rendered).sort(), titles);
    for (const delivery of receiver.received) assert.ok(verifies(delivery, SECRET));
    assert.equal(new Set(published().map((delivery) => delivery.json.id)).size, titles.length);
  } finally {
    if (server) await killed(server.child);
    await receiver?.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
