import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { MIN_SITE_SECRET_LENGTH, siteSecretProblem } from '../auth/index.js';
import { compileTrustProxy, type TrustProxy } from '../core/client-address.js';
import type { NameScheme } from '../core/names.js';
import { adminPathOf } from './admin-args.js';
import { logChoiceOf, type LogChoice } from './log-args.js';
import { parseUsersArgs, type UsersCommand } from './users-args.js';
import { webhooksOf, type WebhookChoice } from './webhook-args.js';
import { workersOf } from './workers-args.js';

import { DEFAULT_ADMIN_LOGIN, DEFAULT_API_ROOT, DEFAULT_DATA_FILE, DEFAULT_HOST, DEFAULT_PORT, WORDPRESS_API_ROOT } from './defaults.js';

export type CliCommand =
  | { command: 'help' }
  | { command: 'version' }
  | {
    command: 'serve';
    port: number;
    host: string;
    apiRoot: string;
    /** The namespace names served: neutral (`cms/v2`…) or the reference's (`wp/v2`…). */
    names: NameScheme;
    adminLogin: string;
    adminAppPassword: string | undefined;
    /** Where the authoring app is served (`/admin`), or null with `--no-admin`. */
    adminPath: string | null;
    store: StoreChoice;
    /** Where uploaded files are kept: a folder, an S3 bucket, or memory (null, with `--storage memory`). */
    uploads: UploadsChoice | null;
    /** Public base URL of uploaded files, when they are served from elsewhere (a CDN, the bucket). */
    uploadsUrl: string | undefined;
    /** A JSON file of sliders and sign-up forms to store before serving. */
    importFile: string | undefined;
    /** Where form mail goes: an SMTP server address; mail stays in memory without one. */
    smtp: string | undefined;
    /** The image codec: image-js (default) or sharp. */
    imageCodec: 'image-js' | 'sharp' | undefined;
    /** Most MiB of encoded GET answers kept for reuse, or false for no response cache; default when absent. */
    responseCacheMiB: number | false | undefined;
    /** The site secret, when given; otherwise the one kept in the store. */
    secret: string | undefined;
    /** Which proxies in front may tell the client's address, scheme and host; none when absent. */
    trustProxy: TrustProxy | undefined;
    /** The site's public address (`--site-url`, `QUIRE_SITE_URL`): links, `Location`, discovery and embeds use it. */
    siteUrl: string | undefined;
    /** The request and error log: format and level. */
    log: LogChoice;
    /** How many server processes share the port (1: this process serves alone). */
    workers: number;
    /** Fixed webhook targets (`--webhook`, `QUIRE_WEBHOOK_SECRET`) and the first retry delay, when given. */
    webhooks: WebhookChoice | undefined;
  }
  | (UsersCommand & { store: StoreChoice })
  | (StoreCommand & {
    command: 'import';
    /** The WXR file to read. */
    file: string;
    fetchAttachments: boolean;
    authorRole: string | undefined;
  })
  | (StoreCommand & {
    command: 'export';
    /** Where to write the WXR file; standard output when absent. */
    output: string | undefined;
  });

/** What the import and export commands share with `serve`: the stores, and the site's public address. */
export interface StoreCommand {
  store: StoreChoice;
  uploads: UploadsChoice | null;
  uploadsUrl: string | undefined;
  /** The site's public address, for the links and file addresses a WXR file holds. */
  siteUrl: string | undefined;
}

export type UploadsChoice =
  | { kind: 'folder'; path: string }
  | { kind: 's3'; bucket: string; endpoint: string; region: string | undefined; keyPrefix: string | undefined };

export type StoreChoice =
  | { kind: 'sqlite'; path: string }
  | { kind: 'memory' }
  | { kind: 'postgres'; url: string };

/** A mistake in the command line: printed as one line, without a stack trace. */
export class UsageError extends Error {}


