import type { Services } from '../../core/context.js';
import { allowAnyone, CREATABLE, DELETABLE, EDITABLE, READABLE, type Registry } from '../../core/registry.js';
import { restPostTypes } from '../posts.js';
import {
  canCreatePassword,
  canDeletePassword,
  canDeletePasswords,
  canEditPassword,
  canIntrospect,
  canListPasswords,
  canReadPassword,
  createPassword,
  deletePassword,
  deletePasswords,
  introspect,
  listPasswords,
  readPassword,
  renamePassword,
} from './application-passwords.js';
import { applicationPasswordWriteArgs, contextArg, userCollectionArgs, userDeleteArgs, userIdArg, userWriteArgs } from './args.js';
import { applicationPasswordSchema, userSchema } from './schema.js';
import { canListUsers, canReadUser, listUsers, readCurrentUser, readUser } from './users-read.js';
import {
  canCreateUser,
  canDeleteUser,
  canUpdateUser,
  createUserHandler,
  deleteUserHandler,
  updateUserHandler,
} from './users-write.js';

const NAMESPACE = 'cms/v2';

/** The users routes and the application-password routes, in the reference's order. */
export function registerUserRoutes(registry: Registry, services: Services): void {
  const schema = { schema: userSchema, cache: true };
  registry.add(NAMESPACE, '/users', [
    { methods: READABLE, args: userCollectionArgs(restPostTypes(services.capabilityRules)), permission: canListUsers, handler: listUsers },
    { methods: CREATABLE, args: userWriteArgs(true), permission: canCreateUser, handler: createUserHandler },
  ], schema);

  registry.add(NAMESPACE, '/users/(?P<id>[\\d]+)', [
    { methods: READABLE, args: { id: userIdArg(), context: contextArg() }, permission: canReadUser, handler: readUser },
    { methods: EDITABLE, args: { id: userIdArg(), ...userWriteArgs(false) }, permission: canUpdateUser, handler: updateUserHandler },
    { methods: DELETABLE, args: { id: userIdArg(), ...userDeleteArgs() }, permission: canDeleteUser, handler: deleteUserHandler },
  ], schema);

  registry.add(NAMESPACE, '/users/me', [
    { methods: READABLE, args: { context: contextArg() }, permission: allowAnyone, handler: readCurrentUser },
    { methods: EDITABLE, args: userWriteArgs(false), permission: canUpdateUser, handler: updateUserHandler },
    { methods: DELETABLE, args: userDeleteArgs(), permission: canDeleteUser, handler: deleteUserHandler },
  ], schema);

  const passwords = '/users/(?P<user_id>(?:[\\d]+|me))/application-passwords';
  const passwordSchema = { schema: applicationPasswordSchema };
  registry.add(NAMESPACE, passwords, [
    { methods: READABLE, args: { context: contextArg() }, permission: canListPasswords, handler: listPasswords },
    { methods: CREATABLE, args: applicationPasswordWriteArgs(true), permission: canCreatePassword, handler: createPassword },
    { methods: DELETABLE, permission: canDeletePasswords, handler: deletePasswords },
  ], passwordSchema);

  registry.add(NAMESPACE, `${passwords}/introspect`, [
    { methods: READABLE, args: { context: contextArg() }, permission: canIntrospect, handler: introspect },
  ], passwordSchema);

  registry.add(NAMESPACE, `${passwords}/(?P<uuid>[\\w\\-]+)`, [
    { methods: READABLE, args: { context: contextArg() }, permission: canReadPassword, handler: readPassword },
    { methods: EDITABLE, args: applicationPasswordWriteArgs(false), permission: canEditPassword, handler: renamePassword },
    { methods: DELETABLE, permission: canDeletePassword, handler: deletePassword },
  ], passwordSchema);
}
