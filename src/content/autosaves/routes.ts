/** Registers `/{base}/{id}/autosaves` and `/{base}/{parent}/autosaves/{id}` for one post type. */
import { CREATABLE, READABLE, type Registry } from '../../core/registry.js';
import type { PostType } from '../posts/scope.js';
import type { ItemSchema } from '../posts/schema.js';
import { readPermission } from '../revisions/permissions.js';
import { autosaveCreateArgs, autosaveListArgs, autosaveReadArgs } from './args.js';
import { createAutosave, listAutosaves, readAutosave } from './handlers.js';
import { createPermission } from './permissions.js';
import { buildAutosaveSchema } from './schema.js';

const NAMESPACE = 'cms/v2';

export function registerAutosaveRoutes(registry: Registry, postType: PostType, revisionSchema: ItemSchema): void {
  const { restBase } = postType.definition;
  const schema = buildAutosaveSchema(revisionSchema);
  const options = { schema: () => schema };

  registry.add(NAMESPACE, `/${restBase}/(?P<id>[\\d]+)/autosaves`, [
    {
      methods: READABLE,
      args: autosaveListArgs(),
      permission: (context) => readPermission(context, postType, 'id', 'autosaves'),
      handler: (context) => listAutosaves(context, postType),
    },
    {
      methods: CREATABLE,
      args: autosaveCreateArgs(postType),
      permission: (context) => createPermission(context, postType),
      handler: (context) => createAutosave(context, postType),
    },
  ], options);

  registry.add(NAMESPACE, `/${restBase}/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)`, [
    {
      methods: READABLE,
      args: autosaveReadArgs(),
      // The single autosave is guarded like a revision (its message speaks of revisions, as the reference's does).
      permission: (context) => readPermission(context, postType, 'parent', 'revisions'),
      handler: (context) => readAutosave(context, postType),
    },
  ], options);
}
