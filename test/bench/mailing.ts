/**
 * Sign-up measurements: `node --import tsx test/bench/mailing.ts`. In-process, with the local provider on the
 * memory store and on SQLite (in memory): sign-ups per second (each a new address, double opt-in, one
 * confirmation message), confirmations per second, and the time to refuse hostile sign-ups (10,000 fields, a
 * 2 MB value, a 2 MB value of tags), body parsing included.
 */
import { createCms, createMemoryOutbox, type Cms, type StoragePort } from '../../src/index.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';

const COUNT = Number(process.env.SIGNUPS ?? 1000);
const AGENT = 'Mozilla/5.0 (bench)';

async function site(storage: StoragePort) {
  const outbox = createMemoryOutbox();
  const cms = createCms({ storage, mailer: outbox, site: { url: 'http://bench.test', name: 'Bench' }, mailing: { secret: 'bench-secret-0123456789abcdef' } });
  const form = await cms.mailing.createSignupForm({ title: 'Bench', settings: { lists: ['bench01'], required_fields: 'FNAME' } });
  return { cms, outbox, formId: form.id };
}

function signup(cms: Cms, body: string) {
  return cms.handle({ method: 'POST', path: '/mailing/v1/form', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': AGENT }, body });
}

const hidden = (formId: number) => `_mc4wp_form_id=${formId}&_mc4wp_timestamp=${Math.floor(Date.now() / 1000) - 60}&_mc4wp_honeypot=`;

async function throughput(name: string, storage: StoragePort): Promise<void> {
  const { cms, outbox, formId } = await site(storage);
  let started = performance.now();
  for (let index = 0; index < COUNT; index++) {
    const response = await signup(cms, `${hidden(formId)}&EMAIL=reader${index}%40bench.test&FNAME=Reader${index}`);
    if (response.status !== 200) throw new Error(`sign-up ${index}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  const signupMs = performance.now() - started;
  started = performance.now();
  for (const message of outbox.messages) {
    const link = new URL(/http\S+\/confirm\?token=\S+/.exec(message.text)![0]);
    const response = await cms.handle({ method: 'GET', path: '/mailing/v1/confirm', query: link.search.slice(1) });
    if (response.status !== 200) throw new Error(`confirm: ${response.status}`);
  }
  const confirmMs = performance.now() - started;
  console.log(`${name.padEnd(7)} ${COUNT} sign-ups: ${(COUNT / (signupMs / 1000)).toFixed(0)}/s (${(signupMs / COUNT).toFixed(2)} ms each); `
    + `${outbox.messages.length} confirmations: ${(outbox.messages.length / (confirmMs / 1000)).toFixed(0)}/s`);
  await storage.close?.();
}

async function hostile(): Promise<void> {
  const { cms, formId } = await site(createMemoryStorage());
  const cases: [string, string][] = [
    ['10,000 fields', `${hidden(formId)}&EMAIL=a%40bench.test&${Array.from({ length: 10_000 }, (_, index) => `F${index}=v`).join('&')}`],
    ['2 MB value', `${hidden(formId)}&EMAIL=a%40bench.test&FNAME=${'x'.repeat(2 * 1024 * 1024)}`],
    ['2 MB of tags', `${hidden(formId)}&EMAIL=a%40bench.test&FNAME=${encodeURIComponent('<i>'.repeat(700_000))}`],
  ];
  for (const [label, body] of cases) {
    const started = performance.now();
    const response = await signup(cms, body);
    const elapsed = performance.now() - started;
    const code = (response.body as { code?: string }).code;
    console.log(`${label.padEnd(14)} ${response.status} ${code}: ${elapsed.toFixed(0)} ms`);
  }
}

await throughput('memory', createMemoryStorage());
await throughput('sqlite', sqliteStorage({ path: ':memory:' }));
await hostile();
