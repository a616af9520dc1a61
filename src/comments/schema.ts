/** The item schema of a comment: fields, types and the contexts each field appears in. */
import type { JsonSchema } from '../core/args/schema.js';
import { AVATAR_SIZES } from '../users/index.js';

const ALL = ['view', 'edit', 'embed'];
const VIEW_EDIT = ['view', 'edit'];
const EDIT = ['edit'];

export type CommentSchema = JsonSchema & { $schema: string; title: string; properties: Record<string, JsonSchema> };

let cached: CommentSchema | undefined;

export function commentSchema(): CommentSchema {
  if (cached) return cached;
  const avatars: Record<string, JsonSchema> = {};
  for (const size of AVATAR_SIZES) {
    avatars[String(size)] = { description: `Avatar URL with image size of ${size} pixels.`, type: 'string', format: 'uri', context: ['embed', 'view', 'edit'] };
  }
  cached = {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'comment',
    type: 'object',
    properties: {
      id: { description: 'Unique identifier of the comment.', type: 'integer', context: ALL, readonly: true },
      author: { description: 'The id of the user who wrote the comment, if a user did.', type: 'integer', context: ALL },
      author_email: { description: 'Email address of the comment\'s author.', type: 'string', format: 'email', context: EDIT },
      author_ip: { description: 'IP address of the comment\'s author.', type: 'string', format: 'ip', context: EDIT },
      author_name: { description: 'Display name of the comment\'s author.', type: 'string', context: ALL },
      author_url: { description: 'Address of the comment\'s author.', type: 'string', format: 'uri', context: ALL },
      author_user_agent: { description: 'User agent of the comment\'s author.', type: 'string', context: EDIT },
      content: {
        description: 'The content of the comment.',
        type: 'object',
        context: ALL,
        properties: {
          raw: { description: 'The content as stored.', type: 'string', context: EDIT },
          rendered: { description: 'The content as HTML for display.', type: 'string', context: ALL, readonly: true },
        },
      },
      date: { description: 'When the comment was written, in the site\'s time zone.', type: 'string', format: 'date-time', context: ALL },
      date_gmt: { description: 'When the comment was written, in GMT.', type: 'string', format: 'date-time', context: VIEW_EDIT },
      link: { description: 'Address of the comment.', type: 'string', format: 'uri', context: ALL, readonly: true },
      parent: { description: 'The id of the comment this one replies to.', type: 'integer', context: ALL, default: 0 },
      post: { description: 'The id of the post the comment belongs to.', type: 'integer', context: VIEW_EDIT, default: 0 },
      status: { description: 'The state of the comment.', type: 'string', context: VIEW_EDIT },
      type: { description: 'The type of the comment.', type: 'string', context: ALL, readonly: true },
      author_avatar_urls: {
        description: 'Avatar URLs of the comment\'s author.',
        type: 'object',
        context: ALL,
        readonly: true,
        properties: avatars,
      },
      meta: { description: 'Meta fields.', type: 'object', context: VIEW_EDIT, properties: {} },
    },
  };
  return cached;
}
