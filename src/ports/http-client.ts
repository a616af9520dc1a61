/**
 * The outbound HTTP port, for fetches the service makes on a user's behalf (media sideloads, oEmbed lookups).
 * Implementations must refuse targets a caller should not reach through the service (loopback, private and
 * link-local networks), and cap size, time and redirects. The default is `createSafeHttpClient` in
 * `src/media/outbound`. Write methods carry a body (calls to a mailing-list provider's API).
 */

export interface HttpRequest {
  /** An absolute `http:` or `https:` URL. */
  url: string;
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** The request body (write methods only); set `content-type` in `headers`. */
  body?: Uint8Array | string;
  /** Overrides the client's own limits for this request (never above them). */
  maxBytes?: number;
  /** Keep the first `maxBytes` of a longer body and stop reading, instead of failing with `too_large`. */
  truncate?: boolean;
  timeoutMs?: number;
  maxRedirects?: number;
}

export interface HttpResponse {
  status: number;
  /** Header names lower-cased; repeated values joined with `, `. */
  headers: Record<string, string>;
  body: Uint8Array;
  /** The URL that answered, after redirects. */
  url: string;
}

/** Why an outbound request failed. */
export type OutboundErrorCode =
  | 'invalid_url'
  | 'blocked_address'
  | 'blocked_port'
  | 'dns_failure'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'network_error';

export class OutboundError extends Error {
  readonly code: OutboundErrorCode;
  /** The URL the failure concerns (a redirect target when a hop failed). */
  readonly url: string;

  constructor(code: OutboundErrorCode, message: string, url: string) {
    super(message);
    this.name = 'OutboundError';
    this.code = code;
    this.url = url;
  }
}

export function isOutboundError(error: unknown): error is OutboundError {
  return error instanceof OutboundError;
}

export interface HttpClient {
  /** Resolves with any HTTP status (a 404 is an answer, not an error); rejects with `OutboundError`. */
  fetch(request: HttpRequest): Promise<HttpResponse>;
}
