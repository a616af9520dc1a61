import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeTarget, toNodeListener, writeResponse } from '../../adapters/node.js';
import { createCms, createSmtpMailer, encodeResponse, ImageCodecUnavailableError, serveUpload, type BlobStore, type Cms, type WebhookOptions } from '../index.js';
import { splitTarget } from '../core/mount.js';
import { ensureAdministrator } from '../users/index.js';
import type { TrustProxy } from '../core/client-address.js';
import type { NameScheme } from '../core/names.js';
import { adminHandler, type AdminHandler } from '../admin/index.js';
import { parseCliArgs, UsageError, type CliCommand } from './args.js';
import type { WebhookChoice } from './webhook-args.js';
import { USAGE } from './usage.js';
import { clientAddressOf, loggedPath } from '../core/request-log.js';
import { createLogger, logError, logRequest, type Logger } from './log.js';
import { runUsersCommand } from './users.js';
import { importFile, ImportError } from './import.js';
import { openStores, StoreSetupError, type OpenedStores } from './stores.js';
import { exportWxrFile, importWxrFile } from './wxr.js';
import { isFirstWorker, isServerWorker, reportListening, reportStopSignal, runPrimary } from './workers.js';

const SHUTDOWN_GRACE_MS = 5000;
/** Where the standalone server serves uploaded files; the media module's default uploads address. */
const UPLOADS_PATH = '/uploads/';

async function main(argv: readonly string[]): Promise<void> {
  let command;
  try {
    command = parseCliArgs(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`quire: ${error.message}\nRun 'quire --help' for usage.\n`);
    process.exit(2);
  }
  if (command.command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command.command === 'version') {
    process.stdout.write(`${await packageVersion()}\n`);
    return;
  }

  const workers = command.command === 'serve' ? command.workers : 1;
  if (command.command === 'serve' && workers > 1 && !isServerWorker()) return runPrimary(command);

  let stores: OpenedStores;
  try {
    const access = command.command === 'export' ? 'read' : command.command === 'users' ? 'existing' : 'write';
    stores = await openStores(command.store, command.uploads, process.env, access, workers > 1);
  } catch (error) {
    process.stderr.write(`quire: ${error instanceof StoreSetupError ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const logger = command.command === 'serve' ? createLogger(command.log) : null;
  let cms: Cms;
  try {
    cms = createCms({
      site: { ...(command.command === 'serve' ? { apiRoot: command.apiRoot } : {}), ...(command.siteUrl ? { url: command.siteUrl } : {}) },
      ...(command.command === 'serve' ? { names: command.names } : {}),
      ...(command.command === 'serve' && command.secret !== undefined ? { secret: command.secret } : {}),
      storage: stores.storage,
      blobs: stores.blobs,
      ...(stores.throttleStore ? { throttle: { store: stores.throttleStore } } : {}),
      ...(command.uploadsUrl ? { uploads: { baseUrl: command.uploadsUrl } } : {}),
      ...(command.command === 'serve' && command.smtp ? { mailer: createSmtpMailer(command.smtp) } : {}),
      ...(command.command === 'serve' && command.imageCodec ? { images: { codec: command.imageCodec } } : {}),
      ...(command.command === 'serve' && command.responseCacheMiB !== undefined
        ? { responseCache: command.responseCacheMiB === false ? false : { maxBytes: command.responseCacheMiB * 1024 * 1024 } }
        : {}),
      onError: logger
        ? (error) => logError(logger, error)
        : (error) => process.stderr.write(`quire: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`),
      ...(logger ? { onRequest: (entry) => logRequest(logger, entry) } : {}),
      ...(command.command === 'serve' ? { webhooks: webhookOptionsOf(command.webhooks) } : {}),
    });
  } catch (error) {
    if (!(error instanceof ImageCodecUnavailableError)) throw error;
    process.stderr.write(`quire: ${error.message}\n`);
    process.exit(1);
  }
  if (command.command !== 'serve') {
    process.exitCode = await runStoreCommand(cms, command);
    await stores.close();
    return;
  }
  if (command.importFile !== undefined && (workers === 1 || isFirstWorker())) await importBeforeServing(cms, command.importFile);
  const apiListener = toNodeListener(cms, command.trustProxy === undefined ? {} : { trustProxy: command.trustProxy });
  const site: SiteOptions = { blobs: stores.blobs, logger: logger!, siteUrl: command.siteUrl, trustProxy: command.trustProxy };
  const admin = command.adminPath === null ? null : await openAdmin(cms, command.adminPath, command.names);
  const server = createServer((req, res) => {
    if (isHealthCheck(req.url)) void answerSiteRequest(cms, site, req, res);
    else if (admin?.matches(splitTarget(req.url ?? '/').pathname)) admin.node(req, res);
    else apiListener(req, res, () => void answerSiteRequest(cms, site, req, res));
  });

  server.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`quire: ${describeListenError(error, command.host, command.port)}\n`);
    process.exit(1);
  });
  server.listen(command.port, command.host, () => {
    const { port } = server.address() as AddressInfo;
    const host = command.host.includes(':') ? `[${command.host}]` : command.host;
    const url = `http://${host}:${port}${cms.apiRoot}/`;
    if (workers > 1) return reportListening(url, stores.description, () => announceAdministrator(cms, command.adminLogin, command.adminAppPassword));
    // Only now that the port is ours: a start that fails to listen creates no administrator whose password is lost.
    // The server is announced once the administrator exists, so its credentials work from that line on.
    void announceAdministrator(cms, command.adminLogin, command.adminAppPassword).then(() => {
      const adminLine = admin ? `quire admin: http://${host}:${port}${admin.basePath}/\n` : '';
      process.stdout.write(`quire store: ${stores.description}\nquire listening: ${url}\n${adminLine}`);
    });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      reportStopSignal(signal);
      shutDown(server, stores, cms);
    });
  }
}