export function parseCliArgs(argv: readonly string[], environment: NodeJS.ProcessEnv = {}): CliCommand {
  if (argv[0] === 'users') return parseUsersArgs(argv.slice(1), storeOf, refuse);
  const { values, positionals } = parseOrExplain(argv);
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };
  const [command, ...extra] = positionals;
  if (command === undefined) throw new UsageError('missing command (try "quire serve")');

  if (command === 'import' || command === 'export') return wxrCommandOf(command, values, extra);
  if (command !== 'serve') throw new UsageError(`unknown command '${command}'`);
  if (extra[0] !== undefined) throw new UsageError(`unexpected argument '${extra[0]}'`);
  onlyOptionsOf('serve', values, SERVE_OPTIONS);
  const log = logChoiceOf(values['log-format'], values['log-level'], values.quiet === true, refuse);
  const stores = storeOf(values);
  return {
    command: 'serve',
    port: portOf(values.port),
    host: hostOf(values.host),
    apiRoot: apiRootOf(values['api-root'], namesOf(values.names)),
    names: namesOf(values.names),
    adminLogin: adminLoginOf(values['admin-login']),
    adminAppPassword: adminAppPasswordOf(values['admin-app-password'] ?? (environment.QUIRE_ADMIN_APP_PASSWORD || undefined)),
    adminPath: adminPathOf(values['admin-path'], values['no-admin'], apiRootOf(values['api-root'], namesOf(values.names)), refuse),
    ...stores,
    uploadsUrl: uploadsUrlOf(values['uploads-url']),
    importFile: values.import,
    smtp: smtpOf(values.smtp),
    imageCodec: imageCodecOf(values['image-codec']),
    responseCacheMiB: responseCacheOf(values['response-cache']),
    secret: secretOf(values.secret ?? (environment.QUIRE_SECRET || undefined)),
    trustProxy: trustProxyOf(values['trust-proxy']),
    siteUrl: siteUrlOf(values['site-url'] ?? (environment.QUIRE_SITE_URL || undefined)),
    log,
    workers: workersOf(values.workers, stores.store.kind === 'memory', refuse),
    webhooks: webhooksOf(values.webhook, environment, refuse),
  };
}

function parseOrExplain(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        'api-root': { type: 'string' },
        names: { type: 'string' },
        'admin-login': { type: 'string' },
        'admin-app-password': { type: 'string' },
        'admin-path': { type: 'string' },
        'no-admin': { type: 'boolean' },
        secret: { type: 'string' },
        data: { type: 'string' },
        storage: { type: 'string' },
        postgres: { type: 'string' },
        uploads: { type: 'string' },
        blobs: { type: 'string' },
        'uploads-url': { type: 'string' },
        import: { type: 'string' },
        smtp: { type: 'string' },
        'image-codec': { type: 'string' },
        'response-cache': { type: 'string' },
        'trust-proxy': { type: 'string' },
        'site-url': { type: 'string' },
        'fetch-attachments': { type: 'boolean' },
        'author-role': { type: 'string' },
        output: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        'log-format': { type: 'string' },
        'log-level': { type: 'string' },
        quiet: { type: 'boolean' },
        workers: { type: 'string' },
        webhook: { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    // Node's messages go on to suggest `--` quoting; the first sentence is the useful part.
    const message = error instanceof Error ? error.message.split(/\.\s/)[0]!.replace(/\.$/, '') : String(error);
    throw new UsageError(message.charAt(0).toLowerCase() + message.slice(1));
  }
}

type ParsedValues = ReturnType<typeof parseOrExplain>['values'];

const STORE_OPTIONS = ['data', 'storage', 'postgres', 'uploads', 'blobs', 'uploads-url', 'help'];
const SERVE_OPTIONS = [...STORE_OPTIONS, 'port', 'host', 'api-root', 'admin-login', 'admin-app-password', 'import', 'smtp', 'names', 'image-codec', 'response-cache', 'secret', 'trust-proxy', 'site-url', 'log-format', 'log-level', 'quiet', 'workers', 'webhook', 'admin-path', 'no-admin'];
const IMPORT_OPTIONS = [...STORE_OPTIONS, 'site-url', 'fetch-attachments', 'author-role'];
const EXPORT_OPTIONS = [...STORE_OPTIONS, 'site-url', 'output'];

