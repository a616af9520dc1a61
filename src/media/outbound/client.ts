/**
 * The default `HttpClient`: node's http/https with the outbound rules of the design decisions.
 *
 * For every hop (the first request and each redirect): the URL must be `http:`/`https:` without credentials; the
 * host is resolved once, every address it resolves to must be public (see `addresses.ts`), and the connection is
 * made to the checked address (the socket's DNS lookup is pinned to it, so a second resolution cannot swap in
 * another address while TLS and the `Host` header still use the name). Only ports 80, 443 and 8080 by default.
 * The whole request, redirects included, has one deadline; bodies are capped and cut off when they grow past it.
 * Addresses on the allow-list skip the address and port rules (for tests and known internal services).
 */
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { OutboundError, type HttpClient, type HttpRequest, type HttpResponse } from '../../ports/http-client.js';
import { addressMatcher, isBlockedAddress, parseAddress } from './addresses.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface SafeHttpClientOptions {
  /** Addresses or CIDR ranges exempt from the address and port rules (`['127.0.0.1']` for a test server). */
  allow?: readonly string[];
  /** Name resolution; default: the system resolver (all addresses). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Deadline for the whole request including redirects, in milliseconds (default 10 s). */
  timeoutMs?: number;
  /** Largest body accepted, in bytes (default 16 MiB). */
  maxBytes?: number;
  /** Redirects followed (default 5). */
  maxRedirects?: number;
  /** Ports a non-allow-listed target may use (default 80, 443, 8080). */
  allowedPorts?: readonly number[];
  userAgent?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** node's http, https (with tls) and dns modules, loaded on the first outbound request: hosts that never fetch skip them. */
let network: Promise<[typeof import('node:http'), typeof import('node:https'), typeof import('node:dns/promises')]> | undefined;
function loadNetwork() {
  network ??= Promise.all([import('node:http'), import('node:https'), import('node:dns/promises')]);
  return network;
}

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const [, , dns] = await loadNetwork();
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}

