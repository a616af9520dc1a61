/**
 * The reference's `wp_unique_filename` over a blob store: a taken name gets `-1`, `-2`, ...; a name that looks
 * like a generated file (`-300x200`, `-scaled`, `-rotated`) always gets a number; a name is also taken when an
 * existing image's generated files would collide with it, or when the name with the extension its sub-sizes
 * will be converted to is taken.
 */
import type { BlobStore } from '../../ports/blobs.js';
import { splitExtension } from './file-name.js';

const GENERATED_SUFFIX = /-(?:\d+x\d+|scaled|rotated)$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface UniqueNameOptions {
  /** Other extensions (with the dot) the file's generated sizes may be written with; their names must be free too. */
  alternateExtensions?: readonly string[];
  /** Names (in the folder, with extension) to treat as taken though the store does not list them. */
  taken?: ReadonlySet<string> | readonly string[];
}

/**
 * A free name for `fileName` (already sanitised) in the folder `folder` (`2024/05`, or `''` for the top).
 * Extensions come back lower-cased.
 */
export async function uniqueFileName(blobs: BlobStore, folder: string, fileName: string, options: UniqueNameOptions = {}): Promise<string> {
  const [base, rawExtension] = splitExtension(fileName);
  const extension = rawExtension.toLowerCase();
  const prefix = folder === '' ? '' : `${folder}/`;
  const existing = new Set((await blobs.list(prefix)).map((blob) => blob.key.slice(prefix.length)).filter((name) => !name.includes('/')));
  for (const name of options.taken ?? []) existing.add(name);
  const extensions = [extension, ...(options.alternateExtensions ?? []).filter((alternate) => alternate !== extension)];

  const collides = (candidateBase: string): boolean => {
    for (const candidateExtension of extensions) {
      if (existing.has(`${candidateBase}${candidateExtension}`)) return true;
      if (candidateBase === '' || candidateExtension === '') continue;
      const generated = new RegExp(`^${escapeRegExp(candidateBase)}-(?:\\d+x\\d+|scaled|rotated)${escapeRegExp(candidateExtension)}$`, 'i');
      for (const name of existing) if (generated.test(name)) return true;
    }
    return false;
  };

  let number = base !== '' && GENERATED_SUFFIX.test(base) ? 1 : 0;
  const candidate = () => (number === 0 ? base : `${base}-${number}`);
  // Bounded: each round removes one existing name from the possibilities.
  for (let round = 0; round <= existing.size + 1 && collides(candidate()); round++) number++;
  return `${candidate()}${extension}`;
}
