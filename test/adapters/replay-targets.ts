/**
 * The targets a replay is sent to (cms.handle() in-process and every adapter over HTTP or fetch) and the checks
 * of one answer against its table entry.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { toExpress } from '../../adapters/express.js';
import { toFetchHandler } from '../../adapters/fetch.js';
import { toHono } from '../../adapters/hono.js';
import { toNodeListener } from '../../adapters/node.js';
import { encodeResponse, type Cms } from '../../src/index.js';

export const SITE = 'http://cms.test';
const IGNORED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export interface Replay {
  method: string;
  /** Path and query from the site root, as sent. */
  target: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send the body without a length (chunked), so only its size tells it is too large. */
  chunked?: boolean;
  /** Use the cms with the small body limit. */
  smallLimit?: boolean;
}

export interface Answer {
  status: number;
  /** Lower-cased names, sorted. */
  headers: [string, string][];
  body: Buffer;
}

export interface Case extends Replay {
  name: string;
  status: number;
  /** Response headers that must have these values; `null` means absent. */
  expectHeaders?: Record<string, string | null>;
  /** Exact JSON body, exact text body, or no body. */
  json?: unknown;
  text?: string;
  noBody?: true;
  check?: (json: any) => void;
}

export type Send = (replay: Replay) => Promise<Answer>;
export interface Target { send: Send; close?: () => Promise<void> }

function headerPairs(entries: Iterable<[string, string]>): [string, string][] {
  return [...entries]
    .map(([name, value]): [string, string] => [name.toLowerCase(), value])
    .filter(([name]) => !IGNORED_HEADERS.has(name))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
}

function requestHeaders(replay: Replay): Record<string, string> {
  const headers: Record<string, string> = { host: 'cms.test', ...replay.headers };
  if (replay.body !== undefined && !replay.chunked) headers['content-length'] = String(Buffer.byteLength(replay.body));
  return headers;
}

export const inProcess = (cms: Cms, apiRoot: string): Target => ({
  send: async (replay) => {
    const [pathname, query = ''] = replay.target.split(/\?(.*)/s) as [string, string?];
    const path = pathname.startsWith(apiRoot) ? pathname.slice(apiRoot.length) || '/' : '/';
    const response = await cms.handle({
      method: replay.method, path, query, headers: requestHeaders(replay), baseUrl: `${SITE}${apiRoot}`,
      ...(replay.body !== undefined ? { body: new TextEncoder().encode(replay.body) } : {}),
    });
    const encoded = encodeResponse(response);
    return { status: encoded.status, headers: headerPairs(Object.entries(encoded.headers)), body: Buffer.from(encoded.body ?? []) };
  },
});

/** Sends over a fresh loopback connection, with `Host: cms.test` so that every adapter sees the same site. */
function overHttp(server: http.Server): Promise<Target> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const send: Send = (replay) => new Promise((done, fail) => {
        const request = http.request({
          host: '127.0.0.1', port, method: replay.method, path: replay.target, headers: requestHeaders(replay), agent: false,
        }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const pairs: [string, string][] = [];
            for (let i = 0; i < response.rawHeaders.length; i += 2) pairs.push([response.rawHeaders[i]!, response.rawHeaders[i + 1]!]);
            done({ status: response.statusCode!, headers: headerPairs(pairs), body: Buffer.concat(chunks) });
          });
        });
        request.on('error', fail);
        if (replay.body !== undefined && replay.chunked) {
          const half = Math.floor(replay.body.length / 2);
          request.write(replay.body.slice(0, half));
          request.end(replay.body.slice(half));
        } else {
          request.end(replay.body);
        }
      });
      resolve({ send, close: () => new Promise((closed) => { server.closeAllConnections(); server.close(() => closed()); }) });
    });
  });
}

const viaFetch = (cms: Cms): Target => {
  const handler = toFetchHandler(cms);
  return {
    send: async (replay) => {
      const body = replay.body === undefined ? undefined : replay.chunked ? streamOf(replay.body) : replay.body;
      const request = new Request(`${SITE}${replay.target}`, {
        method: replay.method, headers: requestHeaders(replay), ...(body !== undefined ? { body, duplex: 'half' } : {}),
      } as RequestInit);
      const response = await handler(request);
      return { status: response.status, headers: headerPairs(response.headers), body: Buffer.from(await response.arrayBuffer()) };
    },
  };
};

function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
}

function expressApp(cms: Cms, apiRoot: string, withJsonParser: boolean): http.Server {
  const app = express();
  app.disable('x-powered-by');
  if (withJsonParser) app.use(express.json());
  app.use(apiRoot, toExpress(cms));
  // Mounted at the app root too, so that `?rest_route=` works anywhere on the site.
  app.use(toExpress(cms));
  return http.createServer(app);
}

function honoApp(cms: Cms, apiRoot: string): http.Server {
  const app = new Hono();
  const quire = toHono(cms);
  app.all(apiRoot, quire);
  app.all(`${apiRoot}/*`, quire);
  app.get('/', quire);
  return createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as http.Server;
}

/** Every adapter, each serving `cms` below `apiRoot`. */
export const adapters: Record<string, (cms: Cms, apiRoot: string) => Target | Promise<Target>> = {
  node: (cms) => overHttp(http.createServer(toNodeListener(cms))),
  express: (cms, apiRoot) => overHttp(expressApp(cms, apiRoot, false)),
  'express after express.json()': (cms, apiRoot) => overHttp(expressApp(cms, apiRoot, true)),
  hono: (cms, apiRoot) => overHttp(honoApp(cms, apiRoot)),
  fetch: viaFetch,
};

export function assertMatchesTable(expected: Case, answer: Answer): void {
  assert.equal(answer.status, expected.status);
  const headers = new Map(answer.headers);
  for (const [name, value] of Object.entries(expected.expectHeaders ?? {})) {
    assert.equal(headers.get(name) ?? null, value, `header ${name}`);
  }
  // The fixed headers of every API response.
  assert.equal(headers.get('x-content-type-options'), 'nosniff');
  assert.equal(headers.get('access-control-expose-headers'), 'X-WP-Total, X-WP-TotalPages, Link');
  const text = answer.body.toString('utf8');
  if (expected.noBody) assert.equal(text, '');
  if (expected.text !== undefined) assert.equal(text, expected.text);
  if (expected.json !== undefined) assert.deepEqual(JSON.parse(text), expected.json);
  if (expected.check) expected.check(JSON.parse(text));
  assert.ok(expected.noBody || expected.text !== undefined || expected.json !== undefined || expected.check, 'the table says what the body is');
}

/** Sends `replay` to every target and checks that all answer byte for byte as the first (cms.handle()). */
export async function replayEverywhere(targets: readonly { name: string; target: Target }[], replay: Replay): Promise<Answer> {
  const [reference, ...others] = await Promise.all(targets.map(async ({ name, target }) => ({ name, answer: await target.send(replay) })));
  for (const other of others) {
    assert.deepEqual(
      { status: other.answer.status, headers: other.answer.headers, body: other.answer.body.toString('latin1') },
      { status: reference!.answer.status, headers: reference!.answer.headers, body: reference!.answer.body.toString('latin1') },
      `${other.name} answers differently from cms.handle()`,
    );
  }
  return reference!.answer;
}
