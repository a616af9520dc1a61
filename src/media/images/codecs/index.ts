/** The codecs by name, each module loaded only when its codec is first used. */
import type { CodecName, ImageCodec } from './port.js';

export async function loadCodec(name: CodecName): Promise<ImageCodec> {
  if (name === 'sharp') return (await import('./sharp.js')).sharpCodec;
  return (await import('./image-js.js')).imageJsCodec;
}

export { CODEC_NAMES, type CodecName, type ImageCodec, type Picture } from './port.js';
