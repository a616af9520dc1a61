import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { assertBlobKey, assertBlobPrefix, BlobExistsError, type BlobInfo, type BlobStore } from '../../ports/blobs.js';
import { contentTypeForFileName } from '../../format/mime-types.js';

export interface FilesystemBlobStoreOptions {
  /** The folder that holds the blobs (the uploads folder); created when missing. */
  root: string;
  /** The content type a stored file is served with; default: from its extension. */
  contentTypeOf?: (key: string) => string;
}

const TEMPORARY_PREFIX = '.quire-tmp-';

/**
 * Blobs as files below one folder, keyed by their relative path (`2024/05/photo.jpg`), so a web server can serve
 * the folder as it is. Writes go to a temporary file that is renamed into place.
 */
export function createFilesystemBlobStore(options: FilesystemBlobStoreOptions): BlobStore {
  const root = resolve(options.root);
  const contentTypeOf = options.contentTypeOf ?? contentTypeForFileName;

  function pathOf(key: string): string {
    assertBlobKey(key);
    const path = resolve(root, ...key.split('/'));
    // Keys are checked segment by segment already; this is the last line of defence.
    if (!path.startsWith(root + sep)) throw new Error(`Blob key escapes the store: ${key}`);
    return path;
  }

  async function walk(folder: string, relative: string, prefix: string, into: BlobInfo[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(TEMPORARY_PREFIX)) continue;
      const key = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(join(folder, entry.name), key, prefix, into);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        const info = await stat(join(folder, entry.name));
        into.push({ key, size: info.size, contentType: contentTypeOf(key) });
      }
    }
  }

  /** Writes `bytes` to a temporary file beside `key`'s and moves it into place with `place`. */
  async function writeThrough(key: string, bytes: Uint8Array, place: (temporary: string, path: string) => Promise<void>): Promise<void> {
    const path = pathOf(key);
    const folder = resolve(path, '..');
    await mkdir(folder, { recursive: true });
    const temporary = join(folder, `${TEMPORARY_PREFIX}${randomBytes(8).toString('hex')}`);
    try {
      await writeFile(temporary, bytes, { flag: 'wx' });
      await place(temporary, path);
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }

  return {
    put: (key, bytes) => writeThrough(key, bytes, rename),
    // A hard link never replaces an existing name, so creating is one step, and readers still see whole files.
    create: (key, bytes) => writeThrough(key, bytes, async (temporary, path) => {
      try {
        await link(temporary, path);
      } catch (error) {
        if ((error as { code?: string }).code === 'EEXIST') throw new BlobExistsError(key);
        throw error;
      }
    }),
    async get(key) {
      const path = pathOf(key);
      try {
        const bytes = new Uint8Array(await readFile(path));
        return { key, size: bytes.byteLength, contentType: contentTypeOf(key), bytes };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async remove(key) {
      try {
        await unlink(pathOf(key));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async list(prefix) {
      assertBlobPrefix(prefix);
      const slash = prefix.lastIndexOf('/');
      const start = slash === -1 ? '' : prefix.slice(0, slash);
      const found: BlobInfo[] = [];
      await walk(start === '' ? root : pathOf(start), start, prefix, found);
      return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
