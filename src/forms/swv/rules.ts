/**
 * The SWV ("schema-woven validation") rules and how each judges a submission. Text rules read the value as it
 * was posted (before pipes), flattened, trimmed and without blanks; file rules read the field's uploads.
 */
import { MIME_TYPES } from '../../format/mime-types.js';
import { countCodeUnits, inputItems, normalizeNewlines, phpString } from '../text.js';
import { isDate, isEmail, isNumber, isTel, isTime, isUrl } from '../validators.js';

export interface SwvRule {
  rule: string;
  field?: string;
  error?: string;
  threshold?: number | string;
  accept?: string[];
  base?: string;
  interval?: number;
  rules?: SwvRule[];
}

export const RULE_NAMES: readonly string[] = [
  'required', 'requiredfile', 'email', 'url', 'tel', 'number', 'date', 'time', 'file', 'enum', 'dayofweek', 'minitems',
  'maxitems', 'minlength', 'maxlength', 'minnumber', 'maxnumber', 'mindate', 'maxdate', 'minfilesize', 'maxfilesize',
  'stepnumber', 'all', 'any',
];

const FILE_RULES = new Set(['requiredfile', 'file', 'minfilesize', 'maxfilesize']);

export interface UploadView {
  name: string;
  size: number;
}

/** What the rules read from a submission. */
export interface SwvInput {
  /** The value posted under a field name, as sent; undefined when absent. */
  posted(field: string): unknown;
  /** The files uploaded under a field name (empty file inputs left out). */
  uploads(field: string): readonly UploadView[];
  /** The weekday (1 = Monday … 7 = Sunday) of a `YYYY-MM-DD` date. */
  weekday(date: string): number;
}

export interface SwvScope {
  text: boolean;
  file: boolean;
  /** Only rules of these fields; every field when empty. */
  fields: readonly string[];
}

/** Whether a rule takes part in this pass. */
export function ruleMatches(rule: SwvRule, scope: SwvScope): boolean {
  if (rule.rule === 'all' || rule.rule === 'any') return true;
  if (scope.fields.length > 0 && rule.field && !scope.fields.includes(rule.field)) return false;
  return FILE_RULES.has(rule.rule) ? scope.file : scope.text;
}

/** File extensions a MIME type (or `family/*`) stands for, from the upload type table. */
export function extensionsForMime(mime: string): string[] {
  const found = /^([a-z]+)\/([*]|[a-z0-9.+-]+)$/i.exec(mime);
  if (!found) return [];
  const extensions: string[] = [];
  for (const [keys, type] of Object.entries(MIME_TYPES)) {
    if ((found[2] === '*' && type.startsWith(`${found[1]}/`)) || type === found[0]) extensions.push(...keys.split('|'));
  }
  return [...new Set(extensions)];
}

const toFloat = (text: string) => Number.parseFloat(text);

