/**
 * Deciding an upload's type: the name's extension must be allowed, and the bytes must be what the extension
 * claims. An image whose bytes are another common image type keeps its content and gets the right extension
 * (`photo.png` holding a JPEG becomes `photo.jpg`), as the reference does; any other mismatch is refused.
 */
import { fileTypeOf, type MimeTable } from '../../format/mime-types.js';
import { IMAGE_EXTENSION_FOR, isImageKind, sniffContent, type SniffedKind } from './sniff.js';

/** The kinds of content each type may hold. Types not listed accept only content no signature recognises. */
const EXPECTED_KINDS: Readonly<Record<string, readonly SniffedKind[]>> = {
  'text/plain': ['text'],
  'text/csv': ['text'],
  'text/tab-separated-values': ['text'],
  'text/calendar': ['text'],
  'text/richtext': ['text'],
  'text/css': ['text'],
  'text/vtt': ['text'],
  'text/html': ['html', 'text', 'svg', 'xml'],
  'application/javascript': ['text', 'script'],
  'application/ttaf+xml': ['xml', 'text'],
  'application/rtf': ['rtf'],
  'application/pdf': ['pdf'],
  'application/zip': ['zip'],
  'application/x-tar': ['tar'],
  'application/x-gzip': ['gzip'],
  'application/rar': ['rar'],
  'application/x-7z-compressed': ['7z'],
  'application/java': ['java-class'],
  'application/msword': ['ole'],
  'application/vnd.ms-powerpoint': ['ole'],
  'application/vnd.ms-excel': ['ole'],
  'application/vnd.ms-project': ['ole'],
  'application/onenote': ['unknown'],
  'audio/mpeg': ['mp3', 'iso-media'],
  'audio/aac': ['aac', 'iso-media'],
  'audio/x-realaudio': ['realmedia', 'text'],
  'audio/wav': ['wav'],
  'audio/ogg': ['ogg'],
  'audio/flac': ['flac'],
  'audio/midi': ['midi'],
  'audio/x-ms-wma': ['asf'],
  'audio/x-ms-wax': ['xml', 'text'],
  'audio/x-matroska': ['matroska'],
  'video/x-ms-asf': ['asf', 'xml', 'text'],
  'video/x-ms-wmv': ['asf'],
  'video/x-ms-wm': ['asf'],
  'video/x-ms-wmx': ['xml', 'text'],
  'video/avi': ['avi'],
  'video/divx': ['avi'],
  'video/x-flv': ['flv'],
  'video/quicktime': ['iso-media'],
  'video/mpeg': ['mpeg'],
  'video/mp4': ['iso-media'],
  'video/ogg': ['ogg'],
  'video/webm': ['matroska'],
  'video/x-matroska': ['matroska'],
  'video/3gpp': ['iso-media'],
  'video/3gpp2': ['iso-media'],
};

/** Open XML, OpenDocument, iWork and XPS documents are ZIP archives. */
const ZIP_BASED = /^application\/(vnd\.openxmlformats|vnd\.ms-(word|excel|powerpoint)\..*macroEnabled|vnd\.ms-excel\.sheet\.binary|vnd\.oasis\.opendocument|vnd\.apple\.|oxps$|vnd\.ms-xpsdocument$)/;

function expectedKinds(type: string, ext: string): readonly SniffedKind[] {
  if (type.startsWith('image/')) return [type as SniffedKind];
  if (ZIP_BASED.test(type)) return ['zip'];
  if (type === 'application/octet-stream') return ext.toLowerCase() === 'psd' ? ['psd'] : ext.toLowerCase() === 'xcf' ? ['xcf'] : ['unknown'];
  return EXPECTED_KINDS[type] ?? ['unknown'];
}

export type TypeCheck =
  | { ok: true; fileName: string; ext: string; type: string; sniffed: SniffedKind }
  | { ok: false; reason: 'empty' | 'type-not-allowed' | 'content-mismatch'; message: string };

/** Replaces whatever follows the last dot. */
function withExtension(fileName: string, ext: string): string {
  const dot = fileName.lastIndexOf('.');
  return `${dot === -1 ? fileName : fileName.slice(0, dot)}.${ext}`;
}

export function checkFileType(fileName: string, bytes: Uint8Array, allowed: MimeTable): TypeCheck {
  if (bytes.byteLength === 0) {
    return { ok: false, reason: 'empty', message: 'File is empty. Please upload something more substantial.' };
  }
  const claimed = fileTypeOf(fileName, allowed);
  if (!claimed) {
    return { ok: false, reason: 'type-not-allowed', message: 'Sorry, you are not allowed to upload this file type.' };
  }
  const sniffed = sniffContent(bytes);
  if (claimed.type.startsWith('image/') && isImageKind(sniffed) && sniffed !== claimed.type) {
    const correctExtension = IMAGE_EXTENSION_FOR[sniffed];
    const corrected = correctExtension ? fileTypeOf(withExtension(fileName, correctExtension), allowed) : null;
    if (corrected) {
      return { ok: true, fileName: withExtension(fileName, correctExtension!), ext: corrected.ext, type: corrected.type, sniffed };
    }
  }
  if (!expectedKinds(claimed.type, claimed.ext).includes(sniffed)) {
    return {
      ok: false,
      reason: 'content-mismatch',
      message: `The file's content does not match its type (${claimed.type}).`,
    };
  }
  return { ok: true, fileName, ext: claimed.ext, type: claimed.type, sniffed };
}
