/**
 * Prints figures for the forms resource: scanning hostile templates, and feedback submissions handled in-process
 * (multipart with a file, validation failures, urlencoded bodies of 10,000 fields).
 * Run: node --import tsx test/bench/forms.ts
 */
import { performance } from 'node:perf_hooks';
import { createCms } from '../../src/cms.js';
import { scanTags } from '../../src/forms/tags/scan.js';
import { ANCHOR_FORM, BROWSER, multipart } from '../forms/fixtures.js';

function time(label: string, runs: number, work: () => unknown): void {
  const started = performance.now();
  for (let run = 0; run < runs; run++) work();
  const each = (performance.now() - started) / runs;
  console.log(`${label.padEnd(58)} ${each.toFixed(3).padStart(10)} ms`);
}

async function timeAsync(label: string, runs: number, work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  for (let run = 0; run < runs; run++) await work();
  const each = (performance.now() - started) / runs;
  console.log(`${label.padEnd(58)} ${each.toFixed(3).padStart(10)} ms   (${(1000 / each).toFixed(0)}/s)`);
}

time('scan the anchor template', 2000, () => scanTags(ANCHOR_FORM));
time('scan 1 MB of unclosed "[text " openings', 5, () => scanTags('[text '.repeat(175_000)));
time('scan 1 MB of unterminated quoted values', 5, () => scanTags('[text a "'.repeat(116_000)));
time('scan 1,000 tags', 20, () => scanTags('[text* name-x "v"] '.repeat(1000)));

const cms = createCms({ site: { url: 'http://example.test', adminEmail: 'admin@example.test' }, forms: { secret: 'bench' } });
const form = await cms.forms.create({ title: 'Bench', form: ANCHOR_FORM, additional_settings: 'skip_mail: on' });
const handle = (body: Uint8Array | string, contentType: string) => cms.handle({
  method: 'POST', path: `/forms/v1/contact-forms/${form.id}/feedback`, headers: { 'content-type': contentType, 'user-agent': BROWSER }, body,
});
const refill = (await cms.handle({ method: 'GET', path: `/forms/v1/contact-forms/${form.id}/refill` })).body as { quiz: Record<string, [string, string]> };
const fields = {
  _wpcf7_unit_tag: 'wpcf7-f1-o1', 'your-name': 'Ann', 'your-email': 'ann@example.org', 'your-topic': 'Sales', seats: '2',
  'your-message': 'A message long enough.', 'anchor-quiz': '5', '_wpcf7_quiz_answer_anchor-quiz': refill.quiz['anchor-quiz']![1], terms: '1',
};
const valid = multipart(fields, [{ name: 'attachment', filename: 'notes.txt', content: 'x'.repeat(50_000) }]);
const invalid = multipart({ _wpcf7_unit_tag: 'u' });
const wide = `_wpcf7_unit_tag=u&${Array.from({ length: 10_000 }, (_, index) => `f${index}=x`).join('&')}`;
await timeAsync('feedback: valid multipart with a 50 kB file (kept)', 200, () => handle(valid.body, valid.contentType));
await timeAsync('feedback: empty submission (validation_failed)', 500, () => handle(invalid.body, invalid.contentType));
await timeAsync('feedback: urlencoded, 10,000 fields', 50, () => handle(wide, 'application/x-www-form-urlencoded'));
console.log(`kept submissions: ${(await cms.forms.submissions(form.id)).total}`);
