/** The users routes and the application-password routes of `cms/v2`, in the reference's order. */
import { allowAnyone, CREATABLE, DELETABLE, EDITABLE, endpoint, READABLE, type RouteTable } from '../../core/registry.js';
import type { UsersDeps } from '../deps.js';
import { restPostTypes } from '../posts.js';
import {
  canCreatePassword, canDeletePassword, canDeletePasswords, canEditPassword, canIntrospect, canListPasswords, canReadPassword,
  createPassword, deletePassword, deletePasswords, introspectPassword, listPasswords, readPassword, renamePassword,
} from './application-passwords.js';
import { contextArg } from '../../core/context-arg.js';
import { applicationPasswordWriteArgs, userCollectionArgs, userDeleteArgs, userIdArg, userWriteArgs } from './args.js';
import { applicationPasswordSchema, userSchema } from './schema.js';
import { canListUsers, canReadUser, listUsers, readCurrentUser, readUser } from './users-read.js';
import { canCreateUser, canDeleteUser, canUpdateUser, createUser, deleteUser, updateUser } from './users-write.js';

export function userRoutes(deps: UsersDeps): RouteTable {
  return [
    { path: '/users', schema: userSchema, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: userCollectionArgs(restPostTypes(deps.capabilityRules)), permission: (c) => canListUsers(c, deps), handler: (c) => listUsers(c, deps) }),
      endpoint({ methods: CREATABLE, args: userWriteArgs(true), permission: (c) => canCreateUser(c, deps), handler: (c) => createUser(c, deps) }),
    ] },
    { path: '/users/(?P<id>[\\d]+)', schema: userSchema, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: { id: userIdArg(), context: contextArg() }, permission: (c) => canReadUser(c, deps), handler: (c) => readUser(c, deps) }),
      endpoint({ methods: EDITABLE, args: { id: userIdArg(), ...userWriteArgs(false) }, permission: (c) => canUpdateUser(c, deps), handler: (c) => updateUser(c, deps) }),
      endpoint({ methods: DELETABLE, args: { id: userIdArg(), ...userDeleteArgs() }, permission: (c) => canDeleteUser(c, deps), handler: (c) => deleteUser(c, deps) }),
    ] },
    { path: '/users/me', schema: userSchema, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: { context: contextArg() }, permission: allowAnyone, handler: (c) => readCurrentUser(c, deps) }),
      endpoint({ methods: EDITABLE, args: userWriteArgs(false), permission: (c) => canUpdateUser(c, deps), handler: (c) => updateUser(c, deps) }),
      endpoint({ methods: DELETABLE, args: userDeleteArgs(), permission: (c) => canDeleteUser(c, deps), handler: (c) => deleteUser(c, deps) }),
    ] },
    { path: '/users/(?P<user_id>(?:[\\d]+|me))/application-passwords', schema: applicationPasswordSchema, endpoints: [
      endpoint({ methods: READABLE, args: { context: contextArg() }, permission: (c) => canListPasswords(c, deps), handler: (c) => listPasswords(c, deps) }),
      endpoint({ methods: CREATABLE, args: applicationPasswordWriteArgs(true), permission: (c) => canCreatePassword(c, deps), handler: (c) => createPassword(c, deps) }),
      endpoint({ methods: DELETABLE, permission: (c) => canDeletePasswords(c, deps), handler: (c) => deletePasswords(c, deps) }),
    ] },
    { path: '/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/introspect', schema: applicationPasswordSchema, endpoints: [
      endpoint({ methods: READABLE, args: { context: contextArg() }, permission: (c) => canIntrospect(c, deps), handler: (c) => introspectPassword(c, deps) }),
    ] },
    { path: '/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/(?P<uuid>[\\w\\-]+)', schema: applicationPasswordSchema, endpoints: [
      endpoint({ methods: READABLE, args: { context: contextArg() }, permission: (c) => canReadPassword(c, deps), handler: (c) => readPassword(c, deps) }),
      endpoint({ methods: EDITABLE, args: applicationPasswordWriteArgs(false), permission: (c) => canEditPassword(c, deps), handler: (c) => renamePassword(c, deps) }),
      endpoint({ methods: DELETABLE, permission: (c) => canDeletePassword(c, deps), handler: (c) => deletePassword(c, deps) }),
    ] },
  ];
}
