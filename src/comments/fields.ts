/**
 * Request fields of a comment write → stored fields (the reference's `prepare_item_for_database` and the
 * `pre_comment_*` filters), and the checks every write shares: field lengths and the author's email.
 */
import type { ArgCheck } from '../core/args/define.js';
import type { JsonSchema } from '../core/args/schema.js';
import { validateValue } from '../core/args/validate.js';
import { isEmail, isIpAddress } from '../format/formats.js';
import { sanitizeTextField } from '../format/text.js';
import { stripAllTags } from '../format/strip-tags.js';
import { sanitizeUrl } from '../format/url.js';
import type { AnyParams, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import type { Site } from '../core/site.js';
import { dateWithGmt } from '../content/post-type/index.js';
import { escapeSpecialCharacters, getUser } from '../users/index.js';
import type { StoragePort } from '../ports/storage.js';

/** The fields a write sets; absent ones stay as they are (or take defaults on create). */
export interface CommentChanges {
  content?: string;
  post?: number;
  parent?: number;
  user_id?: number;
  author_name?: string;
  author_email?: string;
  author_url?: string;
  author_ip?: string;
  author_user_agent?: string;
  date?: string;
  date_gmt?: string;
}

/** The reference's column sizes, in bytes. */
const MAX_BYTES: readonly [keyof CommentChanges, number, string][] = [
  ['author_name', 245, 'comment_author_column_length'],
  ['author_email', 100, 'comment_author_email_column_length'],
  ['author_url', 200, 'comment_author_url_column_length'],
  ['content', 65525, 'comment_content_column_length'],
];

/**
 * The most characters an author's name, email, URL, user agent or address may hold as sent (more is 400
 * `rest_invalid_param`, `rest_too_long`): they are cleaned or checked before the column sizes above are, and
 * cleaning 16 MiB held the event loop for 0.7–4 s. Far past what the columns keep (a user agent is kept to 254
 * characters), and as long as the headers Node's HTTP server takes by default, so any agent a browser sends fits.
 */
export const MAX_SENT_AUTHOR_TEXT_LENGTH = 16_384;

/** A sent author text's bound, as its argument schema shows it. */
const SENT_AUTHOR_TEXT = { type: 'string', maxLength: MAX_SENT_AUTHOR_TEXT_LENGTH } as const satisfies JsonSchema;

/** The column sizes, checked on the fields as sent (before the `pre_comment_*` filters), as the reference does. */
export function checkLengths(changes: CommentChanges): void {
  for (const [field, limit, code] of MAX_BYTES) {
    const value = changes[field];
    if (typeof value === 'string' && Buffer.byteLength(value) > limit) {
      throw new CmsError(code, 'Comment field exceeds maximum length allowed.', 400);
    }
  }
}

/**
 * The author's email, checked with the other arguments (before the permission checks, as the reference's sanitize
 * callback): empty, or an address once trimmed.
 */
export const checkAuthorEmail: ArgCheck = (value, _context, param) => {
  if (value === null) return null;
  if (typeof value === 'string' && value.length > MAX_SENT_AUTHOR_TEXT_LENGTH) return validateValue(value, SENT_AUTHOR_TEXT, param);
  const text = typeof value === 'string' ? value.trim() : undefined;
  if (text === '' || (text !== undefined && isEmail(text))) return null;
  return { code: 'rest_invalid_email', message: 'Invalid email address.', data: null };
};

/** `pre_comment_author_name`: plain text with special characters escaped. */
export function cleanAuthorName(name: string): string {
  return escapeSpecialCharacters(sanitizeTextField(name));
}

/** `pre_comment_author_url`: tags stripped, then a safe address or nothing. */
export function cleanAuthorUrl(url: string): string {
  return sanitizeUrl(stripAllTags(url));
}

export function cleanUserAgent(agent: string): string {
  return agent.slice(0, 254);
}

export function cleanIp(ip: string): string {
  return ip.replace(/[^0-9a-fA-F:., ]/g, '');
}

/** The client's address as the adapter resolved it, or the reference's `127.0.0.1` when it told none. */
function clientIp(context: RequestContext): string {
  const address = context.remoteAddress;
  return address !== undefined && isIpAddress(address) ? address : '127.0.0.1';
}

const stringParam = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Reads the request's comment fields. On create, the author's address and agent come from the request when not
 * given; an `author_ip` is only taken from moderators (the permission check refuses it from others).
 */
export async function readChanges(
  context: RequestContext<AnyParams & { readonly post?: number; readonly parent?: number; readonly author?: number }>,
  storage: StoragePort,
  site: Pick<Site, 'timezone' | 'gmtOffset'>,
  options: { creating: boolean; moderator: boolean },
): Promise<CommentChanges> {
  const { params } = context;
  const changes: CommentChanges = {};
  const content = params.content;
  if (typeof content === 'string') changes.content = content.trim();
  else if (content !== null && typeof content === 'object' && typeof (content as { raw?: unknown }).raw === 'string') {
    changes.content = ((content as { raw: string }).raw).trim();
  }
  if (params.post !== undefined && params.post !== null) changes.post = params.post;
  if (params.parent !== undefined && params.parent !== null) changes.parent = params.parent;
  if (params.author !== undefined && params.author !== null) {
    const user = await getUser(storage, params.author);
    if (!user) throw new CmsError('rest_comment_author_invalid', 'Invalid comment author ID.', 400);
    Object.assign(changes, { user_id: user.id, author_name: user.name, author_email: user.email, author_url: user.url });
  }
  const name = stringParam(params.author_name);
  if (name !== undefined) changes.author_name = name;
  const email = params.author_email;
  // Checked with the arguments (checkAuthorEmail).
  if (typeof email === 'string') changes.author_email = email.trim();
  const url = stringParam(params.author_url);
  if (url !== undefined) changes.author_url = url;
  const ip = stringParam(params.author_ip);
  if (ip !== undefined && options.moderator) changes.author_ip = ip;
  else if (options.creating) changes.author_ip = clientIp(context);
  const agent = stringParam(params.author_user_agent);
  if (agent !== undefined && agent !== '') changes.author_user_agent = agent;
  else if (options.creating && context.headers['user-agent']) changes.author_user_agent = context.headers['user-agent'];

  const date = stringParam(params.date);
  const dateGmt = stringParam(params.date_gmt);
  const dates = date ? dateWithGmt(date, site) : dateGmt ? dateWithGmt(dateGmt, site, true) : null;
  if (dates) [changes.date, changes.date_gmt] = dates;
  return changes;
}

/** The `pre_comment_*` filters on the author fields (the content is cleaned separately). */
export function cleanAuthorFields(changes: CommentChanges): CommentChanges {
  const cleaned = { ...changes };
  if (cleaned.author_name !== undefined) cleaned.author_name = cleanAuthorName(cleaned.author_name);
  if (cleaned.author_email !== undefined) cleaned.author_email = stripAllTags(cleaned.author_email.trim());
  if (cleaned.author_url !== undefined) cleaned.author_url = cleanAuthorUrl(cleaned.author_url);
  if (cleaned.author_ip !== undefined) cleaned.author_ip = cleanIp(cleaned.author_ip);
  if (cleaned.author_user_agent !== undefined) cleaned.author_user_agent = cleanUserAgent(cleaned.author_user_agent);
  return cleaned;
}
