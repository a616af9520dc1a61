/**
 * Which records of a list the caller may see, as storage conditions, so that a list selects, pages and counts
 * only those (the reference counts rows it then drops, which lets `X-WP-Total` and `search` probe hidden ones).
 *
 * Whether a record is readable (or, in the edit context, editable) depends on its type, its status and whether
 * the caller wrote it (for trashed records, also the status before trashing), so each requested status is
 * checked once for "someone else's" and once for "the caller's own", and the verdicts become status and author
 * conditions. An `inherit` record (an attachment) is readable exactly when its parent is: it is left out when
 * its parent is one of the unreadable posts a second, status-indexed query finds.
 */
import type { CapabilityRules, PostSubject } from '../../auth/index.js';
import type { Principal, RequestContext } from '../../core/context.js';
import { isSealedSet } from '../../core/sealed-set.js';
import type { Condition, Scalar } from '../../ports/storage.js';
import { canReadPost, isPublicStatus, readsPost } from './readability.js';
import { REGISTERED_STATUSES } from './definition.js';
import { postsIn } from './record.js';
import type { PostScope } from './scope.js';

/** Statuses that count as published when a record was trashed from them (the rules' own distinction). */
const PUBLISHED_BEFORE_TRASH = ['publish', 'future'];

/** Someone other than the caller: an author id no user has (author 0 is nobody's own post). */
const SOMEONE_ELSE = 0;

const eq = (field: string, value: Scalar): Condition => ({ field, op: 'eq', value });
const and = (conditions: Condition[]): Condition => (conditions.length === 1 ? conditions[0]! : { op: 'and', conditions });
const or = (conditions: Condition[]): Condition => (conditions.length === 1 ? conditions[0]! : { op: 'or', conditions });

function oneOf(field: string, values: readonly Scalar[]): Condition {
  const unique = [...new Set(values)];
  return unique.length === 1 ? eq(field, unique[0]!) : { field, op: 'in', values: unique };
}

/** Matches nothing, in a form an index answers at once. */
const NOTHING: Condition = { field: 'status', op: 'in', values: [] };

export interface ListVisibility {
  /**
   * Conditions (all must hold) selecting exactly the records of `statuses` the caller may see: readable ones,
   * or editable ones in the edit context. They replace a plain status condition.
   */
  rows(statuses: readonly string[]): Condition[] | Promise<Condition[]>;
  /**
   * A condition holding for the records of `statuses` whose password-protected text the caller may read (those
   * without a password, and those the caller may edit); `null` when that is every record.
   */
  protectedText(statuses: readonly string[]): Condition | null;
}

export function listVisibility(context: RequestContext, scope: PostScope): ListVisibility {
  return new CallerVisibility(context, scope);
}

/** A class rather than a literal of closures: one object per list. */
class CallerVisibility implements ListVisibility {
  readonly #userId: number | null;
  readonly #rules: CapabilityRules;

  constructor(readonly context: RequestContext, readonly scope: PostScope) {
    this.#userId = context.user?.id ?? null;
    this.#rules = scope.postType.deps.capabilityRules;
  }

