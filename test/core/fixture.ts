import { args } from '../../src/core/args/define.js';
import type { JsonSchema } from '../../src/core/args/schema.js';
import type { Principal } from '../../src/core/context.js';
import { CmsError, forbidden } from '../../src/core/errors.js';
import { batchResource, DEFAULT_MAX_BATCH_SIZE } from '../../src/batch/index.js';
import { Dispatcher } from '../../src/core/dispatch.js';
import { namespaceRoot, registerIndex } from '../../src/core/index-document.js';
import { allowAnyone, Registry } from '../../src/core/registry.js';
import { collection, created, item } from '../../src/core/response.js';
import { paging } from '../../src/core/paging.js';
import type { Services } from '../../src/core/context.js';
import { systemClock } from '../../src/ports/clock.js';

export const editor: Principal = { id: 7, login: 'ed', roles: ['editor'], capabilities: new Set(['edit_things']) };

const thingSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', context: ['view', 'edit', 'embed'] },
    title: {
      type: 'object',
      context: ['view', 'edit', 'embed'],
      properties: {
        raw: { type: 'string', context: ['edit'] },
        rendered: { type: 'string', context: ['view', 'edit', 'embed'] },
      },
    },
    secret: { type: 'string', context: ['edit'] },
    note: { type: 'string', context: ['view', 'edit'] },
  },
};

const personSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', context: ['view', 'edit', 'embed'] },
    name: { type: 'string', context: ['view', 'edit', 'embed'] },
    email: { type: 'string', context: ['edit'] },
  },
};

export const THING_COUNT = 23;

function thing(id: number, apiLink: (path: string) => string) {
  return {
    data: { id, title: { raw: `Thing ${id}`, rendered: `<p>Thing ${id}</p>` }, secret: `s${id}`, note: 'n' },
    links: {
      self: [{ href: apiLink(`/test/v1/things/${id}`) }],
      author: [{ embeddable: true, href: apiLink('/test/v1/people/1') }],
      'https://api.w.org/term': [
        { taxonomy: 'kind', embeddable: true, href: apiLink('/test/v1/people/2') },
        { taxonomy: 'none', embeddable: true, href: apiLink('/test/v1/people/999') },
      ],
      about: [{ href: apiLink('/test/v1/about') }],
    },
  };
}

