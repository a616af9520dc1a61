/** The image worker thread: runs render jobs with the codec each job names and hands the files back. */
import { parentPort } from 'node:worker_threads';
import { loadCodec } from '../codecs/index.js';
import { render, resultBuffers } from '../render.js';
import { describeError, type ImageJobMessage } from '../work-protocol.js';
import type { WorkerReply } from '../../../core/worker-pool.js';
import { lowerThreadPriority } from './priority.js';

const port = parentPort!;
lowerThreadPriority();

port.on('message', async ({ id, message }: { id: number; message: ImageJobMessage }) => {
  let reply: WorkerReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const result = await render(message.job, await loadCodec(message.codec));
    reply = { id, ok: true, value: result };
    transfer = resultBuffers(result);
  } catch (error) {
    reply = { id, ok: false, error: describeError(error) };
  }
  port.postMessage(reply, transfer);
});

port.postMessage({ ready: true });
