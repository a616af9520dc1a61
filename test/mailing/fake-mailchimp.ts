/**
 * A local stand-in for the parts of the Mailchimp Marketing API v3 the provider calls, on loopback. It answers
 * as Mailchimp does: problem documents (`type`, `title`, `status`, `detail`) for errors, 404 for unknown lists
 * and members, 400 `Invalid Resource` for a body it cannot accept (an address that "looks fake", a subscriber
 * hash that does not match the address, a merge tag the list does not define, a new member without
 * `status_if_new`), and 401 for a wrong key.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeMember {
  email_address: string;
  status: string;
  merge_fields: Record<string, unknown>;
  interests: Record<string, boolean>;
  tags: string[];
  email_type?: string;
  ip_signup?: string;
  language?: string;
}

export interface FakeList {
  mergeFields: { tag: string; type: string }[];
  members: Map<string, FakeMember>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: any;
  authorization: string | undefined;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export async function startFakeMailchimp(apiKey: string) {
  const lists = new Map<string, FakeList>();
  const requests: RecordedRequest[] = [];
  let edgeFailure = false;

  function problem(response: ServerResponse, status: number, title: string, detail: string) {
    response.writeHead(status, { 'content-type': 'application/problem+json' });
    response.end(JSON.stringify({ type: 'https://mailchimp.com/developer/marketing/docs/errors/', title, status, detail, instance: 'fake' }));
  }

  function json(response: ServerResponse, status: number, body: unknown) {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  }

  async function readBody(request: IncomingMessage): Promise<any> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text === '' ? undefined : JSON.parse(text);
  }

  const memberView = (hash: string, member: FakeMember) => ({ id: hash, ...member, tags: member.tags.map((name) => ({ name })) });

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = await readBody(request);
    requests.push({ method: request.method ?? '', path: url.pathname + url.search, body, authorization: request.headers.authorization });
    if (edgeFailure) {
      json(response, 503, { type: 'akamai_error_message', title: 'akamai_503', status: 503, ref_no: 'Reference Number: 00.1' });
      return;
    }
    const expected = `Basic ${Buffer.from(`quire:${apiKey}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      problem(response, 401, 'API Key Invalid', 'Your API key may be invalid, or you\'ve attempted to access the wrong datacenter.');
      return;
    }
    const match = /^\/3\.0\/lists\/([^/]+)(?:\/(merge-fields|members)(?:\/([0-9a-f]{32})(\/tags)?)?)?$/.exec(url.pathname);
    const list = match ? lists.get(decodeURIComponent(match[1]!)) : undefined;
    if (!match || !list) {
      problem(response, 404, 'Resource Not Found', 'The requested resource could not be found.');
      return;
    }
    const [, , kind, hash, tags] = match;
    const method = request.method;
    if (kind === 'merge-fields' && method === 'GET') {
      json(response, 200, { merge_fields: list.mergeFields.map((field, index) => ({ merge_id: index + 1, ...field })), total_items: list.mergeFields.length });
      return;
    }
    if (kind === undefined && method === 'GET') {
      json(response, 200, { id: decodeURIComponent(match[1]!) });
      return;
    }
    if (kind !== 'members' || !hash) {
      problem(response, 405, 'Method Not Allowed', 'The requested method and resource are not compatible.');
      return;
    }
    const member = list.members.get(hash);
    if (tags && method === 'POST') {
      if (!member) return problem(response, 404, 'Resource Not Found', 'The requested resource could not be found.');
      for (const tag of body.tags as { name: string; status: string }[]) {
        if (tag.status === 'active' && !member.tags.includes(tag.name)) member.tags.push(tag.name);
        if (tag.status === 'inactive') member.tags = member.tags.filter((name) => name !== tag.name);
      }
      response.writeHead(204).end();
      return;
    }
    if (method === 'GET') {
      if (!member) return problem(response, 404, 'Resource Not Found', 'The requested resource could not be found.');
      json(response, 200, memberView(hash, member));
      return;
    }
    if (method === 'PATCH') {
      if (!member) return problem(response, 404, 'Resource Not Found', 'The requested resource could not be found.');
      Object.assign(member, body);
      json(response, 200, memberView(hash, member));
      return;
    }
    if (method === 'PUT') {
      const email = String(body?.email_address ?? '');
      if (md5(email.toLowerCase()) !== hash) return problem(response, 400, 'Invalid Resource', 'The resource submitted could not be validated.');
      if (email.includes('fake')) return problem(response, 400, 'Invalid Resource', `${email} looks fake or invalid, please enter a real email address.`);
      const unknown = Object.keys(body.merge_fields ?? {}).filter((tag) => !list.mergeFields.some((field) => field.tag === tag));
      if (unknown.length > 0) return problem(response, 400, 'Invalid Resource', `Your merge fields were invalid: ${unknown.join(', ')}`);
      if (!member && !['subscribed', 'pending', 'unsubscribed'].includes(body.status_if_new)) {
        return problem(response, 400, 'Invalid Resource', 'The resource submitted could not be validated.');
      }
      const next: FakeMember = member ?? { email_address: email, status: body.status_if_new, merge_fields: {}, interests: {}, tags: [] };
      if (member && body.status) next.status = body.status;
      next.merge_fields = { ...next.merge_fields, ...body.merge_fields };
      next.interests = { ...next.interests, ...body.interests };
      for (const key of ['email_type', 'ip_signup', 'language'] as const) if (body[key] !== undefined) next[key] = body[key];
      list.members.set(hash, next);
      json(response, 200, memberView(hash, next));
      return;
    }
    problem(response, 405, 'Method Not Allowed', 'The requested method and resource are not compatible.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/3.0`,
    lists,
    requests,
    addList(id: string, mergeFields: { tag: string; type: string }[] = [{ tag: 'FNAME', type: 'text' }]) {
      lists.set(id, { mergeFields, members: new Map() });
    },
    member(list: string, email: string): FakeMember | undefined {
      return lists.get(list)?.members.get(md5(email.toLowerCase()));
    },
    failAtTheEdge(on: boolean) {
      edgeFailure = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeMailchimp = Awaited<ReturnType<typeof startFakeMailchimp>>;
