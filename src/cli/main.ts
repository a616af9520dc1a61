import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { baseUrlOf, toNodeListener, writeResponse } from '../../adapters/node.js';
import { createCms, createSmtpMailer, encodeResponse, ImageCodecUnavailableError, serveUpload, splitTarget, type BlobStore, type Cms } from '../index.js';
import { ensureAdministrator } from '../users/index.js';
import { parseCliArgs, UsageError, USAGE } from './args.js';
import { importFile, ImportError } from './import.js';
import { openStores, StoreSetupError, type OpenedStores } from './stores.js';
import { exportWxrFile, importWxrFile } from './wxr.js';

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

  let stores: OpenedStores;
  try {
    stores = await openStores(command.store, command.uploads, process.env, command.command === 'export' ? 'read' : 'write');
  } catch (error) {
    process.stderr.write(`quire: ${error instanceof StoreSetupError ? error.message : String(error)}\n`);
    process.exit(1);
  }
  let cms: Cms;
  try {
    cms = createCms({
      site: command.command === 'serve' ? { apiRoot: command.apiRoot } : { ...(command.siteUrl ? { url: command.siteUrl } : {}) },
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
      onError: (error) => process.stderr.write(`quire: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`),
    });
  } catch (error) {
    if (!(error instanceof ImageCodecUnavailableError)) throw error;
    process.stderr.write(`quire: ${error.message}\n`);
    process.exit(1);
  }
  if (command.command !== 'serve') {
    process.exitCode = command.command === 'import' ? await importWxrFile(cms, command) : await exportWxrFile(cms, command);
    await stores.close();
    return;
  }
  await announceAdministrator(cms, command.adminLogin, command.adminAppPassword);
  if (command.importFile !== undefined) await importBeforeServing(cms, command.importFile);
  const apiListener = toNodeListener(cms, command.trustProxy === undefined ? {} : { trustProxy: command.trustProxy });
  const server = createServer((req, res) => apiListener(req, res, () => void answerSiteRequest(cms, stores.blobs, req, res)));

  server.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`quire: ${describeListenError(error, command.host, command.port)}\n`);
    process.exit(1);
  });
  server.listen(command.port, command.host, () => {
    const { port } = server.address() as AddressInfo;
    const host = command.host.includes(':') ? `[${command.host}]` : command.host;
    process.stdout.write(`quire store: ${stores.description}\nquire listening: http://${host}:${port}${cms.apiRoot}/\n`);
  });
  process.once('SIGINT', () => shutDown(server, stores));
  process.once('SIGTERM', () => shutDown(server, stores));
}

/** The version in package.json, two folders up from both src/cli/ and dist/js/. */
async function packageVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

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
 * Outside the API: uploaded files under `/uploads/`; the site root points clients at the API with the discovery
 * `Link` header; the rest is 404.
 */
async function answerSiteRequest(cms: Cms, blobs: BlobStore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { pathname } = splitTarget(req.url ?? '/');
  if (pathname.startsWith(UPLOADS_PATH)) {
    const headers = { 'if-none-match': req.headers['if-none-match'] };
    const answer = await serveUpload(blobs, pathname.slice(UPLOADS_PATH.length - 1), { method: req.method ?? 'GET', headers });
    writeResponse(res, encodeResponse(answer));
    return;
  }
  const apiUrl = baseUrlOf(req, cms.apiRoot);
  const isSiteRoot = pathname === '/';
  const text = isSiteRoot ? `quire is running. The REST API is at ${apiUrl}/\n` : 'Not found.\n';
  writeResponse(res, {
    status: isSiteRoot ? 200 : 404,
    headers: { 'Content-Type': 'text/plain; charset=UTF-8', Link: cms.discoveryLink(apiUrl) },
    body: new TextEncoder().encode(text),
  });
}

function shutDown(server: Server, stores: OpenedStores): void {
  server.close(() => {
    stores.close().finally(() => process.exit(0));
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
