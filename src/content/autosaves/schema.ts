/** The item schema of autosaves: the revision schema plus `preview_link` (edit context only). */
import type { ItemSchema } from '../post-type/index.js';

export function buildAutosaveSchema(revisionSchema: ItemSchema): ItemSchema {
  return {
    ...revisionSchema,
    properties: {
      ...revisionSchema.properties,
      preview_link: { description: 'The address to preview the autosave at.', type: 'string', format: 'uri', context: ['edit'], readonly: true },
    },
  };
}
