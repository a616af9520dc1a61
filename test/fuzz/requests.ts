import type { Route } from '../../src/core/registry.js';
import type { CmsRequest } from '../../src/core/types.js';
import { flatten, hostilePairs, INVALID_UTF8, jsonText, joinPairs, multipart, type FilePart } from './encode.js';
import { fillPattern, groupNames, mutatePath, pickCaller, pickMethod } from './paths.js';
import { Random } from './random.js';
import { TINY_PNG, type SeededSite } from './site.js';
import { DANGEROUS_KEYS, GLOBAL_PARAMS, ValueMaker, type Value } from './values.js';

export interface FuzzCase {
  seed: number;
  /** The route the case was made for (its pattern), or `(no route)`. */
  route: string;
  caller: string;
  /** Whether the case was made to be refused (else it is what a well-behaved client sends). */
  hostile: boolean;
  request: CmsRequest;
}

export interface CaseOptions {
  /** Share of requests authenticated by application password (each costs a slow hash). */
  appPasswordRate: number;
}

type Params = { [key: string]: Value };

function params(): Params {
  return Object.create(null) as Params;
}

/** Parameters for an endpoint: some of its own arguments (valid or not), special ones, and hostile extras. */
function endpointParams(random: Random, values: ValueMaker, site: SeededSite, route: Route | null, method: string): Params {
  const result = params();
  const endpoint = route?.endpoints.find((candidate) => (candidate.methods as readonly string[]).includes(method)) ?? route?.endpoints[0];
  for (const [name, arg] of endpoint?.args ?? []) {
    if (random.chance(arg.required ? 0.85 : 0.3)) result[name] = values.forSchema(arg.schema);
  }
  if (endpoint?.args.has('src') && random.chance(0.6)) result.src = random.pick(site.mediaUrls);
  const hostile = values.hostility > 0.1;
  if (random.chance(hostile ? 0.2 : 0.08)) {
    const name = random.pick(GLOBAL_PARAMS);
    result[name] = name === '_jsonp' && random.chance(0.7) ? random.pick(['cb', 'a.b', 'jQuery_1']) : values.forSchema(undefined, 1);
  }
  const textArgs = [...endpoint?.args ?? []].filter(([, arg]) => arg.schema.type === 'string').map(([name]) => name);
  if (textArgs.includes('search') && random.chance(0.25)) result.search = values.nulText();
  else if (textArgs.length > 0 && random.chance(0.1)) result[random.pick(textArgs)] = values.nulText();
  const pathParams = route ? groupNames(route.pattern) : [];
  if (hostile && pathParams.length > 0 && random.chance(0.12)) result[random.pick(pathParams)] = values.pathParamImpostor();
  if (hostile && random.chance(0.1)) result[random.pick(DANGEROUS_KEYS)] = values.object(2);
  if (hostile && random.chance(0.05)) result[values.randomText(random.between(1, 6))] = values.any(2);
  return result;
}

/** A batch body: inner requests over the routes (batchable or not), well formed or not. */
function batchBody(random: Random, values: ValueMaker, site: SeededSite, routes: readonly Route[]): Value {
  const count = random.weighted([[10, random.between(1, 5)], [2, 0], [1, 25], [1, 26], [1, 40]] as const);
  const requests: Value[] = [];
  for (let i = 0; i < count; i++) {
    const route = pickRoute(random, routes);
    const { method } = pickMethod(random, route.endpoints.flatMap((endpoint) => endpoint.methods));
    const inner = endpointParams(random, values, site, route, method);
    let path = fillPattern(random, site, route.pattern);
    if (random.chance(0.3)) path += `?${joinPairs(random, random.chance(0.3) ? hostilePairs(random) : flatten(random, inner))}`;
    if (values.hostility > 0.1 && random.chance(0.1)) path = mutatePath(random, path);
    const item = params();
    if (random.chance(0.95)) item.path = random.chance(0.97) ? path : values.any(1);
    if (random.chance(0.8)) item.method = random.chance(0.9) ? method : values.any(0);
    if (random.chance(0.7)) item.body = random.chance(0.9) ? inner : values.any(2);
    if (random.chance(0.1)) item.headers = random.chance(0.7) ? { 'content-type': 'application/json', 'x-extra': ['a', 'b'] } : values.any(2);
    requests.push(random.chance(0.97) ? item : values.any(1));
  }
  const body = params();
  body.requests = random.chance(0.95) ? requests : values.any(2);
  if (random.chance(0.4)) body.validation = random.pick(['normal', 'require-all-validate', values.text()]);
  return body;
}

