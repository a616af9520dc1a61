/** What the comments resource is given, and the discussion choices a host can make (`createCms({ comments })`). */
import type { Throttles } from '../auth/index.js';
import type { PostEvents } from '../content/post-type/index.js';
import type { CmsDeps } from '../deps.js';

export interface CommentOptions {
  /** Whether visitors who are not logged in may comment (default false, as the reference's REST interface). */
  allowAnonymous?: boolean;
  /** Whether a comment needs its author's name and email (default true: the reference's `require_name_email`). */
  requireNameEmail?: boolean;
  /** Whether only logged-in users may comment at all (default false: `comment_registration`). */
  registrationRequired?: boolean;
  /** Whether every new comment waits for moderation (default false: `comment_moderation`). */
  holdAll?: boolean;
  /**
   * Whether a visitor's comment is approved at once when the same name and email already have an approved comment
   * (default true: `comment_previously_approved`); otherwise it waits for moderation.
   */
  approveKnownAuthors?: boolean;
  /** A comment with at least this many links waits for moderation (default 2: `comment_max_links`; 0 turns it off). */
  maxLinks?: number;
  /** Least time between two comments from one address or email, in seconds (default 15; 0 turns it off). */
  floodSeconds?: number;
  /** Whether DELETE without `force` moves comments to the trash (default true). */
  trash?: boolean;
}

export interface ResolvedCommentOptions {
  allowAnonymous: boolean;
  requireNameEmail: boolean;
  registrationRequired: boolean;
  holdAll: boolean;
  approveKnownAuthors: boolean;
  maxLinks: number;
  floodSeconds: number;
  trash: boolean;
}

export function resolveCommentOptions(options: CommentOptions = {}): ResolvedCommentOptions {
  const count = (value: number | undefined, fallback: number) =>
    value !== undefined && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
  return {
    allowAnonymous: options.allowAnonymous ?? false,
    requireNameEmail: options.requireNameEmail ?? true,
    registrationRequired: options.registrationRequired ?? false,
    holdAll: options.holdAll ?? false,
    approveKnownAuthors: options.approveKnownAuthors ?? true,
    maxLinks: count(options.maxLinks, 2),
    floodSeconds: count(options.floodSeconds, 15),
    trash: options.trash ?? true,
  };
}

/** The ports and settings the comment routes use. */
/** `postSettings`: the permalink structure, for each comment's `link`. */
export interface CommentsDeps extends Pick<CmsDeps, 'storage' | 'clock' | 'capabilityRules' | 'roles' | 'site' | 'names' | 'postSettings'> {
  readonly comments?: CommentOptions | undefined;
  /** Post saves and deletes, so comments follow their post into the trash and out of the store. */
  readonly postEvents: PostEvents;
  /** The per-client comment limit lives in `throttles.comments`; none: no limit. */
  readonly throttles?: Pick<Throttles, 'comments'>;
}
