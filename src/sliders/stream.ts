/**
 * The stream route (`/sliders/stream/{id}`): one slider id, or a comma list of post ids.
 *
 * A list is answered as the reference's "specific posts" gallery: the posts in the order given (duplicates and
 * unknown ids skipped), at most the reference's page of 10. When the list names images (attachments), only they
 * are answered, each its own media; otherwise posts and pages, each with its featured image. Only what the
 * caller may read is answered — the posts module decides (`canReadPost`) — and never what `WP_Query` would
 * leave out (drafts, pending, scheduled, trashed). A password-protected post comes without its text.
 */
import { toInt, toPhpString } from '../format/php.js';
import type { RequestContext } from '../core/context.js';
import { canReadPost, postsIn, scopeOf, type PostRecord, type PostType } from '../content/post-type/index.js';
import { uploadsBaseUrl, type UploadsConfig } from '../media/index.js';
import type { StoragePort } from '../ports/storage.js';
import { SliderFailure } from './failure.js';
import { requireSliderId } from './lookup.js';
import type { SliderRecord } from './record.js';
import type { SliderService } from './service.js';
import { streamItem, type StreamEnvironment } from './stream-item.js';

/** The reference's page size (`posts_per_page`), which its post query keeps to. */
export const STREAM_PAGE_SIZE = 10;
/** Distinct ids of a list that are looked at; the rest are ignored. */
export const MAX_LISTED_IDS = 100;

const LISTED_TYPES = new Set(['post', 'page', 'attachment']);

export interface StreamDeps {
  /** The `post` type, whose read checks decide what a list may show. */
  posts: PostType;
  uploads: Pick<UploadsConfig, 'baseUrl'>;
  service: SliderService;
}

/** Post ids of a list as `post__in` reads them (`absint`), without zeros and repeats, in the order given. */
export function listedIds(parts: readonly string[]): number[] {
  const ids: number[] = [];
  const seen = new Set<number>();
  for (const part of parts) {
    const id = Math.abs(toInt(part));
    if (id === 0 || !Number.isSafeInteger(id) || seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
    if (ids.length === MAX_LISTED_IDS) break;
  }
  return ids;
}

async function recordsInOrder(storage: StoragePort, ids: readonly number[]): Promise<PostRecord[]> {
  if (ids.length === 0) return [];
  const { items } = await postsIn(storage).list({ where: [{ field: 'id', op: 'in', values: [...ids] }] });
  const byId = new Map(items.map((record) => [record.id, record]));
  return ids.map((id) => byId.get(id)).filter((record): record is PostRecord => record !== undefined);
}

async function firstReadable(
  records: readonly PostRecord[],
  accept: (record: PostRecord) => boolean,
  environment: StreamEnvironment,
  context: RequestContext,
): Promise<PostRecord[]> {
  const chosen: PostRecord[] = [];
  for (const record of records) {
    if (chosen.length === STREAM_PAGE_SIZE) break;
    if (accept(record) && await canReadPost(context, record, environment.scope.postType.deps)) chosen.push(record);
  }
  return chosen;
}

async function listedPosts(parts: readonly string[], deps: StreamDeps, environment: StreamEnvironment, context: RequestContext): Promise<unknown[]> {
  const records = await recordsInOrder(deps.posts.deps.storage, listedIds(parts));
  const images = await firstReadable(records, (record) => record.type === 'attachment' && record.status === 'inherit', environment, context);
  if (images.length > 0) return Promise.all(images.map((record) => streamItem(record, environment, true)));
  const statuses = deps.posts.deps.capabilityRules.postStatuses;
  const posts = await firstReadable(records, (record) => LISTED_TYPES.has(record.type)
    && (statuses[record.status] === 'public' || statuses[record.status] === 'private'), environment, context);
  return Promise.all(posts.map((record) => streamItem(record, environment, false)));
}

/**
 * A single slider's stream. Gallery sliders have none; social-network sources would need the network, and
 * post sources are not served yet, so every slider answers `[]`.
 */
function sliderStream(_slider: SliderRecord): unknown[] {
  return [];
}

export async function streamAnswer(context: RequestContext, deps: StreamDeps): Promise<Record<string, unknown>> {
  const id = context.params.id;
  const parts = (id === undefined || id === null ? '' : toPhpString(id)).split(',');
  let data: unknown[];
  if (parts.length > 1) {
    const environment: StreamEnvironment = {
      storage: deps.posts.deps.storage,
      scope: scopeOf(context, deps.posts),
      site: context.site,
      uploadsBaseUrl: uploadsBaseUrl(deps.uploads, context.site),
    };
    data = await listedPosts(parts, deps, environment, context);
  } else {
    const slider = await deps.service.getSlider(requireSliderId(parts[0]!));
    if (!slider) throw new SliderFailure(404, 'slider_not_found', 'Slider could not be loaded');
    data = sliderStream(slider);
  }
  return { success: true, message: '', data };
}
