import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { createCms, type CmsOptions } from '../../src/cms.js';
import type { Clock } from '../../src/ports/clock.js';
import type { StoragePort } from '../../src/ports/storage.js';
import type { CmsResponse } from '../../src/core/types.js';
import { createSafeHttpClient } from '../../src/media/outbound/index.js';
import { makeSite } from '../content/posts/helpers.js';
import { send } from '../helpers/request.js';

export { NOW } from '../content/posts/helpers.js';

/** A site named "Ref Site" at http://example.test, one user per role, a fixed clock. */
export async function makeEmbedSite(options: Partial<CmsOptions> = {}) {
  const site = await makeSite({ ...options, site: { name: 'Ref Site', ...options.site } });
  await site.cms.users.update(site.ids.administrator, { name: 'Ada Admin' });
  const embed = (query: string, init: Parameters<typeof send>[3] = {}) => send(site.cms, 'GET', `/oembed/1.0/embed?${query}`, init);
  const proxy = (role: Parameters<typeof site.as>[0], query: string) => site.as(role)('GET', `/oembed/1.0/proxy?${query}`);
  return { ...site, embed, proxy };
}

/** Another site object over the same storage (different settings, same records), answering anonymous requests. */
export function sameRecords(site: { cms: { deps: { storage: StoragePort } }; clock: Clock }, options: Partial<CmsOptions>) {
  const cms = createCms({ clock: site.clock, ...options, storage: site.cms.deps.storage, site: { url: 'http://example.test', name: 'Ref Site', ...options.site } });
  return { cms, embed: (query: string) => send(cms, 'GET', `/oembed/1.0/embed?${query}`) };
}

export type EmbedSite = Awaited<ReturnType<typeof makeEmbedSite>>;

export const q = (params: Record<string, string | number>) =>
  Object.entries(params).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`).join('&');

/** The text of a non-JSON answer. */
export function textOf(response: CmsResponse): string {
  return response.body instanceof Uint8Array ? new TextDecoder().decode(response.body) : String(response.body);
}

export const xmlParser = new XMLParser({ parseTagValue: false, ignoreAttributes: true, ignoreDeclaration: true, trimValues: false });

/** The `data-secret` values and the frame address inside embed markup. */
export function secretsOf(markup: string): { secrets: string[]; src: string | undefined; frameUrl: string | undefined } {
  const html = markup.split('<script>')[0]!;
  const src = /<iframe[^>]* src="([^"]*)"/.exec(html)?.[1];
  return {
    frameUrl: src?.split('#?secret=')[0],
    secrets: [...html.matchAll(/data-secret="([^"]*)"/g)].map((match) => match[1]!),
    src,
  };
}

export interface FixtureRoute {
  (request: IncomingMessage, response: ServerResponse, url: URL): void;
}

/**
 * A loopback server standing in for other sites and their oEmbed endpoints. It records every request and every
 * connection, so a test can prove that nothing reached it.
 */
export async function startFixture(routes: Record<string, FixtureRoute>, host = '127.0.0.1') {
  const hits: string[] = [];
  let connections = 0;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    hits.push(`${url.pathname}${url.search}`);
    const route = routes[url.pathname];
    if (route) route(request, response, url);
    else {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html><head><title>Missing</title></head><body>Not here</body></html>');
    }
  });
  server.on('connection', (_socket: Socket) => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://${host}:${port}`,
    port,
    hits,
    connections: () => connections,
    reset() {
      hits.length = 0;
      connections = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type Fixture = Awaited<ReturnType<typeof startFixture>>;

/**
 * The safe client with the fixture's loopback address allow-listed and names under `.test` resolved to it; every
 * other name fails to resolve, so no test can reach the network.
 */
export function fixtureClient(resolveTo: Record<string, string> = {}) {
  return createSafeHttpClient({
    allow: ['127.0.0.1'],
    timeoutMs: 3000,
    resolve: async (hostname) => {
      const address = resolveTo[hostname] ?? (hostname.endsWith('.test') ? '127.0.0.1' : null);
      if (address === null) throw new Error(`no resolution for ${hostname} in tests`);
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    },
  });
}

export function json(body: unknown, status = 200): FixtureRoute {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

export function html(body: string): FixtureRoute {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  };
}
