/** Sends requests as one viewer and records every way an answer could give hidden text or counts away. */
import type { CmsRequest, CmsResponse } from '../../src/core/types.js';
import type { HiddenSite, Viewer } from './hidden-site.js';

export interface Answer {
  status: number;
  headers: Record<string, string | number | string[]>;
  /** The body as sent (JSON text, JSONP text). */
  text: string;
  json: any;
}

function bodyText(response: CmsResponse): string {
  const { body } = response;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (typeof body === 'string') return body;
  return JSON.stringify(body) ?? '';
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Collects failures instead of throwing at the first, so one run reports every leak. */
export class LeakProbe {
  readonly failures: string[] = [];
  requests = 0;

  constructor(private readonly site: HiddenSite, readonly viewer: Viewer) {}

  /** Sends a request; fails when the answer holds a marker (or `SECRET`) the request did not carry itself. */
  async send(method: string, target: string, init: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const mark = target.indexOf('?');
    const request: CmsRequest = {
      method,
      path: mark === -1 ? target : target.slice(0, mark),
      query: mark === -1 ? '' : target.slice(mark + 1),
      headers: { ...init.headers },
    };
    if (init.json !== undefined) {
      request.headers['content-type'] = 'application/json';
      request.body = JSON.stringify(init.json);
    }
    const user = this.site.viewerUser(this.viewer);
    if (user !== null) request.user = { id: user };
    const response = await this.site.cms.handle(request);
    this.requests++;
    const text = bodyText(response);
    const answer: Answer = { status: response.status, headers: response.headers as Answer['headers'], text, json: parsed(text) };
    const sent = decodeURIComponent(`${target} ${request.body ?? ''} ${JSON.stringify(init.headers ?? {})}`.replace(/\+/g, ' '));
    const received = `${text}\n${JSON.stringify(response.headers)}`;
    for (const word of ['SECRET', ...this.site.markers]) {
      if (!sent.includes(word) && received.includes(word)) this.fail(method, target, `answer holds "${word}"`);
    }
    if (answer.status >= 500) this.fail(method, target, `status ${answer.status}`);
    return answer;
  }

  /** A list answer: when it succeeds, its total must be exactly the rows it shows (all fit on one page). */
  async list(target: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
    const answer = await this.send(init.method ?? 'GET', target, init.headers ? { headers: init.headers } : {});
    if (answer.status === 200 && Array.isArray(answer.json)) {
      const total = Number(answer.headers['X-WP-Total']);
      if (total !== answer.json.length) this.fail('GET', target, `X-WP-Total ${total} but ${answer.json.length} rows`);
    }
    return answer;
  }

  /** A list that must find nothing, with a total of 0 (or refuse the request). */
  async nothing(target: string): Promise<void> {
    const answer = await this.send('GET', target);
    if (answer.status !== 200) return this.expectRefusal(answer, target);
    if (!Array.isArray(answer.json) || answer.json.length !== 0 || answer.headers['X-WP-Total'] !== '0') {
      this.fail('GET', target, `expected no rows and a total of 0, got ${answer.headers['X-WP-Total']}: ${answer.text.slice(0, 200)}`);
    }
  }

  /** A request that must be refused with an error body (any 4xx). */
  async refused(method: string, target: string, init: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const answer = await this.send(method, target, init);
    this.expectRefusal(answer, `${method} ${target}`);
    return answer;
  }

  private expectRefusal(answer: Answer, label: string): void {
    if (answer.status < 400 || answer.status >= 500 || typeof answer.json?.code !== 'string') {
      this.fail('', label, `expected a refusal, got ${answer.status} ${answer.text.slice(0, 200)}`);
    }
  }

  fail(method: string, target: string, why: string): void {
    this.failures.push(`${this.viewer}: ${method} ${target}: ${why}`.replace(/ {2,}/g, ' '));
  }
}
