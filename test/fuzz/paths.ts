import type { CmsRequest } from '../../src/core/types.js';
import type { Random } from './random.js';
import { ROLES, type Role, type SeededSite } from './site.js';

const GROUP = /\(\?P<(\w+)>((?:[^()]|\((?:[^()])*\))*)\)/g;

/** Numbers a path segment of digits may carry besides seeded identifiers. */
const ODD_IDS = ['0', '00', '007', '99999', '2147483648', '9007199254740993', '18446744073709551616', '9'.repeat(40)];

type Kind = keyof SeededSite['ids'];

/** Which pool an identifier in a route pattern draws from, by its group name and the segment before it. */
function kindOf(pattern: string, group: string, offset: number): Kind | 'uuid' | 'user_id' | null {
  if (group === 'uuid') return 'uuid';
  if (group === 'user_id') return 'user_id';
  const before = pattern.slice(0, offset);
  const segment = /\/([\w-]+)\/$/.exec(before)?.[1] ?? '';
  const bySegment: Record<string, Kind> = {
    posts: 'post', pages: 'page', media: 'media', categories: 'category', tags: 'tag', users: 'user',
    revisions: 'revision', autosaves: 'autosave',
  };
  return bySegment[segment] ?? null;
}

function allIds(site: SeededSite): number[] {
  return Object.values(site.ids).flat();
}

/** A value for one path group: seeded content of the right kind mostly, anything else sometimes. */
function groupValue(random: Random, site: SeededSite, kind: ReturnType<typeof kindOf>, shape: string): string {
  if (kind === 'uuid') {
    return random.weighted<() => string>([
      [5, () => random.pick(site.uuids)],
      [1, () => '00000000-0000-4000-8000-000000000000'],
      [1, () => random.pick(['x', '-', '__proto__', 'constructor', 'a'.repeat(300)])],
    ])();
  }
  const roll = random.float();
  if (kind === 'user_id' && roll < 0.3) return 'me';
  const pool = kind === null || kind === 'user_id' ? (kind === 'user_id' ? site.ids.user : allIds(site)) : site.ids[kind];
  if (roll < 0.75 && pool.length > 0) return String(random.pick(pool));
  if (roll < 0.85) return String(random.pick(allIds(site)));
  if (/\\d|\[\\d\]/.test(shape) || kind !== null) return random.pick(ODD_IDS);
  return random.pick(['x', 'slider-1', '1,2,3', '__proto__', 'constructor', 'a'.repeat(200)]);
}

/** The names of a route pattern's groups (`id`, `parent`...). */
export function groupNames(pattern: string): string[] {
  return [...pattern.matchAll(GROUP)].map((match) => match[1]!);
}

const CHILD_ROUTE = /^\/cms\/v2\/(posts|pages)\/\(\?P<parent>[^/]*\)\/(revisions|autosaves)\/\(\?P<id>[^/]*\)$/;

/** A concrete path for a route pattern, its groups filled in. */
export function fillPattern(random: Random, site: SeededSite, pattern: string): string {
  const child = CHILD_ROUTE.exec(pattern);
  if (child && random.chance(0.7)) {
    const matching = site.children.filter((candidate) => candidate.base === child[1] && candidate.kind === child[2]);
    if (matching.length > 0) {
      const { parent, id } = random.pick(matching);
      return `/cms/v2/${child[1]}/${parent}/${child[2]}/${id}`;
    }
  }
  return pattern.replace(GROUP, (_match, group: string, shape: string, offset: number) =>
    groupValue(random, site, kindOf(pattern, group, offset), shape));
}

