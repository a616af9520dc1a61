/**
 * The authoring app's weight and speed: the size of its script and stylesheet (raw and gzip), the time from
 * navigation to an editable block canvas in headless Chromium (cold: a fresh browser context, nothing cached;
 * warm: the same context again), and the requests a cold first load makes.
 *
 *   npm run bench:admin
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ADMIN_PASSWORD, CHROMIUM, startSite } from '../admin/browser-harness.js';

const RUNS = 5;
const assetsDir = new URL('../../dist/admin/assets/', import.meta.url);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

for (const extension of ['.js', '.css']) {
  const files = readdirSync(assetsDir).filter((name) => name.endsWith(extension));
  const bytes = files.map((name) => readFileSync(new URL(name, assetsDir)));
  const raw = bytes.reduce((sum, file) => sum + file.byteLength, 0);
  const gzip = bytes.reduce((sum, file) => sum + gzipSync(file, { level: 9 }).byteLength, 0);
  console.log(`${extension.slice(1).toUpperCase().padEnd(4)} ${files.length} file(s): ${kib(raw)} raw, ${kib(gzip)} gzip -9`);
}

const site = await startSite({ hostBlock: false });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
const credentials = Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timeToCanvas(context: Awaited<ReturnType<typeof browser.newContext>>, requests?: string[]): Promise<number> {
  const page = await context.newPage();
  if (requests) page.on('request', (request) => requests.push(`${request.method()} ${request.url().replace(site.origin, '')}`));
  const started = performance.now();
  await page.goto(`${site.adminUrl}#/new/post`);
  await page.locator('.block-editor-rich-text__editable[contenteditable="true"]').first().waitFor();
  const elapsed = performance.now() - started;
  await page.close();
  return elapsed;
}

const cold: number[] = [];
const warm: number[] = [];
let firstLoad: string[] = [];
for (let run = 0; run < RUNS; run += 1) {
  const context = await browser.newContext();
  await context.addInitScript((value) => sessionStorage.setItem('quire-admin-credentials', value), credentials);
  const requests: string[] = [];
  cold.push(await timeToCanvas(context, requests));
  if (run === 0) firstLoad = requests;
  warm.push(await timeToCanvas(context));
  await context.close();
}
console.log(`navigation to an editable canvas: cold median ${median(cold).toFixed(0)} ms (${cold.map((ms) => ms.toFixed(0)).join(', ')}), warm median ${median(warm).toFixed(0)} ms`);
console.log(`requests on a cold first load: ${firstLoad.length}`);
for (const request of firstLoad) console.log(`  ${request}`);
await browser.close();
await site.close();