/** The authoring app for this server's API; without its prebuilt files (a source checkout not built) none, said once. */
async function openAdmin(cms: Cms, basePath: string, names: NameScheme): Promise<AdminHandler | null> {
  try {
    return await adminHandler({ apiRoot: cms.apiRoot, names, basePath });
  } catch (error) {
    process.stderr.write(`quire: the authoring app is not served: ${error instanceof Error ? error.message : String(error)}\n`);
    return null;
  }
}

/** The version in package.json, two folders up from both src/cli/ and dist/js/. */
async function packageVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

async function runStoreCommand(cms: Cms, command: Exclude<CliCommand, { command: 'help' | 'version' | 'serve' }>): Promise<number> {
  if (command.command === 'users') {
    try {
      return await runUsersCommand(cms, command, process.stdout, process.stderr);
    } catch (error) {
      process.stderr.write(`quire: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  }
  return command.command === 'import' ? importWxrFile(cms, command) : exportWxrFile(cms, command);
}

/** Where the standalone server answers health checks, outside the API root. */
const HEALTH_PATH = '/health';
const isHealthCheck = (url: string | undefined): boolean => url === HEALTH_PATH || url?.startsWith(`${HEALTH_PATH}?`) === true;

/** Creates the first administrator on a new store and prints its credentials once. */
async function announceAdministrator(cms: Cms, login: string, applicationPassword: string | undefined): Promise<void> {
  try {
    const setup = await ensureAdministrator(cms, { login, ...(applicationPassword ? { applicationPassword } : {}) });
    if (setup.applicationPassword) {
      const source = applicationPassword ? 'as given' : 'shown once; keep it';
      process.stdout.write(`quire administrator: ${setup.user.login}\nquire application password (${source}): ${setup.applicationPassword}\n`);
    }
  } catch (error) {
    process.stderr.write(`quire: cannot set up the administrator: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

async function importBeforeServing(cms: Cms, path: string): Promise<void> {
  try {
    const done = await importFile(cms, path);
    process.stdout.write(`quire import: ${done.slidersCreated} sliders created, ${done.slidersUpdated} updated; `
      + `${done.formsCreated} sign-up forms created, ${done.formsUpdated} updated\n`);
  } catch (error) {
    process.stderr.write(`quire: ${error instanceof ImportError ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/**
 * Outside the API: the health check at `/health`, uploaded files under `/uploads/`; the site root points clients
 * at the API with the discovery `Link` header; the rest is 404. Each answer goes to the request log.
 */
async function answerSiteRequest(cms: Cms, site: SiteOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { logger } = site;
  const started = performance.now();
  const time = Date.now();
  const { pathname, query } = splitTarget(req.url ?? '/');
  const target = nodeTarget(req, cms.apiRoot, site.trustProxy);
  const request = { method: req.method ?? 'GET', path: pathname, query, ...(target.remoteAddress ? { remoteAddress: target.remoteAddress } : {}) };
  let encoded;
  try {
    encoded = encodeResponse(await siteAnswer(cms, site, req, pathname, target.baseUrl));
  } catch (error) {
    logError(logger, error);
    encoded = { status: 500, headers: { 'Content-Type': 'text/plain; charset=UTF-8' }, body: new TextEncoder().encode('Internal error.\n') };
  }
  writeResponse(res, encoded);
  logRequest(logger, {
    time, method: request.method, path: loggedPath('', request), status: encoded.status, bytes: encoded.body?.byteLength ?? 0,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000, clientAddress: clientAddressOf(request), userId: null,
  }, pathname === HEALTH_PATH);
}

/** What the pages outside the API need: where files are, the log, the public address and which proxies to believe. */
interface SiteOptions {
  blobs: BlobStore;
  logger: Logger;
  siteUrl: string | undefined;
  trustProxy: TrustProxy | undefined;
}

async function siteAnswer(cms: Cms, site: SiteOptions, req: IncomingMessage, pathname: string, requestApiUrl: string) {
  if (pathname === HEALTH_PATH) return cms.healthResponse();
  if (pathname.startsWith(UPLOADS_PATH)) {
    const headers = { 'if-none-match': req.headers['if-none-match'] };
    return serveUpload(site.blobs, pathname.slice(UPLOADS_PATH.length - 1), { method: req.method ?? 'GET', headers });
  }
  const apiUrl = site.siteUrl === undefined ? requestApiUrl : `${site.siteUrl}${cms.apiRoot}`;
  const isSiteRoot = pathname === '/';
  const text = isSiteRoot ? `quire is running. The REST API is at ${apiUrl}/\n` : 'Not found.\n';
  return {
    status: isSiteRoot ? 200 : 404,
    headers: { 'Content-Type': 'text/plain; charset=UTF-8', Link: cms.discoveryLink(apiUrl) },
    body: text,
  };
}

/** A server sends webhooks, the fixed targets' included, and what earlier processes left behind. */
function webhookOptionsOf(choice: WebhookChoice | undefined): WebhookOptions {
  return {
    start: true,
    ...(choice && choice.targets.length > 0 ? { targets: choice.targets, secret: choice.secret } : {}),
    ...(choice?.retryBaseMs !== undefined ? { retry: { baseDelayMs: choice.retryBaseMs } } : {}),
    ...(choice?.timeoutMs !== undefined ? { timeoutMs: choice.timeoutMs } : {}),
  };
}

function shutDown(server: Server, stores: OpenedStores, cms: Cms): void {
  server.close(() => {
    cms.webhooks.stop().finally(() => stores.close()).finally(() => process.exit(0));
  });
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
}

function describeListenError(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case 'EADDRINUSE': return `port ${port} on ${host} is already in use (choose another with --port)`;
    case 'EACCES': return `not allowed to listen on ${host}:${port} (ports below 1024 usually need privileges)`;
    case 'EADDRNOTAVAIL': return `${host} is not an address of this machine`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `cannot resolve host '${host}'`;
    default: return `cannot listen on ${host}:${port}: ${error.message}`;
  }
}

void main(process.argv.slice(2));
