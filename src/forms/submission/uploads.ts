/**
 * Uploaded files: the file rules of the schema (required, types, size) per field, then the bytes are sniffed, so
 * a file whose content is not what its name claims (an executable named `.png`, a script, HTML) is refused as a
 * file of a forbidden type. Accepted files live only in memory, for the mail attachment.
 */
import { createHash } from 'node:crypto';
import { checkFileType, sniffContent } from '../../media/index.js';
import { allowedMimeTypes } from '../../format/mime-types.js';
import type { FormModel } from '../form-model.js';
import { validateSchema, type SwvInput, type SwvRule } from '../swv/index.js';
import type { FormTag } from '../tags/form-tag.js';
import { canonicalize } from '../text.js';
import type { IncomingUpload, SubmissionInput } from './input.js';

export interface AcceptedUpload {
  field: string;
  name: string;
  type: string;
  size: number;
  bytes: Uint8Array;
  sha256: string;
}

export interface UploadCheck {
  /** Field → [tag, message] of the first failure. */
  invalid: Map<string, [FormTag, string]>;
  accepted: Map<string, AcceptedUpload[]>;
}

/** Types an upload may never be, whatever a form's `filetypes:` says. */
const UPLOADABLE = allowedMimeTypes(false);
const DANGEROUS_CONTENT = new Set(['executable', 'script', 'html', 'svg']);
const SCRIPT_EXTENSION = /^(php|phtml|pl|py|rb|cgi|asp|aspx)\d?$/i;

/** The plugin's safe file name: path and risky characters removed, script extensions defused. */
export function safeFileName(raw: string): string {
  let name = canonicalize(raw, { case: 'as-is' });
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  name = name.replace(/[?[\]/\\=<>:;,'"&$#*()|~`!{}%+\u2019\u00ab\u00bb\u201d\u201c\0]/g, '');
  name = name.replace(/[\r\n\t -]+/g, '-').replace(/[\p{C}\p{Z}]+/gu, '');
  const parts = name.split('.');
  if (parts.length < 2) return name;
  const head = parts.shift()!;
  const extension = parts.pop()!;
  const middle = parts.map((part) => (SCRIPT_EXTENSION.test(part) ? `.${part}_` : `.${part}`)).join('');
  return `${head}${middle}.${extension}${SCRIPT_EXTENSION.test(extension) ? '_.txt' : ''}`;
}

/** The content check of one upload: null when refused. */
function sniffed(upload: IncomingUpload): { name: string; type: string } | null {
  const name = safeFileName(upload.filename);
  if (upload.bytes.byteLength === 0) return { name, type: 'application/octet-stream' };
  const check = checkFileType(name, upload.bytes, UPLOADABLE);
  if (check.ok) return { name: check.fileName, type: check.type };
  if (check.reason !== 'type-not-allowed') return null;
  // An extension the upload table does not know (allowed by the form's own `filetypes:`) may hold anything but
  // content that runs or renders.
  if (/\.(exe|swf|htm|html|js|svg|svgz|xhtml|php\d?|phtml)$/i.test(name)) return null;
  return DANGEROUS_CONTENT.has(sniffContent(upload.bytes)) ? null : { name, type: 'application/octet-stream' };
}

/** `typeError` is the form's filtered `upload_file_type_invalid` message. */
export function checkUploads(
  model: FormModel, input: SubmissionInput, rules: readonly SwvRule[], swvInput: SwvInput, typeError: string,
): UploadCheck {
  const invalid = new Map<string, [FormTag, string]>();
  const accepted = new Map<string, AcceptedUpload[]>();
  for (const tag of model.tags.filter((candidate) => candidate.basetype === 'file' && candidate.name !== '')) {
    if (!input.files.has(tag.name)) continue;
    const failures = new Map<string, string>();
    validateSchema(rules, swvInput, { text: false, file: true, fields: [tag.name] }, failures);
    const failure = failures.get(tag.name);
    if (failure !== undefined) {
      if (!invalid.has(tag.name)) invalid.set(tag.name, [tag, failure]);
      continue;
    }
    const files: AcceptedUpload[] = [];
    let refused = false;
    for (const upload of input.files.get(tag.name)!.filter((file) => file.filename !== '')) {
      const checked = sniffed(upload);
      if (!checked) {
        refused = true;
        break;
      }
      files.push({
        field: tag.name, name: checked.name, type: checked.type, size: upload.bytes.byteLength, bytes: upload.bytes,
        sha256: createHash('sha256').update(upload.bytes).digest('hex'),
      });
    }
    if (refused) {
      if (!invalid.has(tag.name)) invalid.set(tag.name, [tag, typeError]);
      continue;
    }
    accepted.set(tag.name, files);
  }
  return { invalid, accepted };
}
