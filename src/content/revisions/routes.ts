/**
 * Registers `/{base}/{parent}/revisions` and `/{base}/{parent}/revisions/{id}` for one post type; returns the
 * revision item schema.
 */
import { DELETABLE, READABLE, type Registry } from '../../core/registry.js';
import type { ItemSchema } from '../posts/schema.js';
import type { PostType } from '../posts/scope.js';
import { revisionDeleteArgs, revisionListArgs, revisionReadArgs } from './args.js';
import { deleteRevision, readRevision } from './handlers.js';
import { listRevisions } from './list.js';
import { deletePermission, readPermission } from './permissions.js';
import { buildRevisionSchema } from './schema.js';

const NAMESPACE = 'cms/v2';

export function registerRevisionRoutes(registry: Registry, postType: PostType): ItemSchema {
  const { definition } = postType;
  const schema = buildRevisionSchema(definition.type, postType.schema);
  const options = { schema: () => schema };
  const base = `/${definition.restBase}/(?P<parent>[\\d]+)/revisions`;

  registry.add(NAMESPACE, base, [
    {
      methods: READABLE,
      args: revisionListArgs(),
      permission: (context) => readPermission(context, postType, 'parent', 'revisions'),
      handler: (context) => listRevisions(context, postType),
    },
  ], options);

  registry.add(NAMESPACE, `${base}/(?P<id>[\\d]+)`, [
    {
      methods: READABLE,
      args: revisionReadArgs(),
      permission: (context) => readPermission(context, postType, 'parent', 'revisions'),
      handler: (context) => readRevision(context, postType),
    },
    {
      methods: DELETABLE,
      args: revisionDeleteArgs(),
      permission: (context) => deletePermission(context, postType),
      handler: (context) => deleteRevision(context, postType, schema),
    },
  ], options);
  return schema;
}
