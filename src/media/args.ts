/** Arguments of the media routes, built from the post-type kit's so that shared parameters behave alike. */
import { userCan, type CapabilityRules } from '../auth/index.js';
import { arg, args, type ArgCheck, type ArgSpec } from '../core/args/define.js';
import type { JsonSchema } from '../core/args/schema.js';
import { sanitizeTextField } from '../format/text.js';
import { authorizationStatus } from '../core/errors.js';
import type { Principal } from '../core/context.js';
import { capabilitiesOf, collectionArgs, contextArg, itemArgs, type ItemSchema } from '../content/post-type/index.js';
import type { Modifier } from './images/edit.js';
import { ATTACHMENT_TYPE, MEDIA_TYPES } from './schema.js';

/** Statuses other than `inherit` need the type's `edit_posts` (`private` may also be had with `read_private_posts`). */
function statusCheck(rules: CapabilityRules): ArgCheck {
  return (value, context) => {
    const user = context.user as Principal | null;
    const names = capabilitiesOf(ATTACHMENT_TYPE, rules);
    for (const status of Array.isArray(value) ? value : [value]) {
      if (status === 'inherit') continue;
      if (userCan(user, names.edit_posts, undefined, rules)) continue;
      if (status === 'private' && userCan(user, names.read_private_posts, undefined, rules)) continue;
      return { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: authorizationStatus(user) } };
    }
    return null;
  };
}

const integerList = (description: string): ArgSpec =>
  arg({ description, type: 'array', items: { type: 'integer' }, default: [] }, { phase: 'sanitize' });

export function mediaCollectionArgs(rules: CapabilityRules) {
  const base = collectionArgs(ATTACHMENT_TYPE, rules);
  const result: Record<string, ArgSpec> = {};
  for (const [name, spec] of Object.entries(base)) {
    if (name === 'status') {
      result.status = arg(
        { default: 'inherit', description: 'Only items with these statuses.', type: 'array', items: { enum: ['inherit', 'private', 'trash'], type: 'string' } },
        { phase: 'sanitize', check: statusCheck(rules), transform: (value) => [...new Set(value as string[])] },
      );
      continue;
    }
    result[name] = spec;
    if (name === 'orderby') {
      result.parent = integerList('Only items attached to these posts (0: unattached).');
      result.parent_exclude = integerList('Leave out items attached to these posts.');
    }
  }
  result.media_type = arg(
    { default: null, description: 'Only items of these media types.', type: 'array', items: { type: 'string', enum: [...MEDIA_TYPES] } },
    { phase: 'sanitize' },
  );
  result.mime_type = arg(
    { default: null, description: 'Only items of these MIME types.', type: 'array', items: { type: 'string' } },
    { phase: 'sanitize' },
  );
  // The post-type list's arguments with media's own status and filters: the paging ones are the kit's.
  return result as typeof base;
}

/** Fields whose value goes to the handler as sent (a string or a `{raw}` object). */
const PASSED_AS_SENT = new Set(['caption', 'description']);

/** The most characters an alternative text may hold as sent: it is cleaned on the main thread. */
export const MAX_ALT_TEXT_LENGTH = 4096;

/** The attachment fields of the media schema, with the type the argument engine leaves for each. */
type AttachmentFieldArgs = {
  readonly alt_text: ArgSpec<string, false>;
  readonly post: ArgSpec<number, false>;
  readonly caption: ArgSpec<unknown, false>;
  readonly description: ArgSpec<unknown, false>;
};

/** Create and update arguments from the item schema: the post-type kit's, with the attachment fields. */
export function mediaWriteArgs(schema: ItemSchema): ReturnType<typeof itemArgs> & AttachmentFieldArgs {
  const derived = itemArgs(schema);
  const result: Record<string, ArgSpec> = {};
  for (const [name, spec] of Object.entries(derived)) {
    if (PASSED_AS_SENT.has(name)) {
      const { context: _context, ...published } = schema.properties[name]!;
      result[name] = arg(published as JsonSchema, { phase: 'none' });
    } else if (name === 'alt_text') {
      result[name] = arg({ ...spec.schema, maxLength: MAX_ALT_TEXT_LENGTH }, { transform: (value) => sanitizeTextField(value) });
    } else {
      result[name] = spec;
    }
  }
  // The media schema always has the attachment fields (buildMediaSchema).
  return result as ReturnType<typeof itemArgs> & AttachmentFieldArgs;
}

const mediaIdArg = () => args.integer({ description: 'Unique identifier of the attachment.' });

export function mediaReadArgs(): Record<string, ArgSpec> {
  return { id: mediaIdArg(), context: contextArg() };
}

