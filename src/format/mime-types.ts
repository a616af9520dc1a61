/**
 * File types by extension, in the reference's order (the first pattern that matches a name wins). Keys are
 * `|`-separated extension lists.
 */
export type MimeTable = Readonly<Record<string, string>>;

export const MIME_TYPES: MimeTable = Object.freeze({
  // Images.
  'jpg|jpeg|jpe': 'image/jpeg',
  gif: 'image/gif',
  png: 'image/png',
  bmp: 'image/bmp',
  'tiff|tif': 'image/tiff',
  webp: 'image/webp',
  ico: 'image/x-icon',
  heic: 'image/heic',
  // Video.
  'asf|asx': 'video/x-ms-asf',
  wmv: 'video/x-ms-wmv',
  wmx: 'video/x-ms-wmx',
  wm: 'video/x-ms-wm',
  avi: 'video/avi',
  divx: 'video/divx',
  flv: 'video/x-flv',
  'mov|qt': 'video/quicktime',
  'mpeg|mpg|mpe': 'video/mpeg',
  'mp4|m4v': 'video/mp4',
  ogv: 'video/ogg',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  '3gp|3gpp': 'video/3gpp',
  '3g2|3gp2': 'video/3gpp2',
  // Text.
  'txt|asc|c|cc|h|srt': 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  ics: 'text/calendar',
  rtx: 'text/richtext',
  css: 'text/css',
  'htm|html': 'text/html',
  vtt: 'text/vtt',
  dfxp: 'application/ttaf+xml',
  // Audio.
  'mp3|m4a|m4b': 'audio/mpeg',
  aac: 'audio/aac',
  'ra|ram': 'audio/x-realaudio',
  wav: 'audio/wav',
  'ogg|oga': 'audio/ogg',
  flac: 'audio/flac',
  'mid|midi': 'audio/midi',
  wma: 'audio/x-ms-wma',
  wax: 'audio/x-ms-wax',
  mka: 'audio/x-matroska',
  // Other application formats.
  rtf: 'application/rtf',
  js: 'application/javascript',
  pdf: 'application/pdf',
  swf: 'application/x-shockwave-flash',
  class: 'application/java',
  tar: 'application/x-tar',
  zip: 'application/zip',
  'gz|gzip': 'application/x-gzip',
  rar: 'application/rar',
  '7z': 'application/x-7z-compressed',
  exe: 'application/x-msdownload',
  psd: 'application/octet-stream',
  xcf: 'application/octet-stream',
  // Office documents.
  doc: 'application/msword',
  'pot|pps|ppt': 'application/vnd.ms-powerpoint',
  wri: 'application/vnd.ms-write',
  'xla|xls|xlt|xlw': 'application/vnd.ms-excel',
  mdb: 'application/vnd.ms-access',
  mpp: 'application/vnd.ms-project',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  docm: 'application/vnd.ms-word.document.macroEnabled.12',
  dotx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.template',
  dotm: 'application/vnd.ms-word.template.macroEnabled.12',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroEnabled.12',
  xlsb: 'application/vnd.ms-excel.sheet.binary.macroEnabled.12',
  xltx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.template',
  xltm: 'application/vnd.ms-excel.template.macroEnabled.12',
  xlam: 'application/vnd.ms-excel.addin.macroEnabled.12',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  pptm: 'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
  ppsx: 'application/vnd.openxmlformats-officedocument.presentationml.slideshow',
  ppsm: 'application/vnd.ms-powerpoint.slideshow.macroEnabled.12',
  potx: 'application/vnd.openxmlformats-officedocument.presentationml.template',
  potm: 'application/vnd.ms-powerpoint.template.macroEnabled.12',
  ppam: 'application/vnd.ms-powerpoint.addin.macroEnabled.12',
  sldx: 'application/vnd.openxmlformats-officedocument.presentationml.slide',
  sldm: 'application/vnd.ms-powerpoint.slide.macroEnabled.12',
  'onetoc|onetoc2|onetmp|onepkg': 'application/onenote',
  oxps: 'application/oxps',
  xps: 'application/vnd.ms-xpsdocument',
  // OpenDocument.
  odt: 'application/vnd.oasis.opendocument.text',
  odp: 'application/vnd.oasis.opendocument.presentation',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odg: 'application/vnd.oasis.opendocument.graphics',
  odc: 'application/vnd.oasis.opendocument.chart',
  odb: 'application/vnd.oasis.opendocument.database',
  odf: 'application/vnd.oasis.opendocument.formula',
  // WordPerfect.
  'wp|wpd': 'application/wordperfect',
  // iWork.
  key: 'application/vnd.apple.keynote',
  numbers: 'application/vnd.apple.numbers',
  pages: 'application/vnd.apple.pages',
});

/** Never uploadable. */
const ALWAYS_EXCLUDED = ['swf', 'exe'];
/** Uploadable only by users who may post unfiltered HTML. */
const UNFILTERED_ONLY = ['htm|html', 'js'];

/** The reference's `get_allowed_mime_types`: the table less executables, and less HTML/JS for most users. */
export function allowedMimeTypes(canPostUnfilteredHtml: boolean, table: MimeTable = MIME_TYPES): MimeTable {
  const allowed: Record<string, string> = {};
  for (const [extensions, type] of Object.entries(table)) {
    if (ALWAYS_EXCLUDED.includes(extensions)) continue;
    if (!canPostUnfilteredHtml && UNFILTERED_ONLY.includes(extensions)) continue;
    allowed[extensions] = type;
  }
  return allowed;
}

export interface FileType {
  /** The extension as it appears in the name (case kept). */
  ext: string;
  type: string;
}

/** The reference's `wp_check_filetype`: the first entry whose extension list ends the name. */
export function fileTypeOf(fileName: string, table: MimeTable = MIME_TYPES): FileType | null {
  const dot = fileName.lastIndexOf('.');
  if (dot === -1) return null;
  const extension = fileName.slice(dot + 1);
  const lower = extension.toLowerCase();
  for (const [extensions, type] of Object.entries(table)) {
    if (extensions.split('|').includes(lower)) return { ext: extension, type };
  }
  return null;
}

/** The content type to serve a stored file with: from its extension, else `application/octet-stream`. */
export function contentTypeForFileName(fileName: string): string {
  return fileTypeOf(fileName)?.type ?? 'application/octet-stream';
}

/** The first extension the table lists for a type (`image/jpeg` → `jpg`). */
export function defaultExtensionFor(type: string, table: MimeTable = MIME_TYPES): string | null {
  for (const [extensions, candidate] of Object.entries(table)) {
    if (candidate === type) return extensions.split('|')[0]!;
  }
  return null;
}

/** Allowed types grouped by their top-level part (`image` → [`image/jpeg`, ...]), as the media list filters use. */
export function mediaTypeGroups(table: MimeTable): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const type of Object.values(table)) {
    const group = type.slice(0, type.indexOf('/'));
    const members = groups.get(group) ?? [];
    if (!members.includes(type)) members.push(type);
    groups.set(group, members);
  }
  return groups;
}
