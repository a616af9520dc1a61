/**
 * What the authoring app's browser tests share: quire with the app mounted (createCms behind the node adapter,
 * uploads served as `quire serve` does), the system Chromium driven by playwright-core, and the browser's log.
 * Without Chromium the tests are skipped, except under CI, where that is a failure.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { toNodeListener, writeResponse } from '../../adapters/node.js';
import { adminHandler } from '../../src/admin/index.js';
import { createCms, encodeResponse, ensureAdministrator, serveUpload, type Cms } from '../../src/index.js';
import { splitTarget } from '../../src/core/mount.js';

export const CHROMIUM = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';
export const OUTPUT_DIR = new URL('../../test-output/', import.meta.url);
export const ADMIN_PASSWORD = 'admin-app-password-0123';

/** Skip reason when Chromium is absent outside CI; under CI the absence fails the run. */
export function chromiumSkip(): string | false {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI) throw new Error(`Chromium is required for the browser tests under CI and is missing at ${CHROMIUM} (apt-get install chromium)`);
  return `no Chromium at ${CHROMIUM}`;
}

export interface Site {
  cms: Cms;
  server: Server;
  origin: string;
  adminUrl: string;
  /** A REST call as the given user (Basic), parsed. */
  api<T = any>(path: string, options?: { method?: string; body?: unknown; user?: [string, string] }): Promise<{ status: number; body: T }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

/** A host's own block, as a host would ship it: a plain script against the editor's `wp` globals. */
export const HOST_BLOCK_SCRIPT = `
const { createElement } = wp.element;
wp.blocks.registerBlockType('acme/notice', {
  apiVersion: 3, title: 'Acme notice', category: 'text', icon: 'warning',
  edit: () => createElement('p', wp.blockEditor.useBlockProps({ className: 'acme-notice' }), 'Acme notice'),
  save: () => createElement('p', wp.blockEditor.useBlockProps.save({ className: 'acme-notice' }), 'Acme notice'),
});
`;

export async function startSite(options: { autosaveInterval?: number; hostBlock?: boolean; names?: 'neutral' | 'wordpress' } = {}): Promise<Site> {
  const cms = createCms({ names: options.names ?? 'neutral' });
  await ensureAdministrator(cms, { login: 'admin', applicationPassword: ADMIN_PASSWORD });
  const api = toNodeListener(cms);
  const admin = await adminHandler({ apiRoot: cms.apiRoot, names: options.names ?? 'neutral', autosaveInterval: options.autosaveInterval ?? 60, scripts: options.hostBlock === false ? [] : ['/host/notice-block.js'] });
  const server = createServer((req, res) => {
    const { pathname } = splitTarget(req.url ?? '/');
    if (admin.matches(pathname)) return admin.node(req, res);
    if (pathname === '/host/notice-block.js') return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(HOST_BLOCK_SCRIPT);
    if (pathname.startsWith('/uploads/')) {
      void serveUpload(cms.deps.blobs, pathname.slice('/uploads'.length), { method: req.method ?? 'GET', headers: {} })
        .then((response) => writeResponse(res, encodeResponse(response)));
      return;
    }
    api(req, res);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    cms, server, origin, adminUrl: `${origin}/admin/`,
    async api(path, { method = 'GET', body, user = ['admin', ADMIN_PASSWORD] } = {}) {
      const response = await fetch(`${origin}${cms.apiRoot}${path}`, {
        method,
        headers: { Authorization: `Basic ${Buffer.from(user.join(':')).toString('base64')}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json() };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Creates a user with a role and an application password through the API; returns the credentials. */
export async function createUser(site: Site, login: string, role: string): Promise<[string, string]> {
  const created = await site.api('/cms/v2/users', { method: 'POST', body: { username: login, email: `${login}@example.test`, password: 'a long password 123', roles: [role] } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const password = await site.api(`/cms/v2/users/${created.body.id}/application-passwords`, { method: 'POST', body: { name: 'browser test' } });
  assert.equal(password.status, 201, JSON.stringify(password.body));
  return [login, password.body.password];
}

/** The browser's complaints: console errors, page errors, failed requests and error answers. */
export class BrowserLog {
  entries: string[] = [];

  watch(page: Page): void {
    page.on('console', (message) => { if (message.type() === 'error') this.entries.push(`console: ${message.text()}`); });
    page.on('pageerror', (error) => this.entries.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => this.entries.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
    page.on('response', (response) => { if (response.status() >= 400) this.entries.push(`status ${response.status()}: ${response.request().method()} ${response.url()}`); });
  }

  /** Asserts nothing went wrong beyond the expected entries (matched by pattern), then starts afresh. */
  assertClean(expected: RegExp[] = []): void {
    const unexpected = this.entries.filter((entry) => !expected.some((pattern) => pattern.test(entry)));
    this.entries = [];
    assert.deepEqual(unexpected, [], 'the browser logged no error');
  }
}

export async function launch(): Promise<{ browser: Browser; page: Page; log: BrowserLog }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(15_000);
  const log = new BrowserLog();
  log.watch(page);
  return { browser, page, log };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, OUTPUT_DIR).pathname, fullPage: true });
}

/** Signs in, signing out first (through the app's button) when someone is signed in. */
export async function signIn(page: Page, adminUrl: string, [login, password]: [string, string]): Promise<void> {
  if (!page.url().startsWith(adminUrl)) await page.goto(adminUrl);
  await page.waitForLoadState('networkidle');
  const signOut = page.getByRole('button', { name: 'Sign out' });
  if (await signOut.count()) {
    await signOut.click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  }
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Application password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
