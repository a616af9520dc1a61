/** A job handed to a worker thread (a rendering, or sanitising), and what it makes on whichever thread runs it. */
import { sanitizePostHtml, sanitizeTitleHtml } from '../../../format/kses/sanitize.js';
import { renderContent } from '../content.js';
import { renderExcerpt } from '../excerpt.js';

/** `attachmentHtml`: an attachment's file link or image, placed before its content (description, caption). */
export type RenderJob =
  | { kind: 'content'; raw: string; attachmentHtml?: string | undefined }
  | { kind: 'excerpt'; excerpt: string; content: string; excerptLength: number | undefined; attachmentHtml?: string | undefined };

/**
 * HTML of a user without `unfiltered_html`, sanitised before it is stored by the rules of post content and
 * excerpts (`post`) or of titles (`title`).
 */
export interface SanitizeJob { kind: 'sanitize'; rules: 'post' | 'title'; html: string }

export type PoolJob = RenderJob | SanitizeJob;

/**
 * `renderTeaser` renders plain content (it may be a cache); an attachment's text carries its file markup, so it
 * is rendered with it instead.
 */
export function renderJob(job: RenderJob, renderTeaser: (text: string) => string): string {
  const { attachmentHtml } = job;
  if (job.kind === 'content') return attachmentHtml === undefined ? renderTeaser(job.raw) : renderContent(job.raw, { attachmentHtml });
  return renderExcerpt(job.excerpt, job.content, {
    excerptLength: job.excerptLength, attachmentHtml, renderTeaser: attachmentHtml === undefined ? renderTeaser : undefined,
  });
}

/** What any pool job makes. */
export function runJob(job: PoolJob, renderTeaser: (text: string) => string): string {
  if (job.kind !== 'sanitize') return renderJob(job, renderTeaser);
  return job.rules === 'post' ? sanitizePostHtml(job.html) : sanitizeTitleHtml(job.html);
}
