import { encodeResponse } from '../../src/core/encode.js';
import type { CmsResponse } from '../../src/core/types.js';

/** Statuses of 500 and above that the reference documents for client requests, with their codes. */
export const DOCUMENTED_SERVER_ERRORS: readonly { status: number; code: string }[] = [
  // Deleting a revision without force=true (revisions cannot be trashed): decisions.md, resources.md.
  { status: 501, code: 'rest_trash_not_supported' },
];

/** The longest a single request may take: CPU time of the process while it runs (see runCase). */
export const MAX_REQUEST_MS = 2000;

export interface Violation {
  kind: 'server-error' | 'error-shape' | 'unreadable-body' | 'prototype-changed' | 'too-slow' | 'unexpected-error' | 'threw'
    | 'crashed' | 'unencodable';
  detail: string;
  /** What groups equal failures: the kind, and whatever tells this failure apart from others of that kind. */
  signature: string;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

function isJsonType(contentType: string | undefined): boolean {
  return contentType === undefined || /^application\/json\b/i.test(contentType);
}

/** The JSON value of a body as a client would read it, or undefined when there is none (HEAD, 204). */
export function readBody(response: CmsResponse): { value: unknown; problem?: string } {
  const type = response.headers['Content-Type'];
  const { body } = response;
  if (body === null || body === undefined) return { value: undefined };
  const text = body instanceof Uint8Array ? decoder.decode(body) : typeof body === 'string' ? body : null;
  if (text === null) return { value: body };
  if (/^application\/javascript\b/i.test(type ?? '')) {
    const wrapped = /^\/\*\*\/[\w.]+\(([\s\S]*)\)$/.exec(text);
    if (!wrapped) return { value: undefined, problem: `JavaScript answer that is not a callback call: ${text.slice(0, 120)}` };
    return parseJson(wrapped[1]!);
  }
  if (!isJsonType(type)) return { value: undefined };
  return parseJson(text);
}

function parseJson(text: string): { value: unknown; problem?: string } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { value: undefined, problem: `not JSON: ${text.slice(0, 120)}` };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{code, message, data: {status}}` with `data.status` equal to the answer's status. */
function errorShapeProblem(body: unknown, status: number): string | null {
  if (!isRecord(body)) return `error body is not an object: ${JSON.stringify(body)?.slice(0, 120)}`;
  if (typeof body.code !== 'string' || body.code === '') return `error body without a code: ${JSON.stringify(body).slice(0, 160)}`;
  if (typeof body.message !== 'string') return `error body without a message: ${JSON.stringify(body).slice(0, 160)}`;
  if (!isRecord(body.data)) return `error ${body.code} without data: ${JSON.stringify(body).slice(0, 160)}`;
  if (body.data.status !== status) return `error ${body.code} with data.status ${JSON.stringify(body.data.status)} on a ${status}`;
  return null;
}

function codeOf(body: unknown): string {
  return isRecord(body) && typeof body.code === 'string' ? body.code : '-';
}

/** Checks one answer (status, then error body shape), descending into envelopes and batch responses. */
function checkAnswer(status: number, body: unknown, where: string, violations: Violation[]): void {
  if (status >= 500 && !DOCUMENTED_SERVER_ERRORS.some((known) => known.status === status && known.code === codeOf(body))) {
    violations.push({ kind: 'server-error', detail: `${where}${status} ${JSON.stringify(body)?.slice(0, 200)}`, signature: `${status} ${codeOf(body)}` });
  }
  if (status >= 400 && body !== undefined) {
    const problem = errorShapeProblem(body, status);
    if (problem) violations.push({ kind: 'error-shape', detail: `${where}${problem}`, signature: `${status} ${codeOf(body)}` });
  }
  if (!isRecord(body)) return;
  if (status === 207 && Array.isArray(body.responses)) {
    body.responses.forEach((inner, index) => {
      if (isRecord(inner) && typeof inner.status === 'number') checkAnswer(inner.status, inner.body, `${where}batch item ${index}: `, violations);
    });
  }
  const keys = Object.keys(body).sort().join();
  if (keys === 'body,headers,status' && typeof body.status === 'number') checkAnswer(body.status, body.body, `${where}envelope: `, violations);
}

/** Everything checked about one response: status, error shape, encodability. */
export function checkResponse(response: CmsResponse): Violation[] {
  const violations: Violation[] = [];
  try {
    encodeResponse(response);
  } catch (error) {
    violations.push({ kind: 'unencodable', detail: String(error), signature: String(error).slice(0, 80) });
  }
  const { value, problem } = readBody(response);
  if (problem) violations.push({ kind: 'unreadable-body', detail: problem, signature: String(response.status) });
  const javascript = /^application\/javascript\b/i.test(response.headers['Content-Type'] ?? '');
  if (javascript && isRecord(response.body) && !(response.body instanceof Uint8Array)) {
    // The reference's JSONP callback errors carry no `data` (server.md), and are JavaScript, not JSON errors.
    if (!['rest_callback_invalid', 'rest_callback_disabled'].includes(codeOf(response.body)) || response.status !== 400) {
      violations.push({ kind: 'error-shape', detail: `JavaScript answer ${response.status} with ${JSON.stringify(response.body).slice(0, 160)}`, signature: 'jsonp' });
    }
    return violations;
  }
  checkAnswer(response.status, value, '', violations);
  return violations;
}

type Snapshot = Map<object, Map<string | symbol, PropertyDescriptor>>;

const WATCHED: readonly [string, object][] = [
  ['Object.prototype', Object.prototype], ['Array.prototype', Array.prototype], ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype], ['Number.prototype', Number.prototype], ['Boolean.prototype', Boolean.prototype],
  ['RegExp.prototype', RegExp.prototype], ['Date.prototype', Date.prototype], ['Map.prototype', Map.prototype],
  ['Set.prototype', Set.prototype], ['Promise.prototype', Promise.prototype], ['Error.prototype', Error.prototype],
];

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return a.value === b.value && a.get === b.get && a.set === b.set && a.writable === b.writable
    && a.enumerable === b.enumerable && a.configurable === b.configurable;
}

/** Watches the built-in prototypes: reports any change since the snapshot, and undoes it. */
export class PrototypeGuard {
  readonly #snapshot: Snapshot = new Map();
  readonly #parents = new Map<object, object | null>();

  constructor() {
    for (const [, prototype] of WATCHED) {
      const descriptors = new Map<string | symbol, PropertyDescriptor>();
      for (const key of Reflect.ownKeys(prototype)) descriptors.set(key, Reflect.getOwnPropertyDescriptor(prototype, key)!);
      this.#snapshot.set(prototype, descriptors);
      this.#parents.set(prototype, Object.getPrototypeOf(prototype));
    }
  }

  /** The changes found (empty when none); every change is undone before returning. */
  check(): Violation[] {
    const violations: Violation[] = [];
    for (const [name, prototype] of WATCHED) {
      const before = this.#snapshot.get(prototype)!;
      for (const key of Reflect.ownKeys(prototype)) {
        const now = Reflect.getOwnPropertyDescriptor(prototype, key)!;
        const was = before.get(key);
        if (was && sameDescriptor(was, now)) continue;
        const shown = `${name}.${String(key)}`;
        violations.push({ kind: 'prototype-changed', detail: `${shown} ${was ? 'changed' : 'added'}: ${String(now.value).slice(0, 80)}`, signature: shown });
        Reflect.deleteProperty(prototype, key);
        if (was) Reflect.defineProperty(prototype, key, was);
      }
      for (const [key, was] of before) {
        if (Reflect.getOwnPropertyDescriptor(prototype, key)) continue;
        violations.push({ kind: 'prototype-changed', detail: `${name}.${String(key)} removed`, signature: `${name}.${String(key)}` });
        Reflect.defineProperty(prototype, key, was);
      }
      if (Object.getPrototypeOf(prototype) !== this.#parents.get(prototype)) {
        violations.push({ kind: 'prototype-changed', detail: `${name} has another prototype`, signature: `${name}.[[Prototype]]` });
        Object.setPrototypeOf(prototype, this.#parents.get(prototype)!);
      }
    }
    return violations;
  }
}

/**
 * A short, stable name for an unexpected error: its constructor, message (numbers blanked) and the first frame
 * in the project's own code, so that one defect reached from many routes is reported once.
 */
export function describeError(error: unknown): { signature: string; detail: string } {
  if (!(error instanceof Error)) return { signature: String(error).slice(0, 80), detail: String(error) };
  const frames = [...(error.stack ?? '').matchAll(/\n\s+at (.*)/g)].map((match) => match[1]!);
  const frame = frames.find((candidate) => /\/(src|adapters)\//.test(candidate)) ?? frames[0] ?? '';
  const place = frame.replace(/:\d+:\d+\)?$/, '').replace(/\(?[^(]*\/(src|adapters|node_modules|test)\//, '$1/');
  const message = error.message.replace(/\d+/g, 'N').slice(0, 100);
  return { signature: `${error.name}: ${message} @ ${place}`, detail: error.stack ?? `${error.name}: ${error.message}` };
}
