/**
 * Posted data as the plugin builds it: every field whose name does not start with `_`, cleaned; each named tag's
 * value present (empty when missing); choices turned into lists and run through the pipes; a checkbox's free text
 * appended to its last choice. And the hash of it all that the answer carries.
 */
import type { FormModel } from '../form-model.js';
import type { FormsRuntime } from '../options.js';
import { supports } from '../tags/types.js';
import { flatJoin, phpTrim } from '../text.js';
import { cleanValue, postedValue } from './input.js';

export interface PostedData {
  values: Record<string, unknown>;
  /** A tag with `consent_for:storage` was left unticked: the submission must not be kept. */
  consentMissing: boolean;
}

/** A posted value left blank: "", "0", null, absent, an empty list or map (not PHP's `empty()`: false and 0 count as given). */
function leftBlank(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length === 0;
  return value === '' || value === '0' || value === null || value === undefined;
}

export function buildPostedData(model: FormModel, fields: Readonly<Record<string, unknown>>): PostedData {
  const values = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith('_')) values[name] = cleanValue(value);
  }
  let consentMissing = false;
  const seen = new Set<string>();
  for (const tag of model.tags) {
    if (!tag.name || seen.has(tag.name) || !supports(tag.type, 'name-attr') || supports(tag.type, 'not-for-mail')) continue;
    seen.add(tag.name);
    let value: unknown = Object.hasOwn(values, tag.name) ? values[tag.name] : '';
    if (supports(tag.type, 'selectable-values')) {
      const list = value === '' ? [] : Array.isArray(value) ? value : value !== null && typeof value === 'object' ? Object.values(value) : [value];
      const pipes = model.pipesOf(tag.name);
      value = list.map((item) => (typeof item === 'string' ? pipes.apply(item) : item));
      if ((tag.basetype === 'checkbox' || tag.basetype === 'radio') && tag.hasOption('free_text')) {
        const items = value as unknown[];
        const last = items.pop();
        if (last !== undefined) {
          const freeText = postedValue(fields, `_wpcf7_free_text_${tag.name}`);
          items.push(phpTrim(`${typeof last === 'string' ? last : ''} ${typeof freeText === 'string' ? freeText : ''}`));
        }
      }
    }
    values[tag.name] = value;
    if (tag.hasOption('consent_for:storage') && leftBlank(value)) consentMissing = true;
  }
  return { values, consentMissing };
}

/** The posted-data hash: a keyed hash of the half-hour tick, the address, the unit tag and every value. */
export function postedDataHash(runtime: FormsRuntime, now: Date, remoteIp: string, unitTag: string, values: Readonly<Record<string, unknown>>): string {
  const tick = Math.ceil(now.getTime() / 1000 / 1800);
  return runtime.hash(flatJoin([String(tick), remoteIp, unitTag, ...Object.values(values)]), 'wpcf7_submission');
}
