/** Several `quire serve` processes sharing one store: starting together, uploading one name at once, quizzes. */
import assert from 'node:assert/strict';
import { serve } from './helpers.js';

export const PROCESSES = 3;
const ROUNDS = 4;
export const password = 'abcd efgh ijkl mnop qrst uvwx';
const authorization = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

export type Started = Awaited<ReturnType<typeof serve>>;

/** Starts servers at once; when one fails to start, the others are stopped before the failure is thrown. */
export async function startTogether(starts: (() => Promise<Started>)[]): Promise<Started[]> {
  const settled = await Promise.allSettled(starts.map((start) => start()));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) {
    for (const result of settled) if (result.status === 'fulfilled') result.value.child.kill('SIGTERM');
    throw failed.reason;
  }
  return settled.map((result) => (result as PromiseFulfilledResult<Started>).value);
}

export const alike = (args: string[], environment: Record<string, string> = {}) =>
  Array.from({ length: PROCESSES }, () => () => serve(args, environment));

export async function stopAll(processes: Started[]): Promise<void> {
  for (const { child } of processes) child.kill('SIGTERM');
  for (const { finished } of processes) assert.equal((await finished).code, 0);
}

async function upload(apiUrl: string, name: string, body: string): Promise<{ id: number; key: string }> {
  const response = await fetch(new URL('cms/v2/media', apiUrl), {
    method: 'POST',
    headers: { authorization, 'content-type': 'text/plain', 'content-disposition': `attachment; filename="${name}"` },
    body,
  });
  const answer = await response.json() as { id: number; media_details: unknown; source_url: string };
  assert.equal(response.status, 201, JSON.stringify(answer));
  return { id: answer.id, key: /\d{4}\/\d{2}\/[^/]+$/.exec(answer.source_url)![0] };
}

/** Uploads one name through every process at once, round after round; every upload must keep its own file. */
export async function uploadTheSameNameEverywhere(processes: Started[]): Promise<void> {
  const uploads: { id: number; key: string; body: string }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const batch = await Promise.all(processes.map(async ({ apiUrl }, index) => {
      const body = `round ${round} process ${index}`;
      return { ...(await upload(apiUrl, 'dup.txt', body)), body };
    }));
    uploads.push(...batch);
  }
  assert.equal(new Set(uploads.map((entry) => entry.key)).size, uploads.length, uploads.map((entry) => entry.key).join(' '));
  const reader = processes[0]!.apiUrl;
  for (const entry of uploads) {
    const served = await fetch(new URL(`/uploads/${entry.key}`, reader));
    assert.equal(await served.text(), entry.body, entry.key);
  }
  const [removed, kept] = uploads;
  const deleted = await fetch(new URL(`cms/v2/media/${removed!.id}?force=true`, processes[1]!.apiUrl), { method: 'DELETE', headers: { authorization } });
  assert.equal(deleted.status, 200);
  assert.equal((await fetch(new URL(`/uploads/${removed!.key}`, reader))).status, 404);
  assert.equal(await (await fetch(new URL(`/uploads/${kept!.key}`, reader))).text(), kept!.body);
}

/** A quiz handed out by one process is answered through another: they sign with the same site secret. */
export async function answerQuizElsewhere(issuing: string, answering: string): Promise<string> {
  const created = await fetch(new URL('forms/v1/contact-forms', issuing), {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Quiz', form: '[quiz sum "What is 2+3?|5"] [submit]', additional_settings: 'skip_mail: on' }),
  });
  assert.equal(created.status, 200);
  const { id } = await created.json() as { id: number };
  const refill = await (await fetch(new URL(`forms/v1/contact-forms/${id}/refill`, issuing))).json() as { quiz: Record<string, [string, string]> };
  const fields = new FormData();
  for (const [name, value] of Object.entries({ _wpcf7: String(id), _wpcf7_unit_tag: `wpcf7-f${id}-o1`, sum: '5', _wpcf7_quiz_answer_sum: refill.quiz.sum![1] })) {
    fields.append(name, value);
  }
  const answered = await fetch(new URL(`forms/v1/contact-forms/${id}/feedback`, answering), {
    method: 'POST', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' }, body: fields,
  });
  return ((await answered.json()) as { status: string }).status;
}
