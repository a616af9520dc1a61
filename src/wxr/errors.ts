import { CmsError } from '../core/errors.js';

/** Why a WXR file was refused. */
export type WxrErrorCode =
  /** Not well-formed XML, or XML that is not a WordPress export (`<rss><channel>` with `wp:wxr_version`). */
  | 'wxr_parse_error'
  /** Well-formed, but an element the import needs is missing or holds an impossible value. */
  | 'wxr_invalid'
  /** Past one of the import's limits (file size, item size, item count, element depth). */
  | 'wxr_too_large';

/**
 * A refused WXR file. `line` is the 1-based line of the file where the problem is (0 when it concerns the file
 * as a whole); the message already names it. Nothing of a refused file is kept.
 */
export class WxrError extends CmsError {
  readonly line: number;

  constructor(code: WxrErrorCode, message: string, line: number) {
    super(code, line > 0 ? `line ${line}: ${message}` : message, code === 'wxr_too_large' ? 413 : 400, { line });
    this.name = 'WxrError';
    this.line = line;
  }
}

export function isWxrError(error: unknown): error is WxrError {
  return error instanceof WxrError;
}
