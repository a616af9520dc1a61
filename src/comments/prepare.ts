/** A stored comment → the response fields (every context; the core filters by context and `_fields`) and links. */
import { permalinkOf } from '../content/post-type/index.js';
import type { Item, Links } from '../core/context.js';
import type { Site } from '../core/site.js';
import type { StoragePort } from '../ports/storage.js';
import { avatarUrls, getUser } from '../users/index.js';
import type { CommentRecord } from './record.js';
import { getPost, hasChildren } from './service.js';
import { renderCommentText } from './text.js';

/** Route bases of the post types served over REST (the reference's `rest_get_route_for_post`). */
const REST_BASES: Readonly<Record<string, string>> = { post: 'posts', page: 'pages', attachment: 'media' };

export interface PrepareEnvironment {
  storage: StoragePort;
  site: Pick<Site, 'home' | 'pageOnFront'>;
  permalinkStructure: string;
  /** Whether emoticons are converted (the `use_smilies` setting). */
  smilies: boolean;
  url(path: string, query?: Record<string, unknown>): string;
  /** Whether `_fields` asks for a top-level field (always true without `_fields`). */
  wantsField(field: string): boolean;
}

/** The status as the interface names it: the reference's `1` and `0` are `approved` and `hold`. */
export function statusName(stored: string): string {
  if (stored === '1' || stored === 'approve') return 'approved';
  if (stored === '0') return 'hold';
  return stored;
}

async function commentLink(comment: CommentRecord, env: PrepareEnvironment): Promise<string> {
  const post = await getPost(env.storage, comment.post);
  const base = post
    ? await permalinkOf(post, { storage: env.storage, home: env.site.home, permalinkStructure: env.permalinkStructure, pageOnFront: env.site.pageOnFront })
    : `${env.site.home}/`;
  return `${base}#comment-${comment.id}`;
}

async function avatarEmail(comment: CommentRecord, storage: StoragePort): Promise<string> {
  if (comment.user_id > 0) {
    const user = await getUser(storage, comment.user_id);
    if (user) return user.email;
  }
  return comment.author_email;
}

export async function prepareComment(comment: CommentRecord, env: PrepareEnvironment): Promise<Item> {
  const want = env.wantsField;
  const data: Record<string, unknown> = {};
  if (want('id')) data.id = comment.id;
  if (want('post')) data.post = comment.post;
  if (want('parent')) data.parent = comment.parent;
  if (want('author')) data.author = comment.user_id;
  if (want('author_name')) data.author_name = comment.author_name;
  if (want('author_email')) data.author_email = comment.author_email;
  if (want('author_url')) data.author_url = comment.author_url;
  if (want('author_ip')) data.author_ip = comment.author_ip;
  if (want('author_user_agent')) data.author_user_agent = comment.author_user_agent;
  if (want('date')) data.date = comment.date;
  if (want('date_gmt')) data.date_gmt = comment.date_gmt;
  if (want('content')) data.content = { rendered: renderCommentText(comment.content, { smilies: env.smilies }), raw: comment.content };
  if (want('link')) data.link = await commentLink(comment, env);
  if (want('status')) data.status = statusName(comment.status);
  if (want('type')) data.type = comment.type;
  if (want('author_avatar_urls')) data.author_avatar_urls = avatarUrls(await avatarEmail(comment, env.storage));
  // No comment meta is registered: the reference prints the empty map as a list.
  if (want('meta')) data.meta = [];

  if (!want('_links') && !want('_embedded')) return { data };
  return { data, links: await commentLinks(comment, env) };
}

async function commentLinks(comment: CommentRecord, env: PrepareEnvironment): Promise<Links> {
  const links: Links = {
    self: [{ href: env.url(`/cms/v2/comments/${comment.id}`) }],
    collection: [{ href: env.url('/cms/v2/comments') }],
  };
  if (comment.user_id !== 0) links.author = [{ embeddable: true, href: env.url(`/cms/v2/users/${comment.user_id}`) }];
  if (comment.post !== 0) {
    const post = await getPost(env.storage, comment.post);
    const base = post ? REST_BASES[post.type] : undefined;
    if (post && base) links.up = [{ embeddable: true, post_type: post.type, href: env.url(`/cms/v2/${base}/${post.id}`) }];
  }
  if (comment.parent !== 0) links['in-reply-to'] = [{ embeddable: true, href: env.url(`/cms/v2/comments/${comment.parent}`) }];
  if (await hasChildren(env.storage, comment.id)) {
    links.children = [{ embeddable: true, href: env.url('/cms/v2/comments', { parent: comment.id }) }];
  }
  return links;
}