/** Options of other commands are mistakes, not silently ignored. */
function onlyOptionsOf(command: string, values: ParsedValues, allowed: readonly string[]): void {
  const stray = Object.keys(values).find((name) => !allowed.includes(name));
  if (stray !== undefined) throw new UsageError(`--${stray} is not an option of 'quire ${command}'`);
}

function wxrCommandOf(command: 'import' | 'export', values: ParsedValues, extra: string[]): CliCommand {
  onlyOptionsOf(command, values, command === 'import' ? IMPORT_OPTIONS : EXPORT_OPTIONS);
  const stores: StoreCommand = { ...storeOf(values), uploadsUrl: uploadsUrlOf(values['uploads-url']), siteUrl: siteUrlOf(values['site-url']) };
  if (command === 'export') {
    if (extra[0] !== undefined) throw new UsageError(`unexpected argument '${extra[0]}' (use --output to name a file)`);
    if (values.output !== undefined && values.output.trim() === '') throw new UsageError('--output must name a file');
    return { command, ...stores, output: values.output };
  }
  const [file, more] = extra;
  if (file === undefined) throw new UsageError("missing the WXR file to import (quire import site.xml)");
  if (more !== undefined) throw new UsageError(`unexpected argument '${more}'`);
  const authorRole = values['author-role'];
  if (authorRole !== undefined && !/^[a-z0-9_-]{1,64}$/i.test(authorRole)) throw new UsageError(`--author-role must be a role slug, not '${authorRole}'`);
  return { command, ...stores, file, fetchAttachments: values['fetch-attachments'] === true, authorRole };
}

const refuse = (message: string): never => {
  throw new UsageError(message);
};

function siteUrlOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^https?:\/\/[^/]/.test(value)) throw new UsageError(`--site-url must be an http(s) URL, not '${value}'`);
  return value.replace(/\/+$/, '');
}

function trustProxyOf(value: string | undefined): TrustProxy | undefined {
  if (value === undefined) return undefined;
  const setting = /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  try {
    compileTrustProxy(setting);
  } catch (error) {
    const reason = (error as Error).message.replace(/^trustProxy: /, '').replace(/ \(expected .*\)$/, '');
    throw new UsageError(`--trust-proxy must be a hop count or proxy addresses and ranges (${reason})`);
  }
  if (setting === '' || (typeof setting === 'string' && setting.split(',').every((entry) => entry.trim() === ''))) {
    throw new UsageError('--trust-proxy must be a hop count or proxy addresses and ranges, not empty');
  }
  return setting;
}

function portOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port <= 65535)) throw new UsageError(`--port must be a whole number from 0 to 65535, not '${value}'`);
  return port;
}

function hostOf(value: string | undefined): string {
  if (value === undefined) return DEFAULT_HOST;
  if (!/^[\w.:-]+$/.test(value)) throw new UsageError(`--host must be an address or host name, not '${value}'`);
  return value;
}

function namesOf(value: string | undefined): NameScheme {
  if (value === undefined || value === 'neutral') return 'neutral';
  if (value === 'wordpress') return 'wordpress';
  throw new UsageError(`--names must be neutral or wordpress, not '${value}'`);
}

function apiRootOf(value: string | undefined, names: NameScheme): string {
  if (value === undefined) return names === 'wordpress' ? WORDPRESS_API_ROOT : DEFAULT_API_ROOT;
  if (!/^\/?[\w.~-]+(\/[\w.~-]+)*\/?$|^\/$/.test(value)) {
    throw new UsageError(`--api-root must be a path such as /cms-json, not '${value}'`);
  }
  return value;
}

function adminLoginOf(value: string | undefined): string {
  if (value === undefined) return DEFAULT_ADMIN_LOGIN;
  if (!/^[\w .@-]{1,60}$/.test(value) || value.trim() === '') {
    throw new UsageError(`--admin-login must be 1 to 60 letters, digits, spaces or . _ @ -, not '${value}'`);
  }
  return value;
}

/** Application passwords ignore everything but letters and digits; at least 8 of those make a usable one. */
function adminAppPasswordOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.replace(/[^A-Za-z0-9]/g, '').length < 8) {
    throw new UsageError('--admin-app-password needs at least 8 letters or digits');
  }
  return value;
}

function secretOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (siteSecretProblem(value) !== null) throw new UsageError(`--secret needs at least ${MIN_SITE_SECRET_LENGTH} characters`);
  return value;
}

interface StoreFlags { data?: string | undefined; storage?: string | undefined; postgres?: string | undefined; uploads?: string | undefined; blobs?: string | undefined }

function storeOf(values: StoreFlags): { store: StoreChoice; uploads: UploadsChoice | null } {
  const { store, uploadsFolder } = contentStoreOf(values);
  if (values.blobs === undefined) return { store, uploads: uploadsFolder === null ? null : { kind: 'folder', path: uploadsFolder } };
  if (values.uploads !== undefined) throw new UsageError('--blobs cannot be combined with --uploads');
  return { store, uploads: bucketOf(values.blobs) };
}

function bucketOf(value: string): UploadsChoice {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  const endpoint = url?.searchParams.get('endpoint') ?? '';
  if (!url || url.protocol !== 's3:' || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname) || !/^https?:\/\/[^/]/.test(endpoint)) {
    throw new UsageError(`--blobs must be a URL such as s3://bucket?endpoint=https://s3.example.com, not '${value}'`);
  }
  return {
    kind: 's3',
    bucket: url.hostname,
    endpoint,
    region: url.searchParams.get('region') ?? undefined,
    keyPrefix: url.searchParams.get('prefix') ?? undefined,
  };
}

function smtpOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new UsageError('--smtp must be a URL such as smtp://user:password@mail.example.com:587');
  }
  return value;
}

function imageCodecOf(value: string | undefined): 'image-js' | 'sharp' | undefined {
  if (value === undefined) return undefined;
  if (value !== 'image-js' && value !== 'sharp') throw new UsageError(`--image-codec must be image-js or sharp, not '${value}'`);
  return value;
}

const MAX_RESPONSE_CACHE_MIB = 65_536;

function responseCacheOf(value: string | undefined): number | false | undefined {
  if (value === undefined) return undefined;
  if (value === 'off') return false;
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > MAX_RESPONSE_CACHE_MIB) {
    throw new UsageError(`--response-cache must be a size in MiB from 1 to ${MAX_RESPONSE_CACHE_MIB}, or off, not '${value}'`);
  }
  return Number(value);
}

function uploadsUrlOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^https?:\/\/[^/]/.test(value)) throw new UsageError(`--uploads-url must be an http(s) URL, not '${value}'`);
  return value.replace(/\/+$/, '');
}

function contentStoreOf(values: StoreFlags): { store: StoreChoice; uploadsFolder: string | null } {
  const kind = values.storage ?? (values.postgres !== undefined ? 'postgres' : 'sqlite');
  if (kind !== 'sqlite' && kind !== 'memory' && kind !== 'postgres') {
    throw new UsageError(`--storage must be sqlite or memory, not '${kind}'`);
  }
  if (kind === 'postgres' || values.postgres !== undefined) {
    if (values.storage !== undefined && values.storage !== 'postgres') throw new UsageError('--postgres cannot be combined with --storage');
    if (values.data !== undefined) throw new UsageError('--postgres cannot be combined with --data');
    if (!/^postgres(ql)?:\/\//.test(values.postgres ?? '')) {
      throw new UsageError(`--postgres must be a URL such as postgres://user:password@host/database, not '${values.postgres ?? ''}'`);
    }
    return { store: { kind: 'postgres', url: values.postgres! }, uploadsFolder: values.uploads ?? './uploads' };
  }
  if (kind === 'memory') {
    if (values.data !== undefined) throw new UsageError('--data cannot be combined with --storage memory');
    return { store: { kind: 'memory' }, uploadsFolder: values.uploads ?? null };
  }
  const path = values.data ?? DEFAULT_DATA_FILE;
  if (path.trim() === '') throw new UsageError('--data must name a file');
  return { store: { kind: 'sqlite', path }, uploadsFolder: values.uploads ?? join(dirname(path), 'uploads') };
}
