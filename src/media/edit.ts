/**
 * `POST /media/{id}/edit`: applies flips, rotations and crops to an image's original upload (turned upright
 * first) and stores the result as a new attachment (`{name}-edited.{ext}` in the current month's folder),
 * leaving the source untouched.
 */
import type { Params } from '../core/args/define.js';
import type { RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { created } from '../core/response.js';
import { nowDates, savePost, scopeOf } from '../content/post-type/index.js';
import { alternateExtensions, monthFolder } from './accept.js';
import type { mediaEditArgs } from './args.js';
import { checkParentType, textOf } from './changes.js';
import type { MediaType } from './deps.js';
import { splitExtension } from './files/file-name.js';
import { writeUnderFreeName } from './files/free-name.js';
import { canEdit } from './images/codec.js';
import { ModifierError, type Modifier } from './images/edit.js';
import { readImageMeta, orientationOf, type ImageMeta } from './images/image-meta.js';
import { baseNameOf, folderOf, isImageMetadata, joinKey, originalKeyOf, type ImageMetadata } from './images/metadata.js';
import type { RenderResult } from './images/render.js';
import { creationOrder } from './images/sizes.js';
import { outputFormatFor } from './images/subsizes.js';
import { generateMetadata } from './metadata-writer.js';
import { prepareAttachment } from './prepare.js';
import { requireAttachment } from './permissions.js';
import { attachmentsIn, fileUrl, removedMeanwhile, uploadsBaseUrl, type AttachmentRecord } from './record.js';
import { isEmpty } from '../format/php.js';

/** Whether `src` (query ignored) ends with the path of the main file, the original upload or a generated size. */
function sourceMatches(src: string, metadata: ImageMetadata): boolean {
  const location = src.split('?')[0]!.split('#')[0]!;
  let decoded = location;
  try {
    decoded = decodeURI(location);
  } catch {
    // Keep the address as sent.
  }
  const folder = folderOf(metadata.file);
  const candidates = [metadata.file];
  if (metadata.original_image) candidates.push(joinKey(folder, metadata.original_image));
  for (const size of Object.values(metadata.sizes ?? {})) candidates.push(joinKey(folder, size.file));
  return metadata.file.length > 4 && candidates.some((candidate) => location.endsWith(candidate) || decoded.endsWith(candidate));
}

/** The modifiers asked for: `modifiers` when sent, else the older `rotation` and `x`/`y`/`width`/`height`. */
type EditParams = Params<typeof mediaEditArgs>;

function modifiersOf(params: EditParams): Modifier[] {
  if (params.modifiers !== undefined) return params.modifiers;
  const modifiers: Modifier[] = [];
  if (params.rotation !== undefined && params.rotation !== 0) modifiers.push({ type: 'rotate', args: { angle: params.rotation } });
  const { x: left, y: top, width, height } = params;
  if (left !== undefined && top !== undefined && width !== undefined && height !== undefined) {
    modifiers.push({ type: 'crop', args: { left, top, width, height } });
  }
  if (modifiers.length === 0) {
    throw new CmsError('rest_image_not_edited', 'The image was not edited. Edit the image before applying the changes.', 400);
  }
  return modifiers;
}

/** `name-edited` for a fresh edit; an earlier edit's `-edited-3` goes back to `-edited` (the unique name adds a number). */
function editedBaseName(originalKey: string): [string, string] {
  const [base, extension] = splitExtension(baseNameOf(originalKey));
  const edited = /-edited(-\d+)?$/.test(base) ? base.replace(/-edited(-\d+)?$/, '-edited') : `${base}-edited`;
  return [edited, extension];
}

/** Empty meta values of the new image are filled from the source's; the orientation is upright now. */
function mergedImageMeta(fresh: ImageMeta, source: ImageMeta | undefined): ImageMeta {
  const merged: ImageMeta = { ...fresh };
  if (source) {
    for (const key of Object.keys(fresh) as (keyof ImageMeta)[]) {
      const value = source[key];
      const current = merged[key];
      if (isEmpty(current) && !isEmpty(value)) (merged as unknown as Record<string, unknown>)[key] = value;
    }
  }
  if (merged.orientation !== '' && merged.orientation !== '0') merged.orientation = '1';
  return merged;
}

export async function editMedia(context: RequestContext<EditParams>, mediaType: MediaType): Promise<unknown> {
  await checkParentType(context, mediaType);
  const source = await requireAttachment(context, mediaType);
  const metadata = source.media_details;
  if (!isImageMetadata(metadata) || !sourceMatches(context.params.src, metadata)) {
    throw new CmsError('rest_unknown_attachment', 'Unable to get meta information for file.', 404);
  }
  if (!canEdit(source.mime_type)) throw new CmsError('rest_cannot_edit_file_type', 'This type of file cannot be edited.', 400);
  const modifiers = modifiersOf(context.params);

  const { blobs, uploads, storage, clock } = mediaType.deps;
  const originalKey = originalKeyOf(metadata);
  const original = await blobs.get(originalKey);
  if (!original) throw new CmsError('rest_unknown_image_file_type', 'Unable to edit this image.', 500);
  const [editedBase, extension] = editedBaseName(originalKey);
  const { images } = uploads;
  const output = outputFormatFor(source.mime_type, extension.slice(1), images, true);
  // One job makes the edited picture and the files of the new attachment made from it.
  let rendered: RenderResult;
  try {
    rendered = await images.work.render({
      bytes: original.bytes,
      type: source.mime_type,
      orientation: orientationOf(readImageMeta(original.bytes, source.mime_type)),
      edit: { modifiers, type: output.type, quality: images.jpegQuality },
      main: true,
      sizes: creationOrder(images.sizes),
      bigImageThreshold: images.bigImageThreshold,
      output: { type: outputFormatFor(output.type, output.extension, images, true).type, quality: images.jpegQuality },
    });
  } catch (error) {
    if (!(error instanceof ModifierError)) throw error;
    const code = { flip: 'rest_image_flip_failed', rotate: 'rest_image_rotation_failed', crop: 'rest_image_crop_failed' }[error.kind];
    throw new CmsError(code, `Unable to ${error.kind} this image: ${error.message}`, 400);
  }
  const bytes = rendered.edited!.bytes;
  const folder = monthFolder(nowDates(clock.now(), context.site).local);
  const key = await writeUnderFreeName({ storage, blobs }, { folder, fileName: `${editedBase}.${output.extension}`, bytes, contentType: output.type }, {
    alternateExtensions: alternateExtensions(output.type, uploads),
  });

  const scope = scopeOf(context, mediaType);
  let record: AttachmentRecord;
  try {
    const title = textOf(context.params.title);
    const caption = textOf(context.params.caption);
    const description = textOf(context.params.description);
    const parent = Math.max(0, context.params.post ?? 0);
    const altText = context.params.alt_text ?? source.alt_text ?? '';
    record = await scope.storage.transaction(async (tx) => {
      const saved = await savePost(null, {
        title: title ?? source.title,
        excerpt: caption ?? source.excerpt,
        content: description ?? source.content,
        status: 'inherit',
        parent,
        terms: {},
      }, scope.saveEnvironment(tx), 'create');
      const withFile = await attachmentsIn(tx).update(saved.id, {
        guid: fileUrl(uploadsBaseUrl(uploads, context.site), key), mime_type: output.type, file: key, media_details: {}, alt_text: altText,
      });
      return withFile ?? removedMeanwhile(saved.id);
    });
  } catch (error) {
    await blobs.remove(key).catch(() => undefined);
    throw error;
  }

  record = await generateMetadata(mediaType.deps, {
    id: record.id, key, type: output.type, bytes, header: { type: output.type, width: rendered.width, height: rendered.height },
    rendered, generateSubSizes: true, convertFormat: true,
  });
  const generated = record.media_details;
  if (isImageMetadata(generated)) {
    const finished: ImageMetadata = {
      ...generated,
      image_meta: mergedImageMeta(generated.image_meta, metadata.image_meta),
      parent_image: { attachment_id: String(source.id), file: originalKey },
    };
    record = (await attachmentsIn(storage).update(record.id, { media_details: finished })) ?? removedMeanwhile(record.id);
  }
  const prepared = await prepareAttachment(record, context, mediaType);
  return created(prepared, context.url(`/cms/v2/media/${record.id}`), { headers: { 'X-WP-Upload-Attachment-ID': record.id } });
}
