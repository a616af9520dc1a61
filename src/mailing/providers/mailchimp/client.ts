/** JSON calls to the Mailchimp Marketing API (v3) over the outbound HTTP port. */
import { isOutboundError, type HttpClient } from '../../../ports/http-client.js';
import { MailingListError } from '../../../ports/mailing-list.js';

export interface MailchimpAnswer {
  status: number;
  /** The decoded body; null when empty or not JSON. */
  json: unknown;
}

export type MailchimpCall = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown) => Promise<MailchimpAnswer>;

const DATA_CENTRE = /^[a-z]{1,10}[0-9]{1,5}$/;

/**
 * The API root for a key: Mailchimp keys end in `-<data centre>` (`…-us6`), which names the host
 * (`https://us6.api.mailchimp.com/3.0`). Anything else after the dash is refused, so a key can never steer
 * requests to another host.
 */
export function mailchimpBaseUrl(apiKey: string): string {
  const dash = apiKey.lastIndexOf('-');
  const centre = dash === -1 ? '' : apiKey.slice(dash + 1);
  if (!DATA_CENTRE.test(centre)) {
    throw new Error('The Mailchimp API key must end in its data centre, e.g. "-us6".');
  }
  return `https://${centre}.api.mailchimp.com/3.0`;
}

export function createMailchimpCall(options: { apiKey: string; baseUrl: string; httpClient: HttpClient; timeoutMs: number }): MailchimpCall {
  const authorization = `Basic ${Buffer.from(`quire:${options.apiKey}`).toString('base64')}`;
  const base = options.baseUrl.replace(/\/+$/, '');
  return async (method, path, body) => {
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await options.httpClient.fetch({
        url: `${base}${path}`,
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        maxBytes: 1024 * 1024,
        timeoutMs: options.timeoutMs,
        maxRedirects: 0,
      });
    } catch (error) {
      if (isOutboundError(error)) throw new MailingListError('connection_error', `Mailchimp could not be reached: ${error.message}`);
      throw error;
    }
    let json: unknown = null;
    if (response.body.length > 0) {
      try {
        json = JSON.parse(new TextDecoder().decode(response.body));
      } catch {
        json = null;
      }
    }
    // Errors from Mailchimp's edge network say nothing about the request: the service was not reached.
    if (response.status >= 400 && (json as { type?: unknown } | null)?.type === 'akamai_error_message') {
      throw new MailingListError('connection_error', `Mailchimp could not be reached (HTTP ${response.status}).`);
    }
    return { status: response.status, json };
  };
}

/** The API's own error for an answer with an error status. */
export function apiError(answer: MailchimpAnswer): MailingListError {
  const problem = (answer.json ?? {}) as { title?: unknown; detail?: unknown };
  const title = typeof problem.title === 'string' ? problem.title : `HTTP ${answer.status}`;
  const detail = typeof problem.detail === 'string' ? `: ${problem.detail}` : '';
  return new MailingListError('provider_error', `Mailchimp answered ${title}${detail}`, answer.status);
}
