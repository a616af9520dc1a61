/** The render worker thread: renders large content and generated excerpts, and sanitises large HTML, off the main thread. */
import { parentPort } from 'node:worker_threads';
import { isTextBytes, textBytes, textOfBytes, WHOLE_TEXT_CHARS } from '../../../core/chunked-text.js';
import type { WorkerReply } from '../../../core/worker-pool.js';
import { renderContent } from '../content.js';
import { runJob, type PoolJob } from './render-job.js';

const port = parentPort!;

// An excerpt job usually follows the content job of the same post: its teaser is that rendering.
let last = { raw: '', rendered: renderContent('') };
const rendered = (raw: string) => {
  if (raw !== last.raw) last = { raw, rendered: renderContent(raw) };
  return last.rendered;
};

/** The job with its long texts, sent as bytes, read back into strings. */
function received(message: Record<string, unknown>): PoolJob {
  const job: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(message)) job[name] = isTextBytes(value) ? textOfBytes(value) : value;
  return job as unknown as PoolJob;
}

port.on('message', ({ id, message }: { id: number; message: Record<string, unknown> }) => {
  let reply: WorkerReply;
  const transfer: ArrayBuffer[] = [];
  try {
    const text = runJob(received(message), rendered);
    if (text.length <= WHOLE_TEXT_CHARS) {
      reply = { id, ok: true, value: text };
    } else {
      // Copying a long string into the main thread would hold its loop; its bytes are handed over instead.
      const value = textBytes(text);
      if (value.bytes.byteLength === value.bytes.buffer.byteLength) transfer.push(value.bytes.buffer as ArrayBuffer);
      reply = { id, ok: true, value };
    }
  } catch (error) {
    reply = { id, ok: false, error: { name: (error as Error)?.name ?? 'Error', message: (error as Error)?.message ?? String(error) } };
  }
  port.postMessage(reply, transfer);
});

port.postMessage({ ready: true });
