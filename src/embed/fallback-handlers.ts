/**
 * What the proxy answers when no provider knows a URL (the reference's built-in embed handlers): a YouTube
 * frame address is looked up again as its watch page; an audio or video file becomes the media shortcode the
 * host's renderer expands. The answer is `{provider_name: 'Embed Handler', html, scripts: []}`.
 */
import { escapeText, escapeUrl } from './escape.js';

const YOUTUBE_FRAME = /https?:\/\/(www.)?youtube\.com\/(?:v|embed)\/([^/]+)/i;
const AUDIO_FILE = /^https?:\/\/.+?\.(mp3|ogg|flac|m4a|wav)$/i;
const VIDEO_FILE = /^https?:\/\/.+?\.(mp4|m4v|webm|ogv|flv)$/i;

/** The reference's default embed size, used when the YouTube handler looks up the watch page. */
export const DEFAULT_EMBED_SIZE = { width: 500, height: 750 };

export interface FallbackRequest {
  url: string;
  /** The request's `maxwidth` and `maxheight` (0 when not given). */
  width: number;
  height: number;
  /** Looks a URL up at its provider; the `html` to serve, or null. */
  lookup(url: string, size: { width: number; height: number }): Promise<string | false | null>;
}

export async function fallbackEmbed(request: FallbackRequest): Promise<Record<string, unknown> | null> {
  const html = await handlerHtml(request);
  return html === null ? null : { provider_name: 'Embed Handler', html, scripts: [] };
}

async function handlerHtml({ url, width, height, lookup }: FallbackRequest): Promise<string | null> {
  const frame = YOUTUBE_FRAME.exec(url);
  if (frame) {
    const watch = `https://youtube.com/watch?v=${encodeURIComponent(frame[2]!)}`;
    const html = await lookup(watch, DEFAULT_EMBED_SIZE);
    return typeof html === 'string' && html !== '' ? html : `<a href="${escapeUrl(watch)}">${escapeText(watch)}</a>`;
  }
  if (AUDIO_FILE.test(url)) return `[audio src="${escapeUrl(url)}" /]`;
  if (VIDEO_FILE.test(url)) {
    const dimensions = width > 0 && height > 0 ? `width="${width}" height="${height}" ` : '';
    return `[video ${dimensions} src="${escapeUrl(url)}" /]`;
  }
  return null;
}