/** A socket lookup that answers with one fixed address, whatever it is asked. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

export function createSafeHttpClient(options: SafeHttpClientOptions = {}): HttpClient {
  const isAllowListed = addressMatcher(options.allow ?? []);
  const resolveName = options.resolve ?? systemResolve;
  const limits = {
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
    maxRedirects: options.maxRedirects ?? 5,
  };
  const allowedPorts = new Set(options.allowedPorts ?? [80, 443, 8080]);

  /** Checks one hop's URL and resolves its host to the address to connect to. */
  async function target(url: URL): Promise<ResolvedAddress> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundError('invalid_url', 'Only http and https addresses can be fetched.', url.href);
    }
    if (url.username !== '' || url.password !== '') {
      throw new OutboundError('invalid_url', 'Addresses with credentials are not fetched.', url.href);
    }
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (hostname === '') throw new OutboundError('invalid_url', 'The address has no host.', url.href);

    const literal = parseAddress(hostname);
    let addresses: ResolvedAddress[];
    if (literal) {
      addresses = [{ address: hostname, family: literal.family }];
    } else {
      try {
        addresses = await resolveName(hostname);
      } catch {
        throw new OutboundError('dns_failure', `The host ${hostname} could not be resolved.`, url.href);
      }
      if (addresses.length === 0) throw new OutboundError('dns_failure', `The host ${hostname} could not be resolved.`, url.href);
    }
    // Every answer must pass: a name that resolves to one public and one private address is refused.
    for (const candidate of addresses) {
      if (!isAllowListed(candidate.address) && isBlockedAddress(candidate.address)) {
        throw new OutboundError('blocked_address', `The host ${hostname} resolves to an address that may not be fetched.`, url.href);
      }
    }
    const chosen = addresses[0]!;
    const port = url.port === '' ? DEFAULT_PORTS[url.protocol]! : Number(url.port);
    if (!isAllowListed(chosen.address) && !allowedPorts.has(port)) {
      throw new OutboundError('blocked_port', `Port ${port} may not be fetched.`, url.href);
    }
    return chosen;
  }

  async function send(url: URL, address: ResolvedAddress, method: string, headers: Record<string, string>, body: Uint8Array | null, signal: AbortSignal): Promise<IncomingMessage> {
    const [http, https] = await loadNetwork();
    return new Promise((resolvePromise, reject) => {
      const requester = url.protocol === 'https:' ? https.request : http.request;
      const outgoing = requester(url, { method, headers, lookup: pinnedLookup(address), agent: false, signal }, resolvePromise);
      outgoing.on('error', reject);
      outgoing.end(body ?? undefined);
    });
  }

  async function readBody(response: IncomingMessage, maxBytes: number, url: string, truncate: boolean): Promise<Uint8Array> {
    const declared = Number(response.headers['content-length']);
    if (!truncate && Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      throw new OutboundError('too_large', `The response is larger than ${maxBytes} bytes.`, url);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      if (total + chunk.length > maxBytes) {
        response.destroy();
        if (!truncate) throw new OutboundError('too_large', `The response is larger than ${maxBytes} bytes.`, url);
        chunks.push(chunk.subarray(0, maxBytes - total));
        total = maxBytes;
        break;
      }
      total += chunk.length;
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks, total);
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  }

  return {
    async fetch(request: HttpRequest): Promise<HttpResponse> {
      const timeoutMs = Math.min(request.timeoutMs ?? limits.timeoutMs, limits.timeoutMs);
      const maxBytes = Math.min(request.maxBytes ?? limits.maxBytes, limits.maxBytes);
      const maxRedirects = Math.min(request.maxRedirects ?? limits.maxRedirects, limits.maxRedirects);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        clearTimeout(timer);
        throw new OutboundError('invalid_url', 'The address is not a valid URL.', request.url);
      }
      let method = request.method ?? 'GET';
      const headers: Record<string, string> = {
        'user-agent': options.userAgent ?? 'quire',
        accept: '*/*',
        ...lowerCaseKeys(request.headers ?? {}),
        'accept-encoding': 'identity',
      };
      let payload = requestBody(method, request.body);
      if (payload) headers['content-length'] = String(payload.byteLength);
      try {
        for (let hop = 0; ; hop++) {
          const address = await target(url);
          if (controller.signal.aborted) throw new OutboundError('timeout', `No answer within ${timeoutMs} ms.`, url.href);
          const response = await send(url, address, method, headers, payload, controller.signal);
          const status = response.statusCode ?? 0;
          const location = response.headers.location;
          if (REDIRECT_STATUSES.has(status) && location) {
            response.resume();
            if (hop >= maxRedirects) throw new OutboundError('too_many_redirects', `More than ${maxRedirects} redirects.`, url.href);
            const next = new URL(location, url);
            if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
            // 307 and 308 repeat the request as it was; the others turn a write into a GET without its body.
            if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && payload)) {
              method = 'GET';
              payload = null;
              delete headers['content-length'];
              delete headers['content-type'];
            }
            url = next;
            continue;
          }
          const body = method === 'HEAD' ? new Uint8Array(0) : await readBody(response, maxBytes, url.href, request.truncate === true);
          return { status, headers: flattenHeaders(response.headers), body, url: url.href };
        }
      } catch (error) {
        if (error instanceof OutboundError) throw error;
        if (controller.signal.aborted) throw new OutboundError('timeout', `No answer within ${timeoutMs} ms.`, url.href);
        throw new OutboundError('network_error', `The request failed: ${(error as Error).message}`, url.href);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function requestBody(method: string, body: HttpRequest['body']): Uint8Array | null {
  if (body === undefined || method === 'GET' || method === 'HEAD') return null;
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lowered[name.toLowerCase()] = value;
  return lowered;
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
