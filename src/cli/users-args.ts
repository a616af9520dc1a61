/** The command line of `quire users`: its actions and their options. */
import { parseArgs } from 'node:util';
import type { Refuse } from './log-args.js';

export type UsersAction = 'list' | 'app-password create' | 'app-password list' | 'app-password revoke';

export interface UsersCommand {
  command: 'users';
  action: UsersAction;
  /** The user whose application passwords are meant (login or email address). */
  login: string | undefined;
  /** The application name of a password to create. */
  name: string;
  /** The password to revoke. */
  uuid: string | undefined;
  /** Users need no uploaded files: nothing is opened for them. */
  uploads: null;
  uploadsUrl: undefined;
  siteUrl: undefined;
}

export const DEFAULT_APPLICATION_NAME = 'quire users';

/** `argv` after `users`; `storeOf` reads the store options as every command does. */
export function parseUsersArgs<Store>(
  argv: readonly string[], storeOf: (values: Record<string, string | undefined>) => { store: Store }, refuse: Refuse,
): (UsersCommand & { store: Store }) | { command: 'help' } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        login: { type: 'string' }, name: { type: 'string' }, uuid: { type: 'string' },
        data: { type: 'string' }, storage: { type: 'string' }, postgres: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return refuse(String(error instanceof Error ? error.message : error).split(/\.\s/)[0]!.replace(/\.$/, ''));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  const action = positionals.join(' ');
  if (action !== 'list' && action !== 'app-password create' && action !== 'app-password list' && action !== 'app-password revoke') {
    return refuse(`unknown users action '${action}' (list, app-password create, app-password list, app-password revoke)`);
  }
  if (action === 'list' && (values.login ?? values.name ?? values.uuid) !== undefined) refuse("'quire users list' takes only store options");
  if (action !== 'list' && (values.login === undefined || values.login.trim() === '')) refuse(`'quire users ${action}' needs --login <login>`);
  if (values.name !== undefined && action !== 'app-password create') refuse('--name is an option of app-password create only');
  if (values.name !== undefined && (values.name.trim() === '' || values.name.length > 100)) refuse('--name must be 1 to 100 characters');
  if (action === 'app-password revoke' && !/^[0-9a-f-]{36}$/i.test(values.uuid ?? '')) refuse('app-password revoke needs --uuid <uuid> (see app-password list)');
  if (values.uuid !== undefined && action !== 'app-password revoke') refuse('--uuid is an option of app-password revoke only');
  return {
    command: 'users',
    action,
    login: values.login,
    name: values.name ?? DEFAULT_APPLICATION_NAME,
    uuid: values.uuid,
    store: storeOf({ data: values.data, storage: values.storage, postgres: values.postgres }).store,
    uploads: null,
    uploadsUrl: undefined,
    siteUrl: undefined,
  };
}
