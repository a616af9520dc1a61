/** `anyOf` / `oneOf`: finding the matching sub-schema, and the reference's error when none (or several) match. */

import type { ArgIssue } from '../errors.js';
import { joinEnglishList, isPhpArray, entriesOf } from '../../format/php.js';
import type { JsonSchema } from './schema.js';

/** Validates one value against one schema: the first problem, or null. Passed in, as validation recurses through here. */
export type ValueCheck = (value: unknown, schema: JsonSchema, param: string) => ArgIssue | null;

interface BranchFailure {
  issue: ArgIssue;
  schema: JsonSchema;
  index: number;
}

export type MatchResult = { ok: true; schema: JsonSchema } | { ok: false; issue: ArgIssue };

/** A sub-schema without a type takes the parent's. */
function withInheritedType(branch: JsonSchema, parent: JsonSchema): JsonSchema {
  if (branch.type == null && parent.type != null) return { ...branch, type: parent.type };
  return branch;
}

export function findAnyMatchingSchema(value: unknown, schema: JsonSchema, param: string, validateValue: ValueCheck): MatchResult {
  const failures: BranchFailure[] = [];
  for (const [index, branch] of (schema.anyOf ?? []).entries()) {
    const candidate = withInheritedType(branch, schema);
    const issue = validateValue(value, candidate, param);
    if (!issue) return { ok: true, schema: candidate };
    failures.push({ issue, schema: candidate, index });
  }
  return { ok: false, issue: combiningError(value, param, failures) };
}

export function findOneMatchingSchema(value: unknown, schema: JsonSchema, param: string, validateValue: ValueCheck): MatchResult {
  const failures: BranchFailure[] = [];
  const matches: { schema: JsonSchema; index: number }[] = [];
  for (const [index, branch] of (schema.oneOf ?? []).entries()) {
    const candidate = withInheritedType(branch, schema);
    const issue = validateValue(value, candidate, param);
    if (issue) failures.push({ issue, schema: candidate, index });
    else matches.push({ schema: candidate, index });
  }
  if (matches.length === 0) return { ok: false, issue: combiningError(value, param, failures) };
  if (matches.length > 1) {
    const positions = matches.map((match) => match.index);
    const titles = matches.map((match) => match.schema.title).filter((title): title is string => title != null);
    const message =
      titles.length === matches.length
        ? `${param} matches ${joinEnglishList(titles)}, but should match only one.`
        : `${param} matches more than one of the expected formats.`;
    return { ok: false, issue: { code: 'rest_one_of_multiple_matches', message, data: { positions } } };
  }
  return { ok: true, schema: matches[0]!.schema };
}

function formatFailure(param: string, failure: BranchFailure): ArgIssue {
  const reason = failure.issue.message;
  const message =
    failure.schema.title != null
      ? `${param} is not a valid ${failure.schema.title}. Reason: ${reason}`
      : `${param} does not match the expected format. Reason: ${reason}`;
  return { code: 'rest_no_matching_schema', message, data: { position: failure.index } };
}

function isTypeErrorAbout(issue: ArgIssue, param: string): boolean {
  if (issue.code !== 'rest_invalid_type') return false;
  const data = issue.data;
  const about = data !== null && typeof data === 'object' && !Array.isArray(data) ? data.param : undefined;
  return about == null || about === param;
}

function combiningError(value: unknown, param: string, failures: BranchFailure[]): ArgIssue {
  if (failures.length === 1) return formatFailure(param, failures[0]!);

  const relevant = failures.filter((failure) => !isTypeErrorAbout(failure.issue, param));
  if (relevant.length === 1) return formatFailure(param, relevant[0]!);

  if (relevant.length > 1 && relevant[0]!.schema.type === 'object') {
    const valueKeys = new Set(isPhpArray(value) ? entriesOf(value).map(([key]) => key) : []);
    let best: BranchFailure | null = null;
    let bestOverlap = 0;
    for (const failure of relevant) {
      const properties = failure.schema.properties;
      if (properties == null) continue;
      const overlap = Object.keys(properties).filter((name) => valueKeys.has(name)).length;
      if (overlap > bestOverlap) {
        best = failure;
        bestOverlap = overlap;
      }
    }
    if (best) return formatFailure(param, best);
  }

  const titles = failures.map((failure) => failure.schema.title).filter((title): title is string => title != null);
  if (titles.length === failures.length) {
    // An empty list swallows the rest of its placeholder's text in the reference, full stop included.
    const list = titles.length > 0 ? `${joinEnglishList(titles)}.` : '';
    return { code: 'rest_no_matching_schema', message: `${param} is not a valid ${list}`, data: null };
  }
  return { code: 'rest_no_matching_schema', message: `${param} does not match any of the expected formats.`, data: null };
}
