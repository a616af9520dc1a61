/**
 * How the read routes fail: the reference's body keys (`success: false`, `message`) with a real HTTP status,
 * plus the `code` and `data.status` every error of this interface carries.
 */
import { reply } from '../core/response.js';
import type { HandlerResult } from '../core/context.js';

export class SliderFailure extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: 400 | 404, code: string, message: string) {
    super(message);
    this.name = 'SliderFailure';
    this.status = status;
    this.code = code;
  }

  toResult(): HandlerResult {
    return reply({ success: false, message: this.message, code: this.code, data: { status: this.status } }, { status: this.status });
  }
}

export const sliderNotFound = () => new SliderFailure(404, 'slider_not_found', 'Slider not found.');

export const aliasNotFound = (alias: string) =>
  new SliderFailure(404, 'slider_not_found', `Slider with alias ${alias} not found.`);

/** Runs a read handler, answering a `SliderFailure` in the reference's shape; anything else propagates. */
export async function answering(work: () => Promise<HandlerResult>): Promise<HandlerResult> {
  try {
    return await work();
  } catch (thrown) {
    if (thrown instanceof SliderFailure) return thrown.toResult();
    throw thrown;
  }
}