/** Null when the rule passes, else the rule (whose `error` is the message). */
export function checkRule(rule: SwvRule, input: SwvInput, scope: SwvScope): SwvRule | null {
  const field = rule.field ?? '';
  const items = () => inputItems(input.posted(field) ?? '');
  const threshold = rule.threshold === undefined ? '' : phpString(rule.threshold);
  const fail = rule;
  switch (rule.rule) {
    case 'required': return items().length === 0 ? fail : null;
    case 'requiredfile': return input.uploads(field).length === 0 ? fail : null;
    case 'email': return items().every(isEmail) ? null : fail;
    case 'url': return items().every(isUrl) ? null : fail;
    case 'tel': return items().every(isTel) ? null : fail;
    case 'number': return items().every(isNumber) ? null : fail;
    case 'date': return items().every(isDate) ? null : fail;
    case 'time': return items().every(isTime) ? null : fail;
    case 'enum': {
      const accept = new Set((rule.accept ?? []).map((value) => normalizeNewlines(phpString(value))).filter((value) => value !== ''));
      return items().every((item) => accept.has(normalizeNewlines(item))) ? null : fail;
    }
    case 'dayofweek': {
      const accept = new Set((rule.accept ?? []).map((value) => Number.parseInt(phpString(value), 10)).filter((day) => day > 0));
      return items().filter(isDate).every((item) => accept.has(input.weekday(item))) ? null : fail;
    }
    case 'minitems': return isNumber(threshold) && items().length < Math.trunc(toFloat(threshold)) ? fail : null;
    case 'maxitems': return isNumber(threshold) && Math.trunc(toFloat(threshold)) < items().length ? fail : null;
    case 'minlength':
    case 'maxlength': {
      const list = items();
      if (list.length === 0) return null;
      const total = list.reduce((sum, item) => sum + countCodeUnits(item), 0);
      const limit = Math.trunc(toFloat(threshold)) || 0;
      return (rule.rule === 'minlength' ? limit <= total : total <= limit) ? null : fail;
    }
    case 'minnumber':
    case 'maxnumber': {
      if (!isNumber(threshold)) return null;
      const limit = toFloat(threshold);
      const outside = items().some((item) => isNumber(item) && (rule.rule === 'minnumber' ? toFloat(item) < limit : limit < toFloat(item)));
      return outside ? fail : null;
    }
    case 'mindate':
    case 'maxdate': {
      if (!isDate(threshold)) return null;
      const outside = items().some((item) => isDate(item) && (rule.rule === 'mindate' ? item < threshold : threshold < item));
      return outside ? fail : null;
    }
    case 'file': return checkFileTypes(rule, input.uploads(field)) ? null : fail;
    case 'minfilesize':
    case 'maxfilesize': {
      const uploads = input.uploads(field);
      if (uploads.length === 0) return null;
      const total = uploads.reduce((sum, upload) => sum + upload.size, 0);
      const limit = toFloat(threshold);
      return (rule.rule === 'minfilesize' ? total < limit : limit < total) ? fail : null;
    }
    case 'stepnumber': {
      const base = toFloat(rule.base ?? '0') || 0;
      const interval = rule.interval ?? 0;
      if (!(interval > 0)) return null;
      const off = items().some((item) => {
        const remainder = (toFloat(item) - base) % interval;
        return !(Number(Math.abs(remainder).toFixed(6)) === 0 || Number(Math.abs(remainder - interval).toFixed(6)) === 0);
      });
      return off ? fail : null;
    }
    case 'all': {
      for (const child of rule.rules ?? []) {
        if (!ruleMatches(child, scope)) continue;
        const failed = checkRule(child, input, scope);
        if (failed) return failed.error ? failed : rule;
      }
      return null;
    }
    case 'any': {
      for (const child of rule.rules ?? []) {
        if (ruleMatches(child, scope) && checkRule(child, input, scope) === null) return null;
      }
      return fail;
    }
    default: return null;
  }
}

function checkFileTypes(rule: SwvRule, uploads: readonly UploadView[]): boolean {
  const accepted = new Set<string>();
  for (const accept of rule.accept ?? []) {
    if (/^\.[a-z0-9]+$/i.test(accept)) accepted.add(accept.toLowerCase());
    else for (const extension of extensionsForMime(accept)) accepted.add(`.${extension.toLowerCase()}`);
  }
  return uploads.every((upload) => {
    const dot = upload.name.lastIndexOf('.');
    return dot !== -1 && accepted.has(upload.name.slice(dot).toLowerCase());
  });
}

/** Runs every rule of the scope in order; the first failure per field is kept (field → message). */
export function validateSchema(rules: readonly SwvRule[], input: SwvInput, scope: SwvScope, into: Map<string, string>): void {
  for (const rule of rules) {
    if (!ruleMatches(rule, scope)) continue;
    const failed = checkRule(rule, input, scope);
    if (!failed) continue;
    const field = failed.field ?? rule.field;
    if (field && !into.has(field)) into.set(field, failed.error ?? '');
  }
}