  rows(statuses: readonly string[]): Condition[] | Promise<Condition[]> {
    const editing = this.context.context === 'edit';
    if (!editing && statuses.includes('inherit')) return this.#withInherit(statuses);
    const caller = callerOf(this.context.user);
    const type = this.scope.postType.definition.type;
    const status = statuses.length === 1 ? statuses[0]! : null;
    const known = caller !== null && status !== null ? keptVerdict(this.#rules, caller, this.#userId, type, editing, status) : undefined;
    if (known !== undefined) return known;
    const conditions = statusConditions(statuses, this.#userId, editing ? this.#mayEdit : this.#mayRead, []);
    if (caller !== null && status !== null) keepVerdict({ rules: this.#rules, caller, userId: this.#userId, type, editing, status, conditions });
    return conditions;
  }

  protectedText(statuses: readonly string[]): Condition | null {
    const editable = statusConditions(statuses, this.#userId, this.#mayEdit, []);
    if (editable.length === 1 && editable[0] === NOTHING) return eq('password', '');
    const coversAll = editable.length === 1 && sameStatuses(editable[0]!, statuses);
    return coversAll ? null : or([eq('password', ''), and(editable)]);
  }

  async #withInherit(statuses: readonly string[]): Promise<Condition[]> {
    const parents = await inheritConditions(this.context, this.scope);
    const inherit = [parents === null ? eq('status', 'inherit') : and([eq('status', 'inherit'), parents])];
    return statusConditions(statuses.filter((status) => status !== 'inherit'), this.#userId, this.#mayRead, inherit);
  }

  #subject(status: string, own: boolean, trashedFrom?: string): PostSubject {
    const userId = this.#userId;
    const made: PostSubject = { type: this.scope.postType.definition.type, status, authorId: own && userId !== null ? userId : SOMEONE_ELSE };
    if (trashedFrom !== undefined) made.trashedFromStatus = trashedFrom;
    return made;
  }

  get #mayEdit(): Allows {
    return (status, own, trashedFrom) => this.scope.abilities.canEditSubject(this.#subject(status, own, trashedFrom));
  }

  get #mayRead(): Allows {
    return (status, own, trashedFrom) => readsPost(this.scope.abilities.user, this.#subject(status, own, trashedFrom), this.#rules);
  }
}

/**
 * The status verdicts of a single status as conditions depend on nothing but the rules, the caller's capabilities
 * and id, the type and the context (no record, no setting): the latest few are kept, frozen, and found by
 * comparing those (cheaper than working them out, or than spelling a key). Callers whose capability set may
 * change (not sealed) have them worked out every time.
 */
interface KeptVerdict {
  readonly rules: CapabilityRules;
  /** The caller's sealed capability set, or `ANONYMOUS`. */
  readonly caller: object;
  readonly userId: number | null;
  readonly type: string;
  readonly editing: boolean;
  readonly status: string;
  readonly conditions: Condition[];
}

const ANONYMOUS = {};
const keptVerdicts: KeptVerdict[] = [];
const MOST_KEPT_VERDICTS = 8;
let nextVerdictSlot = 0;

function callerOf(user: Principal | null): object | null {
  return user === null ? ANONYMOUS : isSealedSet(user.capabilities) ? user.capabilities : null;
}

function keptVerdict(
  rules: CapabilityRules, caller: object, userId: number | null, type: string, editing: boolean, status: string,
): Condition[] | undefined {
  for (const kept of keptVerdicts) {
    if (kept.caller === caller && kept.userId === userId && kept.status === status && kept.type === type
      && kept.editing === editing && kept.rules === rules) return kept.conditions;
  }
  return undefined;
}

function keepVerdict(verdict: KeptVerdict): void {
  for (const condition of verdict.conditions) deepFreeze(condition);
  Object.freeze(verdict.conditions);
  keptVerdicts[nextVerdictSlot] = verdict;
  nextVerdictSlot = (nextVerdictSlot + 1) % MOST_KEPT_VERDICTS;
}

function deepFreeze(condition: Condition): void {
  if ('conditions' in condition) condition.conditions.forEach(deepFreeze);
  else if ('condition' in condition) deepFreeze(condition.condition);
  else if ('values' in condition) Object.freeze(condition.values);
  Object.freeze(condition);
}

function sameStatuses(condition: Condition, statuses: readonly string[]): boolean {
  const unique = new Set(statuses);
  if (condition.op === 'eq' && 'field' in condition && condition.field === 'status') return unique.size === 1 && unique.has(condition.value as string);
  if (condition.op === 'in' && condition.field === 'status') return condition.values.length === unique.size && condition.values.every((value) => unique.has(value as string));
  return false;
}

type Allows = (status: string, own: boolean, trashedFrom?: string) => boolean;

/**
 * The status verdicts as conditions. The statuses that appear in any verdict stay a top-level `in` (which an
 * index answers); the author split, when there is one, is an `or` beside it.
 */
function statusConditions(statuses: readonly string[], userId: number | null, allows: Allows, extra: Condition[]): Condition[] {
  const everyone: string[] = [];
  const ownOnly: string[] = [];
  const othersOnly: string[] = [];
  const pieces: Condition[] = [];
  const mine = userId === null ? null : eq('author', userId);
  const notMine = userId === null ? null : { op: 'not', condition: eq('author', userId) } as Condition;
  for (const status of new Set(statuses)) {
    const others = allows(status, false);
    if (mine === null || notMine === null) {
      if (others) everyone.push(status);
      continue;
    }
    if (status === 'trash') {
      // An own trashed record may be editable or not by the status it had before.
      const fromPublished = allows(status, true, 'publish');
      const fromOther = allows(status, true, 'draft');
      if (fromPublished !== fromOther) {
        const before: Condition = { field: 'trashed_from_status', op: fromPublished ? 'in' : 'notIn', values: PUBLISHED_BEFORE_TRASH };
        pieces.push(and([eq('status', status), others ? or([notMine, before]) : and([mine, before])]));
        continue;
      }
    }
    const own = allows(status, true);
    if (others && own) everyone.push(status);
    else if (own) ownOnly.push(status);
    else if (others) othersOnly.push(status);
  }
  if (everyone.length > 0) pieces.push(oneOf('status', everyone));
  if (ownOnly.length > 0) pieces.push(and([mine!, oneOf('status', ownOnly)]));
  if (othersOnly.length > 0) pieces.push(and([notMine!, oneOf('status', othersOnly)]));
  pieces.push(...extra);

  if (pieces.length === 0) return [NOTHING];
  if (pieces.length === 1) {
    const [only] = pieces;
    return only!.op === 'and' ? [...only!.conditions] : [only!];
  }
  const shown = statuses.filter((status) => pieces.some((piece) => mentionsStatus(piece, status)));
  return [oneOf('status', shown), or(pieces)];
}

function mentionsStatus(condition: Condition, status: string): boolean {
  if ('field' in condition) {
    if (condition.field !== 'status') return false;
    if (condition.op === 'eq') return condition.value === status;
    return condition.op === 'in' && condition.values.includes(status);
  }
  if (condition.op === 'not') return false;
  return condition.conditions.some((inner) => mentionsStatus(inner, status));
}

/** Types whose records cannot be parents (the write routes refuse them as one). */
const NEVER_PARENTS = new Set(['attachment', 'revision']);

/**
 * A condition on `inherit` records that leaves out those whose parent the caller may not read; `null` when the
 * caller may read every possible parent. Published parents are readable by everyone, so only records of the
 * other statuses are looked at, with the same check a single read makes.
 */
async function inheritConditions(context: RequestContext, scope: PostScope): Promise<Condition | null> {
  const rules = scope.postType.deps.capabilityRules;
  if (isPublicStatus('inherit', rules)) return null;
  const candidates = [...new Set<string>([...REGISTERED_STATUSES, ...Object.keys(rules.postStatuses)])]
    .filter((status) => status !== 'inherit' && !isPublicStatus(status, rules));
  const parentTypes = Object.keys(rules.postTypes).filter((type) => !NEVER_PARENTS.has(type));
  const authors = context.user ? [SOMEONE_ELSE, context.user.id] : [SOMEONE_ELSE];
  const readsAll = parentTypes.every((type) => candidates.every((status) => authors.every((authorId) => {
    const subject: PostSubject = { type, status, authorId };
    return readsPost(scope.abilities.user, subject, rules);
  })));
  if (readsAll) return null;

  const hidden = await context.memo('posts:unreadable-parents', async () => {
    const { items } = await postsIn(scope.storage).list({ where: [oneOf('status', candidates)], orderBy: [{ field: 'id', direction: 'asc' }] });
    const ids: number[] = [];
    for (const parent of items) {
      if (!NEVER_PARENTS.has(parent.type) && !(await canReadPost(context, parent, scope.postType.deps))) ids.push(parent.id);
    }
    return ids;
  });
  return hidden.length === 0 ? null : { field: 'parent', op: 'notIn', values: hidden };
}
