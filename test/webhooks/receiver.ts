/** A local webhook receiver on 127.0.0.1 that records what arrives and answers as told. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  /** The status the next requests get (default 200) and how long each answer waits. */
  status: number;
  delayMs: number;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const state = { status: 200, delayMs: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = () => {
        if (state.status >= 200 && state.status < 300) received.push({ headers: request.headers, body, json: JSON.parse(body) });
        response.writeHead(state.status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (state.delayMs > 0) setTimeout(answer, state.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hook`,
    port: actual,
    received,
    get status() { return state.status; },
    set status(value: number) { state.status = value; },
    get delayMs() { return state.delayMs; },
    set delayMs(value: number) { state.delayMs = value; },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
