/** A rendering handed to a worker thread, and what it renders to on whichever thread runs it. */
import { renderContent } from '../content.js';
import { renderExcerpt } from '../excerpt.js';

/** `attachmentHtml`: an attachment's file link or image, placed before its content (description, caption). */
export type RenderJob =
  | { kind: 'content'; raw: string; attachmentHtml?: string | undefined }
  | { kind: 'excerpt'; excerpt: string; content: string; excerptLength: number | undefined; attachmentHtml?: string | undefined };

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
