/** What goes between the image work runner and its worker threads: jobs one way, errors as plain objects back. */
import type { CodecName } from './codecs/port.js';
import { ImageDecodeError } from './codec.js';
import { ModifierError } from './edit.js';
import type { RenderJob } from './render.js';

export interface ImageJobMessage {
  codec: CodecName;
  job: RenderJob;
}

/** An error as a structured-clone-safe object (no stack: it may not reach a client, and the host logs its own). */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof ModifierError) return { name: error.name, message: error.message, kind: error.kind };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** The error a worker described, as the class the callers check for. */
export function reviveError(described: Record<string, unknown>): Error {
  const message = String(described.message ?? 'The image could not be processed.');
  if (described.name === 'ImageDecodeError') return new ImageDecodeError(message);
  if (described.name === 'ModifierError') return new ModifierError(described.kind as ModifierError['kind'], message);
  return new Error(`Image worker: ${message}`);
}
