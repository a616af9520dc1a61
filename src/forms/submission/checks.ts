/**
 * The checks of a submission before mail, in the plugin's order: field validation (the schema's text rules, then
 * the quiz, the acceptance checkboxes when they count as validation, CAPTCHA responses), the acceptance of terms,
 * and spam (short user agent, disallowed words, honeypot fields, the host's own check).
 */
import type { FormModel } from '../form-model.js';
import { quizAnswered } from '../quiz.js';
import type { FormsRuntime } from '../options.js';
import { validateSchema, type SwvInput, type SwvRule } from '../swv/index.js';
import type { FormTag } from '../tags/form-tag.js';
import { isName, supports } from '../tags/types.js';
import { flatten, phpString } from '../text.js';
import { postedValue } from './input.js';
import type { SubmissionSummary } from './summary.js';

/** Invalid fields in the order they were found, each with its first message and its tag. */
export type InvalidFields = Map<string, { message: string; tag: FormTag }>;

function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return !(value === '' || value === '0' || value === null || value === undefined);
}

function invalidate(invalid: InvalidFields, tag: FormTag, message: string): void {
  if (!tag.name || !isName(tag.name) || invalid.has(tag.name)) return;
  invalid.set(tag.name, { message, tag });
}

export interface ValidationInput {
  model: FormModel;
  runtime: FormsRuntime;
  rules: readonly SwvRule[];
  swv: SwvInput;
  fields: Readonly<Record<string, unknown>>;
  message(key: string): string;
}

export function validateFields(input: ValidationInput): InvalidFields {
  const { model, fields } = input;
  const invalid: InvalidFields = new Map();
  const failures = new Map<string, string>();
  validateSchema(input.rules, input.swv, { text: true, file: false, fields: [] }, failures);
  for (const [field, message] of failures) {
    const tag = model.tags.find((candidate) => candidate.name === field);
    if (tag) invalidate(invalid, tag, message);
  }
  const acceptanceAsValidation = model.isOn('acceptance_as_validation');
  for (const tag of model.tags) {
    if (supports(tag.type, 'file-uploading') || !tag.name) continue;
    if (tag.type === 'quiz') {
      const reply = postedValue(fields, tag.name);
      const expected = postedValue(fields, `_wpcf7_quiz_answer_${tag.name}`, null);
      if (!quizAnswered(typeof reply === 'string' ? reply : '', expected, input.runtime)) {
        invalidate(invalid, tag, input.message('quiz_answer_not_correct'));
      }
    } else if (tag.type === 'acceptance' && acceptanceAsValidation && !tag.hasOption('optional')) {
      if (!acceptanceSatisfied(tag, fields)) invalidate(invalid, tag, input.message('accept_terms'));
    } else if (tag.type === 'captchar') {
      // CAPTCHA images need a plugin the site does not have, so no response can match.
      invalidate(invalid, tag, input.message('captcha_not_match'));
    }
  }
  return invalid;
}

function acceptanceSatisfied(tag: FormTag, fields: Readonly<Record<string, unknown>>): boolean {
  const ticked = truthy(postedValue(fields, tag.name));
  return tag.hasOption('invert') ? !ticked : ticked;
}

/** Every required acceptance checkbox ticked (or, with `invert`, left unticked). */
export function termsAccepted(model: FormModel, fields: Readonly<Record<string, unknown>>): boolean {
  return model.tags
    .filter((tag) => tag.type === 'acceptance' && tag.name !== '' && !tag.hasOption('optional'))
    .every((tag) => acceptanceSatisfied(tag, fields));
}

export interface SpamInput {
  model: FormModel;
  runtime: FormsRuntime;
  posted: Readonly<Record<string, unknown>>;
  summary: SubmissionSummary;
}

/** The first word of the list found (case ignored) in the text, or null; words shorter than 2 are skipped. */
export function disallowedWordIn(text: string, words: readonly string[]): string | null {
  const haystack = text.toLowerCase();
  for (const raw of words) {
    for (const line of raw.split('\n')) {
      const word = line.trim();
      const length = Buffer.byteLength(word);
      if (length < 2 || length > 256) continue;
      if (haystack.includes(word.toLowerCase())) return word;
    }
  }
  return null;
}

/** Why the submission is spam, or null. */
export async function spamReason(input: SpamInput): Promise<string | null> {
  const { model, runtime, posted, summary } = input;
  if (Buffer.byteLength(summary.userAgent) < 2) return 'User-Agent string is unnaturally short.';
  const words = runtime.deps.site.disallowedKeys ?? [];
  if (words.length > 0) {
    const target = [...flatten(posted).map(phpString), summary.remoteIp, summary.userAgent].join('\n');
    const word = disallowedWordIn(target, words);
    if (word !== null) return `Disallowed words (${word}) are used.`;
  }
  for (const tag of model.tags) {
    if (tag.basetype !== 'hidden' || !tag.hasOption('honeypot') || !tag.name) continue;
    const value = posted[tag.name];
    if (value !== undefined && flatten(value).some((item) => phpString(item) !== '')) return 'A field that people leave empty was filled in.';
  }
  const check = runtime.options.spamCheck;
  if (check) {
    const verdict = await check(summary);
    if (verdict === true) return 'The site\'s spam check refused the submission.';
    if (typeof verdict === 'string' && verdict !== '') return verdict;
  }
  return null;
}
