/** Arguments of the autosave routes. */
import { args, type ArgSpec } from '../../core/args/define.js';
import { contextArg, itemArgs, type PostType } from '../post-type/index.js';
import { parentArg } from '../revisions/index.js';

const autosaveParentArg = () => parentArg('The id of the post the autosave belongs to.');

export function autosaveListArgs(): Record<string, ArgSpec> {
  return { parent: autosaveParentArg(), context: contextArg() };
}

/** The parent type's writable fields; a hierarchical type's own `parent` field takes the place of the route's. */
export function autosaveCreateArgs(postType: PostType) {
  return { parent: autosaveParentArg(), ...itemArgs(postType.schema) };
}

export function autosaveReadArgs(): Record<string, ArgSpec> {
  return {
    parent: autosaveParentArg(),
    id: args.integer({ description: 'The id of the autosave.' }, { phase: 'sanitize' }),
    context: contextArg(),
  };
}
