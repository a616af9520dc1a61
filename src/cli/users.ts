/**
 * `quire users`: the store's users and their application passwords, from the command line. The way back in
 * when the administrator's application password is lost: `quire users app-password create --login admin`.
 */
import type { Cms } from '../index.js';
import type { UsersCommand } from './users-args.js';

interface Output { write(text: string): unknown }

/** Runs one action; resolves to the exit code. */
export async function runUsersCommand(cms: Cms, command: UsersCommand, out: Output, err: Output): Promise<number> {
  if (command.action === 'list') {
    const users = await cms.users.list();
    out.write(table(['ID', 'LOGIN', 'EMAIL', 'ROLES'], users.map((user) => [String(user.id), user.login, user.email, user.roles.join(',')])));
    return 0;
  }
  const user = await cms.users.find(command.login!);
  if (user === null) {
    err.write(`quire: there is no user '${command.login!}' (see quire users list)\n`);
    return 1;
  }
  if (command.action === 'app-password create') {
    const created = await cms.users.createApplicationPassword(user.id, { name: command.name });
    out.write(`quire application password for ${user.login} (${command.name}; shown once, keep it): ${created.password}\n`
      + `uuid: ${created.item.uuid}\n`);
    return 0;
  }
  if (command.action === 'app-password list') {
    const passwords = await cms.users.listApplicationPasswords(user.id);
    out.write(table(['UUID', 'NAME', 'CREATED', 'LAST USED'], passwords.map((password) => [
      password.uuid, password.name, password.created, password.lastUsed ?? '-',
    ])));
    return 0;
  }
  if (!(await cms.users.revokeApplicationPassword(user.id, command.uuid!))) {
    err.write(`quire: ${user.login} has no application password ${command.uuid!} (see quire users app-password list)\n`);
    return 1;
  }
  out.write(`quire: revoked application password ${command.uuid!} of ${user.login}\n`);
  return 0;
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `${cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()}\n`;
  return [head, ...rows].map(line).join('');
}
