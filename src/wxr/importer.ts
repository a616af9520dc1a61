/**
 * Importing a WXR file. The file is read as a stream and written as it is read, all inside one storage
 * transaction: a file that turns out malformed on its last line, or any failure on the way, leaves the store
 * as it was (fetched files are removed again, the blob store having no transactions). One pass keeps memory
 * bounded by the largest item and works for streams that cannot be read twice; the price is that the store
 * takes other writes only after the import (reads go on).
 */
import { CmsError } from '../core/errors.js';
import { filePort, importPort, resolvedSite, type ContentPortDeps } from './content-port.js';
import { IdMap } from './id-map.js';
import { emptyCounts, warn, warnDroppedMeta, type ImportRun, type WxrImportOptions, type WxrImportSummary, type WxrProgress } from './import-run.js';
import type { WxrSource } from './input.js';
import { importItem } from './item-import.js';
import { readWxr } from './reader.js';
import { importAuthor, importTerm } from './term-import.js';

/** How far up a parent chain is followed to make sure a link makes no loop. */
const MAX_ANCESTORS = 1000;

async function checkOptions(deps: ContentPortDeps, options: WxrImportOptions): Promise<void> {
  if (options.authorRole !== undefined && !deps.services.roles.has(options.authorRole)) {
    throw new CmsError('wxr_invalid_option', `There is no role "${options.authorRole}".`, 400);
  }
  const author = options.defaultAuthor ?? 0;
  if (author !== 0 && !(Number.isSafeInteger(author) && (await deps.services.storage.get('users', author)))) {
    throw new CmsError('wxr_invalid_option', `There is no user ${author} to give records of unknown authors to.`, 400);
  }
}

/** Whether `ancestor` is `id` or above it (following `parentOf`), i.e. whether linking would make a loop. */
async function makesLoop(id: number, ancestor: number, parentOf: (id: number) => Promise<number | null>): Promise<boolean> {
  for (let current: number | null = ancestor, steps = 0; current !== null && current > 0 && steps < MAX_ANCESTORS; steps++) {
    if (current === id) return true;
    current = await parentOf(current);
  }
  return false;
}

/** Sets the links that pointed forward, and the addresses of fetched files in the new posts' text. */
async function link(run: ImportRun): Promise<void> {
  const { port, ids } = run;
  for (const [term, taxonomy, parentSlug] of ids.termParents) {
    const parent = ids.termBySlug(taxonomy, parentSlug) ?? (await port.termId(taxonomy, parentSlug));
    if (parent !== null && !(await makesLoop(term, parent, (id) => port.termParent(id)))) await port.setTermParent(term, parent);
  }
  const parentOf = async (id: number) => (await port.postInfo(id))?.parent ?? null;
  for (const [post, oldParent] of ids.postParents) {
    const parent = ids.posts.get(oldParent);
    if (parent === undefined) warn(run, `post ${post}: its parent (${oldParent} in the file) is not in the file`);
    else if (!(await makesLoop(post, parent, parentOf))) await port.setPostFields(post, { parent });
    else warn(run, `post ${post}: its parent (${oldParent} in the file) would make a loop; it has none`);
  }
  for (const [post, oldAttachment] of ids.featuredImages) {
    const attachment = ids.posts.get(oldAttachment);
    const info = attachment === undefined ? null : await port.postInfo(attachment);
    if (info && info.type === 'attachment' && info.mimeType.startsWith('image/')) await port.setPostFields(post, { featuredMedia: attachment });
    else warn(run, `post ${post}: its featured image (${oldAttachment} in the file) is not an image of the file; it has none`);
  }
  for (const [comment, oldParent] of ids.commentParents) {
    const parent = ids.comments.get(oldParent);
    if (parent !== undefined) await port.setCommentParent(comment, parent);
    else warn(run, `comment ${comment}: the comment it answers (${oldParent} in the file) is not in the file; it answers none`);
  }
  if (ids.addresses.size === 0) return;
  // Longest first, so an address that begins another is not replaced inside it.
  const replacements = [...ids.addresses].sort((a, b) => b[0].length - a[0].length);
  for (const post of ids.createdPosts) await port.rewriteText(post, replacements);
}

/** Reads `source` and creates its authors, terms, posts, pages, attachments and comments; see the file comment. */
export async function importWxr(deps: ContentPortDeps, source: WxrSource, options: WxrImportOptions = {}): Promise<WxrImportSummary> {
  await checkOptions(deps, options);
  const site = await resolvedSite(deps);
  const files = filePort(deps, site);
  const progress: WxrProgress = { phase: 'reading', bytes: 0, items: 0, authors: 0, terms: 0, comments: 0, files: 0 };
  const report = () => options.onProgress?.({ ...progress });
  const storedFiles: string[] = [];
  try {
    return await deps.services.storage.transaction(async (tx) => {
      const port = importPort(deps, tx, site);
      const ids = new IdMap();
      const run: ImportRun = {
        port, files: filePort(deps, site, tx), ids, storedFiles, progress,
        site: { title: '', link: '', description: '', language: '', version: '', baseSiteUrl: '', baseBlogUrl: '' },
        options: {
          fetchAttachments: options.fetchAttachments ?? false,
          authorRole: options.authorRole ?? 'subscriber',
          defaultAuthor: options.defaultAuthor ?? 0,
        },
        summary: {
          site: { title: '', link: '', description: '', language: '', version: '', baseSiteUrl: '', baseBlogUrl: '' },
          created: emptyCounts(), existing: emptyCounts(), skipped: Object.create(null) as Record<string, number>,
          filesFetched: 0, warnings: [], ids: ids.maps(),
        },
        lastPostBefore: await port.lastPostId(),
        droppedMeta: new Map(),
      };
      for await (const record of readWxr(source, options, progress)) {
        if (record.kind === 'site') run.site = run.summary.site = record.site;
        else if (record.kind === 'author') await importAuthor(run, record.author);
        else if (record.kind === 'term') await importTerm(run, record.term);
        else await importItem(run, record.item);
        report();
      }
      progress.phase = 'linking';
      report();
      await link(run);
      warnDroppedMeta(run);
      progress.phase = 'done';
      report();
      return run.summary;
    });
  } catch (error) {
    await Promise.all(storedFiles.map((key) => files.removeFile(key)));
    throw error;
  }
}
