/** Arguments of the discovery routes, as the reference declares them. */
import { args, fromPath } from '../core/args/define.js';
import { contextArg } from '../core/context-arg.js';

export const typeListArgs = () => ({ context: contextArg() });
export const typeItemArgs = () => ({ type: fromPath(args.string({ description: 'An alphanumeric identifier for the post type.' })), context: contextArg() });
export const taxonomyListArgs = () => ({
  context: contextArg(),
  type: args.string({ description: 'Limit results to taxonomies associated with a specific post type.' }, { phase: 'sanitize' }),
});
export const taxonomyItemArgs = () => ({ taxonomy: fromPath(args.string({ description: 'An alphanumeric identifier for the taxonomy.' })), context: contextArg() });
export const statusListArgs = () => ({ context: contextArg() });
export const statusItemArgs = () => ({ status: args.string({ description: 'An alphanumeric identifier for the status.' }), context: contextArg() });
export const themeListArgs = () => ({
  status: args.array({ enum: ['active', 'inactive'], type: 'string' }, { description: 'Limit result set to themes assigned one or more statuses.' }),
});
export const themeItemArgs = () => ({
  stylesheet: args.string({ description: 'The theme\'s stylesheet. This uniquely identifies the theme.' }),
});