/** A path that no route may have expected: trailing or doubled slashes, case, encodings, traversal, junk. */
export function mutatePath(random: Random, path: string): string {
  switch (random.below(12)) {
    case 0: return `${path}/`;
    case 1: return path.replace(/\//g, '//');
    case 2: return path.toUpperCase();
    case 3: return `${path}/${random.pick(['x', '..', '%2e%2e', '0', 'me', '__proto__', 'constructor'])}`;
    case 4: return path.replace(/\//g, '%2F');
    case 5: return `${path}/../../cms/v2/users/me`;
    case 6: return path.slice(0, random.below(path.length + 1));
    case 7: return `${path}\u0000`;
    case 8: return `${path}${random.pick(['é', '\ud800', '%00', '%ff', ';x', '#frag', '?inner=1'])}`;
    case 9: return path.replace(/^\//, '');
    case 10: return `${path}/${'a/'.repeat(random.pick([50, 2000]))}`;
    default: return '/' + random.pick(['', 'cms', 'cms/v3', 'cms/v2/nothing', 'wp/v2/posts', 'batch', 'batch/v1/x', '__proto__', 'constructor/prototype']);
  }
}

export interface Caller {
  /** How the caller is named in a report. */
  name: string;
  user?: CmsRequest['user'];
  headers: Record<string, string>;
}

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/**
 * Who sends the request: anonymous, a role through `request.user`, a role through its application password
 * (rare: each costs a deliberately slow hash), or someone with bad or odd credentials.
 */
export function pickCaller(random: Random, site: SeededSite, appPasswordRate: number, hostile: boolean): Caller {
  if (!hostile) {
    // Well-behaved cases come mostly from users who may write, so that writes reach the store.
    const role = random.weighted<Role | null>([[30, 'administrator'], [20, 'editor'], [20, 'author'], [15, 'contributor'], [5, 'subscriber'], [10, null]]);
    return role === null ? { name: 'anonymous', headers: {} } : { name: role, user: { id: site.users[role].id }, headers: {} };
  }
  const role = random.pick(ROLES);
  const user = site.users[role];
  if (random.chance(appPasswordRate)) {
    return random.chance(0.8)
      ? { name: `${role} (application password)`, headers: { authorization: basic(user.login, user.appPassword) } }
      : { name: `${role} (wrong application password)`, headers: { authorization: basic(user.login, 'abcd efgh ijkl mnop qrst uvwx') } };
  }
  return random.weighted<() => Caller>([
    [25, () => ({ name: 'anonymous', headers: {} })],
    [55, () => ({ name: role, user: { id: user.id }, headers: {} })],
    [1, () => ({ name: 'unknown user', user: { id: random.pick([0, -1, 99999, 2 ** 53]) }, headers: {} })],
    [1, () => ({ name: 'null user', user: null, headers: {} })],
    [2, () => ({
      name: 'odd authorization',
      headers: { authorization: random.pick(['Basic', 'Basic !!!', 'Basic Og==', 'Bearer abc', 'basic', 'Digest x', `Basic ${'A'.repeat(5000)}`, 'Basic ' + Buffer.from('\u0000:\u0000').toString('base64')]) },
    })],
    [1, () => ({ name: `${role} with odd authorization`, user: { id: user.id }, headers: { authorization: 'Basic bm9ib2R5Om5vdGhpbmc=' } })],
  ])();
}

const ODD_METHODS = ['PROPFIND', 'TRACE', 'CONNECT', 'get', 'pAtCh', 'FOO', '', ' GET', 'GET\u0000', 'DELETE ', 'M-SEARCH', 'options', 'head'];
const STANDARD = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The method on the wire, and the overrides (`_method`, `X-HTTP-Method-Override`) that may change it. */
export function pickMethod(random: Random, declared: readonly string[]): { method: string; override?: { query?: string; header?: string } } {
  const method = random.weighted<() => string>([
    [70, () => random.pick(declared)],
    [6, () => 'HEAD'],
    [6, () => 'OPTIONS'],
    [10, () => random.pick(STANDARD)],
    [4, () => random.pick(ODD_METHODS)],
  ])();
  if (random.chance(0.08)) {
    return { method: random.pick(['POST', 'GET']), override: { query: random.pick([...declared, ...STANDARD, 'OPTIONS', 'HEAD', 'delete', 'X', '']) } };
  }
  if (random.chance(0.05)) {
    return { method: random.pick(['POST', 'GET']), override: { header: random.pick([...declared, ...STANDARD, 'OPTIONS', 'head', 'Y']) } };
  }
  return { method };
}