export function mediaUpdateArgs(schema: ItemSchema) {
  return { id: mediaIdArg(), ...mediaWriteArgs(schema) };
}

export function mediaDeleteArgs(): Record<string, ArgSpec> {
  return {
    id: mediaIdArg(),
    force: args.boolean({ description: 'Whether to delete for good; media items cannot be moved to the trash.', default: false }),
  };
}

export function mediaPostProcessArgs(): Record<string, ArgSpec> {
  return { id: mediaIdArg(), action: args.string({ enum: ['create-image-subsizes'] }, { required: true }) };
}

/** Create arguments: the write fields, sub-size and conversion switches, and the address of a file to fetch instead. */
export function mediaCreateArgs(schema: ItemSchema) {
  return {
    ...mediaWriteArgs(schema),
    generate_sub_sizes: args.boolean({ description: 'Whether to generate image sub sizes.', default: true }),
    convert_format: args.boolean({ description: 'Whether to convert image formats.', default: true }),
    url: args.string({ description: 'Address of an external image to fetch into the library instead of uploading a file.', format: 'uri' }),
  };
}

const MODIFIERS_SCHEMA: JsonSchema = {
  description: 'The image edits, applied in order.',
  type: 'array',
  minItems: 1,
  items: {
    description: 'One image edit.',
    type: 'object',
    required: ['type', 'args'],
    oneOf: [
      {
        title: 'Flip',
        properties: {
          type: { description: 'Flip type.', type: 'string', enum: ['flip'] },
          args: {
            description: 'Flip arguments.',
            type: 'object',
            required: ['flip'],
            properties: {
              flip: {
                description: 'Flip directions.',
                type: 'object',
                required: ['horizontal', 'vertical'],
                properties: {
                  horizontal: { description: 'Whether to mirror the image left to right.', type: 'boolean' },
                  vertical: { description: 'Whether to mirror the image top to bottom.', type: 'boolean' },
                },
              },
            },
          },
        },
      },
      {
        title: 'Rotation',
        properties: {
          type: { description: 'Rotation type.', type: 'string', enum: ['rotate'] },
          args: {
            description: 'Rotation arguments.',
            type: 'object',
            required: ['angle'],
            properties: { angle: { description: 'Angle to rotate clockwise, in degrees.', type: 'number' } },
          },
        },
      },
      {
        title: 'Crop',
        properties: {
          type: { description: 'Crop type.', type: 'string', enum: ['crop'] },
          args: {
            description: 'Crop arguments.',
            type: 'object',
            required: ['left', 'top', 'width', 'height'],
            properties: {
              left: { description: 'Horizontal position of the crop from the left, as a percentage of the image width.', type: 'number' },
              top: { description: 'Vertical position of the crop from the top, as a percentage of the image height.', type: 'number' },
              width: { description: 'Width of the crop, as a percentage of the image width.', type: 'number' },
              height: { description: 'Height of the crop, as a percentage of the image height.', type: 'number' },
            },
          },
        },
      },
    ],
  },
};

const percentage = (description: string) => args.number({ description, minimum: 0, maximum: 100 });

/** Arguments of `POST /media/{id}/edit`: the source, the modifiers (or the older separate fields), new fields. */
export function mediaEditArgs(schema: ItemSchema) {
  const writeArgs = mediaWriteArgs(schema);
  const edit = {
    src: args.string({ description: 'Address of the edited image file.', format: 'uri' }, { required: true }),
    // The schema checks each modifier's `type` and the `args` that type takes.
    modifiers: arg(MODIFIERS_SCHEMA) as ArgSpec<Modifier[]>,
    rotation: args.integer({
      description: 'Degrees to rotate the image clockwise. Superseded by `modifiers`.',
      minimum: 0, exclusiveMinimum: true, maximum: 360, exclusiveMaximum: true,
    }),
    x: percentage('Where the crop starts from the left, as a percentage of the image. Superseded by `modifiers`.'),
    y: percentage('Where the crop starts from the top, as a percentage of the image. Superseded by `modifiers`.'),
    width: percentage('Width of the crop, as a percentage of the image. Superseded by `modifiers`.'),
    height: percentage('Height of the crop, as a percentage of the image. Superseded by `modifiers`.'),
  };
  const result: Record<string, ArgSpec> = { ...edit };
  for (const name of ['caption', 'description', 'title', 'post', 'alt_text'] as const) {
    if (writeArgs[name]) result[name] = writeArgs[name];
  }
  return result as typeof edit & Pick<typeof writeArgs, 'caption' | 'description' | 'title' | 'post' | 'alt_text'>;
}
