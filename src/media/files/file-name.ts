/**
 * File names as the reference stores them (`sanitize_file_name`): accents transliterated, characters that are
 * special in paths, URLs or shells removed, white space turned into `-`, dots and dashes trimmed from the ends,
 * and inner "extensions" that are not allowed types defused with a trailing `_` (`x.php.jpg` → `x.php_.jpg`).
 * Beyond the reference, control characters and bidirectional overrides are removed too, and the result is
 * capped in length.
 */
import { removeAccents } from '../../format/slug.js';
import { fileTypeOf, MIME_TYPES, type MimeTable } from '../../format/mime-types.js';
import { phpTrim } from '../../format/php.js';

const SPECIAL_CHARACTERS = [
  '?', '[', ']', '/', '\\', '=', '<', '>', ':', ';', ',', "'", '"', '&', '$', '#', '*', '(', ')', '|', '~', '`', '!',
  '{', '}', '%', '+', '\u2019', '\u00ab', '\u00bb', '\u201d', '\u201c',
];
// eslint-disable-next-line no-control-regex
const CONTROL_AND_BIDI = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const MAX_NAME_LENGTH = 200;

/** Shortens the base name so the whole name fits, keeping the extension. */
function capLength(fileName: string): string {
  if (fileName.length <= MAX_NAME_LENGTH) return fileName;
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot) : '';
  return phpTrim(fileName.slice(0, MAX_NAME_LENGTH - extension.length), '.-_') + extension;
}

export function sanitizeFileName(raw: string, allowed: MimeTable = MIME_TYPES): string {
  let name = removeAccents(raw).replace(CONTROL_AND_BIDI, '');
  name = name.replace(/\u00a0/g, ' ');
  for (const character of SPECIAL_CHARACTERS) name = name.replaceAll(character, '');
  name = name.replaceAll('%20', '-').replaceAll('+', '-');
  name = name.replace(/[\r\n\t -]+/g, '-');
  name = phpTrim(name, '.-_');

  if (!name.includes('.')) {
    // A bare extension ("jpg") becomes a name of its own.
    const asExtension = fileTypeOf(`test.${name}`, MIME_TYPES);
    if (asExtension && asExtension.ext === name) name = `unnamed-file.${asExtension.ext}`;
  }

  const parts = name.split('.');
  if (parts.length <= 2) return capLength(name);

  const extension = parts.pop()!;
  let result = parts.shift()!;
  for (const part of parts) {
    result += `.${part}`;
    if (/^[a-zA-Z]{2,5}\d?$/.test(part) && !fileTypeOf(`x.${part}`, allowed)) result += '_';
  }
  return capLength(`${result}.${extension}`);
}

/** Splits `name.ext` into `name` and `.ext` (the extension empty when there is none). */
export function splitExtension(fileName: string): [base: string, extension: string] {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0) return [fileName, ''];
  return [fileName.slice(0, dot), fileName.slice(dot)];
}