const canEdit = (context: { user: Principal | null }) =>
  context.user?.capabilities.has('edit_things') ? true : forbidden(context.user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this thing.');

/** A core with a small `test/v1` namespace exercising every part of the pipeline. */
export function makeCore(options: { onError?: (error: unknown) => void; maxBodyBytes?: number; users?: Record<string, Principal> } = {}) {
  const registry = new Registry();
  registerIndex(registry);
  registry.addRoutes('', batchResource.routes!({ maxItems: DEFAULT_MAX_BATCH_SIZE }));
  registry.namespace('test/v1', namespaceRoot(registry));
  registry.namespace('empty/v1', namespaceRoot(registry));

  registry.add('test/v1', '/things', [
    {
      methods: ['GET'],
      args: {
        context: args.string({ enum: ['view', 'embed', 'edit'], default: 'view' }),
        page: args.integer({ description: 'Current page.', default: 1, minimum: 1 }),
        per_page: args.integer({ default: 10, minimum: 1, maximum: 100 }),
        order: args.string({ enum: ['asc', 'desc'], default: 'desc' }, { phase: 'sanitize' }),
        include: args.array({ type: 'integer' }, { default: [] }),
      },
      permission: allowAnyone,
      allowBatch: true,
      handler: (context) => {
        const page = context.params.page as number;
        const perPage = context.params.per_page as number;
        const ids = Array.from({ length: THING_COUNT }, (_, index) => index + 1);
        if (context.params.order === 'desc') ids.reverse();
        const slice = ids.slice((page - 1) * perPage, page * perPage);
        return collection(slice.map((id) => thing(id, (path) => context.url(path))), paging(ids.length, page, perPage));
      },
    },
    {
      methods: ['POST'],
      args: { title: args.string({ minLength: 1 }, { required: true }) },
      permission: canEdit,
      handler: (context) => created(
        { data: { id: 99, title: { raw: String(context.params.title), rendered: String(context.params.title) } } },
        context.url('/test/v1/things/99'),
      ),
    },
  ], { schema: () => thingSchema });

  registry.add('test/v1', '/things/(?P<id>[\\d]+)', [
    {
      methods: ['GET'],
      args: { id: args.integer(), context: args.string({ enum: ['view', 'embed', 'edit'], default: 'view' }) },
      permission: (context) => (context.context === 'edit' ? canEdit(context) : true),
      handler: (context) => {
        const id = context.params.id as number;
        if (id > THING_COUNT) throw new CmsError('rest_thing_invalid_id', 'Invalid thing ID.', 404);
        return item(thing(id, (path) => context.url(path)));
      },
    },
    {
      methods: ['POST', 'PUT', 'PATCH'],
      args: { id: args.integer(), note: args.string() },
      permission: canEdit,
      handler: (context) => item({ data: { id: context.params.id, note: context.params.note ?? null, secret: 'shown in edit' } }, { context: 'edit' }),
    },
    {
      methods: ['DELETE'],
      args: { id: args.integer(), force: args.boolean({ default: false }) },
      permission: canEdit,
      handler: (context) => ({ deleted: true, force: context.params.force }),
    },
  ], { schema: () => thingSchema });

  registry.add('test/v1', '/people/(?P<id>[\\d]+)', [{
    methods: ['GET'],
    args: { id: args.integer(), context: args.string({ default: 'view' }) },
    permission: (context) => (context.params.id === 999 ? false : true),
    handler: (context) => item({
      data: { id: context.params.id, name: `Person ${context.params.id}`, email: 'p@example.com' },
      links: { self: [{ href: context.url(`/test/v1/people/${context.params.id}`) }] },
    }),
  }], { schema: () => personSchema });

  registry.add('test/v1', '/echo', [{
    methods: ['GET', 'POST', 'PUT'],
    args: {
      count: args.integer({ minimum: 1 }),
      flag: args.boolean(),
      tags: args.array({ type: 'string' }),
      untouched: args.untyped({ description: 'Passed through.' }),
    },
    permission: allowAnyone,
    handler: (context) => ({ params: context.params, method: context.method }),
  }]);

  const notes: { id: number; text: string }[] = [];
  registry.add('test/v1', '/notes', [
    {
      methods: ['GET'],
      permission: allowAnyone,
      handler: () => collection(notes.map((note) => ({ data: { ...note } }))),
    },
    {
      methods: ['POST'],
      args: { text: args.string({ minLength: 1 }, { required: true }) },
      permission: (context) => context.user !== null || forbidden(null, 'rest_cannot_create', 'Sorry, you are not allowed to create notes.'),
      allowBatch: true,
      handler: (context) => {
        const note = { id: notes.length + 1, text: String(context.params.text) };
        notes.push(note);
        return created({ data: { ...note }, links: { self: [{ href: context.url(`/test/v1/notes/${note.id}`) }] } }, context.url(`/test/v1/notes/${note.id}`));
      },
    },
  ]);

  registry.add('test/v1', '/boom', [{
    methods: ['GET'],
    permission: allowAnyone,
    handler: () => {
      throw new Error('database exploded at /secret/path');
    },
  }]);

  const users = options.users ?? { 'Bearer editor': editor };
  const services = { clock: systemClock } as Services;
  return new Dispatcher({
    registry,
    services,
    site: { name: 'Test site', description: 'Just testing', url: 'http://example.test', timezone: '' },
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    headerPrefix: 'X-WP',
    jsonp: true,
    authenticate: ({ headers }) => {
      const authorization = headers.authorization;
      if (!authorization) return null;
      const user = users[authorization];
      if (!user) throw new CmsError('incorrect_password', 'The provided password is an invalid application password.', 401);
      return user;
    },
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