function randomBytes(random: Random, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => random.below(256));
}

function filePart(random: Random): FilePart {
  return {
    field: random.pick(['file', 'file', 'upload', 'file[]', '__proto__']),
    filename: random.pick(['a.png', 'photo.PNG', '../../evil.php', 'x.svg', 'ファイル.png', '', 'no-extension', 'a.png\u0000.php', '.htaccess', 'a'.repeat(300) + '.png']),
    type: random.pick(['image/png', 'image/jpeg', 'text/plain', 'application/x-php', 'image/svg+xml', '']),
    bytes: random.chance(0.6) ? TINY_PNG : randomBytes(random, random.between(0, 300)),
  };
}

/** Encodes the body parameters with a content type chosen at random; `null` when no body is sent. */
function encodeBody(random: Random, values: ValueMaker, body: Params, hostile: [string, string][]): Pick<CmsRequest, 'body' | 'parsedBody'> & { contentType?: string; disposition?: string } {
  const pairs = () => [...flatten(random, body), ...hostile];
  return random.weighted<() => ReturnType<typeof encodeBody>>([
    [45, () => ({ contentType: random.pick(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json']), body: jsonText(random, random.chance(0.9) ? body : values.any(3)) })],
    [20, () => ({ contentType: random.pick(['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=UTF-8']), body: joinPairs(random, pairs()) })],
    [13, () => {
      const encoded = multipart(random, pairs(), random.chance(0.4) ? [filePart(random)] : []);
      return { contentType: encoded.contentType, body: encoded.body };
    }],
    [5, () => ({ contentType: 'image/png', disposition: random.pick(['attachment; filename="up.png"', 'attachment', 'attachment; filename="../x.php"', 'inline; filename=""', "attachment; filename*=UTF-8''%E2%82%AC.png"]), body: random.chance(0.6) ? TINY_PNG : randomBytes(random, random.between(0, 200)) })],
    [3, () => ({ contentType: random.pick(['text/plain', 'application/octet-stream', 'application/xml', 'text/json', '', ';;;', 'multipart/mixed']), body: joinPairs(random, pairs()) })],
    [3, () => ({ body: joinPairs(random, pairs()) })],
    [2, () => ({ contentType: 'application/json', body: INVALID_UTF8 })],
    [4, () => ({ contentType: random.pick(['application/json', 'application/x-www-form-urlencoded']), parsedBody: JSON.parse(JSON.stringify(body)) })],
  ])();
}

/** A body as a well-behaved client encodes it. */
function cleanBody(random: Random, body: Params): ReturnType<typeof encodeBody> {
  return random.weighted<() => ReturnType<typeof encodeBody>>([
    [6, () => ({ contentType: 'application/json', body: JSON.stringify(body) })],
    [2, () => ({ contentType: 'application/x-www-form-urlencoded', body: joinPairs(random, flatten(random, body)) })],
    [1, () => ({ ...multipartOf(random, flatten(random, body), random.chance(0.3) ? [{ field: 'file', filename: 'up.png', type: 'image/png', bytes: TINY_PNG }] : []) })],
  ])();
}

function multipartOf(random: Random, pairs: [string, string][], files: FilePart[]): { contentType: string; body: Uint8Array } {
  const boundary = `----fuzz${random.uint32()}`;
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = pairs.map(([name, value]) => encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const file of files) {
    chunks.push(encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.bytes, encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: new Uint8Array(Buffer.concat(chunks)) };
}

/** Namespace roots and the index are simple and many; the resource routes get most of the requests. */
function pickRoute(random: Random, routes: readonly Route[]): Route {
  return random.weighted(routes.map((route) => {
    const isRoot = route.pattern === '/' || route.pattern === `/${route.namespace}`;
    return [isRoot ? 0.3 : 1 + route.endpoints.length / 2, route] as const;
  }));
}

/** One request, entirely determined by its seed and the seeded site. */
export function makeCase(site: SeededSite, routes: readonly Route[], seed: number, options: CaseOptions): FuzzCase {
  const random = new Random(seed);
  // Some cases are what a well-behaved client sends (so they reach handlers and the store), the rest hostile.
  const hostile = random.chance(0.6);
  const values = new ValueMaker(random, Object.values(site.ids).flat(), site.words, hostile ? 0.3 : 0.03);
  const route = !hostile || random.chance(0.95) ? pickRoute(random, routes) : null;
  const declared = route ? route.endpoints.flatMap((endpoint) => endpoint.methods) : ['GET', 'POST'];
  const { method, override } = hostile ? pickMethod(random, declared) : { method: random.pick(declared), override: undefined };
  const effective = (override?.query ?? override?.header ?? method).toUpperCase();
  const caller = pickCaller(random, site, options.appPasswordRate, hostile);

  let path = route ? fillPattern(random, site, route.pattern) : mutatePath(random, '/cms/v2/posts');
  if (hostile && random.chance(0.15)) path = mutatePath(random, path);
  const all = route?.pattern === '/batch/v1' && random.chance(0.9)
    ? (batchBody(random, values, site, routes) as Params)
    : endpointParams(random, values, site, route, effective === 'HEAD' ? 'GET' : effective);

  // Reads carry their parameters in the query; writes mostly in the body, some in the query.
  const query = params();
  const body = params();
  const writes = !['GET', 'HEAD', 'OPTIONS'].includes(effective);
  for (const name of Object.keys(all)) {
    const inQuery = writes ? random.chance(0.15) : random.chance(0.95);
    (inQuery ? query : body)[name] = all[name]!;
  }
  const queryPairs = flatten(random, query);
  if (override?.query !== undefined) queryPairs.push(['_method', override.query]);
  if (random.chance(0.05)) {
    queryPairs.push(['rest_route', path]);
    path = random.pick(['/', '', '/cms/v2']);
  }
  const hostileQuery = hostile && random.chance(0.2) ? hostilePairs(random) : [];
  const hostileBody = hostile && writes && random.chance(0.2) ? hostilePairs(random) : [];

  const headers: Record<string, string> = { ...caller.headers };
  if (override?.header !== undefined) headers['x-http-method-override'] = override.header;
  if (hostile && random.chance(0.05)) headers.origin = random.pick(['http://elsewhere.test', 'null', 'http://a"b<c>.test']);
  if (hostile && random.chance(0.02)) headers['content-length'] = random.pick(['0', '-1', 'abc', '999999999999']);

  const request: CmsRequest = { method, path, query: joinPairs(random, [...queryPairs, ...hostileQuery]), headers };
  if (caller.user !== undefined) request.user = caller.user;
  if (writes || random.chance(0.05)) {
    if (Object.keys(body).length > 0 || hostileBody.length > 0 || random.chance(0.5)) {
      const encoded = hostile ? encodeBody(random, values, body, hostileBody) : cleanBody(random, body);
      if (encoded.contentType !== undefined) headers['content-type'] = encoded.contentType;
      if (encoded.disposition !== undefined) headers['content-disposition'] = encoded.disposition;
      if (encoded.body !== undefined) request.body = encoded.body;
      if (encoded.parsedBody !== undefined) request.parsedBody = encoded.parsedBody;
    }
  }
  return { seed, route: route?.pattern ?? '(no route)', caller: caller.name, hostile, request };
}
