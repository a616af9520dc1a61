/**
 * Quizzes: each `[quiz name "Question?|answer"]` shows one of its questions at random; the answer travels as a
 * keyed hash of its canonical form in `_wpcf7_quiz_answer_<name>`, and the reply is hashed the same way.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { FormModel } from './form-model.js';
import type { FormsRuntime } from './options.js';
import type { FormTag } from './tags/form-tag.js';
import { canonicalize } from './text.js';

const QUIZ_PURPOSE = 'wpcf7_quiz';

export function answerHash(answer: string, runtime: FormsRuntime): string {
  return runtime.hash(canonicalize(answer, { stripSeparators: true }), QUIZ_PURPOSE);
}

/** A random question of the tag and the hash of its answer (`1+1=?` / `2` when the tag has none). */
export function quizPair(tag: FormTag, runtime: FormsRuntime): [question: string, hash: string] {
  const pipes = tag.pipes?.all ?? [];
  const pipe = pipes.length > 0 ? pipes[randomInt(pipes.length)]! : { before: '1+1=?', after: '2' };
  return [pipe.before, answerHash(pipe.after, runtime)];
}

/** Whether the reply matches the hash the form carried. */
export function quizAnswered(reply: string, expected: unknown, runtime: FormsRuntime): boolean {
  if (typeof expected !== 'string') return false;
  const actual = Buffer.from(answerHash(reply, runtime));
  const wanted = Buffer.from(expected);
  return actual.length === wanted.length && timingSafeEqual(actual, wanted);
}

/** The refill answer: fresh quiz pairs by field, or null when the form has no quiz. */
export function quizRefill(model: FormModel, runtime: FormsRuntime): Record<string, [string, string]> | null {
  const quizzes = model.tags.filter((tag) => tag.type === 'quiz' && tag.name !== '');
  if (quizzes.length === 0) return null;
  const refill: Record<string, [string, string]> = {};
  for (const tag of quizzes) refill[tag.name] = quizPair(tag, runtime);
  return refill;
}
