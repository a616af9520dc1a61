import { parseArgs } from 'node:util';

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_API_ROOT = '/cms-json';
export const DEFAULT_ADMIN_LOGIN = 'admin';

export type CliCommand =
  | { command: 'help' }
  | { command: 'serve'; port: number; host: string; apiRoot: string; adminLogin: string; adminAppPassword: string | undefined };

/** A mistake in the command line: printed as one line, without a stack trace. */
export class UsageError extends Error {}

export const USAGE = `Usage: quire serve [options]

Serves the quire REST interface over HTTP. Content is kept in memory.

Options:
  -p, --port <n>         port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
      --host <address>   address to listen on (default ${DEFAULT_HOST}; 0.0.0.0 for every interface)
      --api-root <path>  path of the API root (default ${DEFAULT_API_ROOT})
      --admin-login <login>
                         login of the first administrator, created on a new store (default ${DEFAULT_ADMIN_LOGIN})
      --admin-app-password <password>
                         make this the administrator's application password instead of a fresh
                         one (also read from QUIRE_ADMIN_APP_PASSWORD)
  -h, --help             show this help
`;

export function parseCliArgs(argv: readonly string[], environment: NodeJS.ProcessEnv = {}): CliCommand {
  const { values, positionals } = parseOrExplain(argv);
  if (values.help) return { command: 'help' };
  const [command, ...extra] = positionals;
  if (command === undefined) throw new UsageError('missing command (try "quire serve")');
  if (command !== 'serve') throw new UsageError(`unknown command '${command}'`);
  if (extra[0] !== undefined) throw new UsageError(`unexpected argument '${extra[0]}'`);
  return {
    command: 'serve',
    port: portOf(values.port),
    host: hostOf(values.host),
    apiRoot: apiRootOf(values['api-root']),
    adminLogin: adminLoginOf(values['admin-login']),
    adminAppPassword: adminAppPasswordOf(values['admin-app-password'] ?? (environment.QUIRE_ADMIN_APP_PASSWORD || undefined)),
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
        'admin-login': { type: 'string' },
        'admin-app-password': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // Node's messages go on to suggest `--` quoting; the first sentence is the useful part.
    const message = error instanceof Error ? error.message.split(/\.\s/)[0]!.replace(/\.$/, '') : String(error);
    throw new UsageError(message.charAt(0).toLowerCase() + message.slice(1));
  }
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

function apiRootOf(value: string | undefined): string {
  if (value === undefined) return DEFAULT_API_ROOT;
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
