/**
 * `POST /contact-forms/{id}/feedback`: checks in the reference's order (content type, then the form, then the
 * unit tag), the submission, its answer, and keeping accepted submissions.
 */
import { takeOrRefuse } from '../auth/index.js';
import type { Principal, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { reply } from '../core/response.js';
import { isJsonMediaType } from '../core/body.js';
import { getUser } from '../users/index.js';
import { modelOf, type FormModel } from './form-model.js';
import { requireForm } from './handlers.js';
import type { PostValues, UserValues } from './mail-tags.js';
import type { FormsRuntime } from './options.js';
import { quizRefill } from './quiz.js';
import { POSTS_COLLECTION, type SubmittedFileReference } from './record.js';
import { formOf, storeSubmission } from './service.js';
import { readInput, unitTagOf } from './submission/input.js';
import { submit, type SubmissionOutcome } from './submission/submit.js';
import { supports } from './tags/types.js';
import { flatten, phpString } from './text.js';
import { formatUtc, isPublicStatus } from '../content/post-type/index.js';

function unsupportedMediaType(): CmsError {
  return new CmsError('wpcf7_unsupported_media_type', 'The request payload format is not supported.', 415);
}

/** Multipart as the reference takes it (the header must start with it, case included), or urlencoded or JSON. */
function acceptsBody(context: RequestContext): boolean {
  const contentType = context.headers['content-type'] ?? '';
  if (contentType.startsWith('multipart/form-data')) return true;
  return context.body.mediaType === 'application/x-www-form-urlencoded' || isJsonMediaType(context.body.mediaType);
}

async function containerPost(runtime: FormsRuntime, id: number): Promise<PostValues | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const post = await runtime.deps.storage.get(POSTS_COLLECTION, id);
  // Only what anyone may read is shown: a published post or page.
  if (!post || !isPublicStatus(String(post.status), runtime.deps.capabilityRules) || (post.type !== 'post' && post.type !== 'page')) return null;
  const author = typeof post.author === 'number' && post.author > 0 ? await getUser(runtime.deps.storage, post.author) : null;
  const home = runtime.deps.site.home ?? runtime.deps.site.url ?? '';
  return {
    id: post.id,
    slug: phpString(post.slug),
    title: phpString(post.title),
    url: `${home.replace(/\/+$/, '')}/?${post.type === 'page' ? 'page_id' : 'p'}=${post.id}`,
    authorName: author?.name ?? '',
    authorEmail: author?.email ?? '',
  };
}

async function userValues(runtime: FormsRuntime, principal: Principal): Promise<UserValues | null> {
  const user = await getUser(runtime.deps.storage, principal.id);
  if (!user) return { user_login: principal.login };
  return {
    user_login: user.login, user_email: user.email, user_url: user.url, display_name: user.name, first_name: user.first_name,
    last_name: user.last_name, nickname: user.nickname, description: user.description, user_nicename: user.slug,
  };
}

function invalidFieldsJson(outcome: SubmissionOutcome, unitTag: string): Record<string, unknown>[] {
  return [...outcome.invalidFields].map(([name, { message, tag }]) => ({
    field: name, message, idref: tag.idref(), error_id: `${unitTag}-ve-${name}`,
  }));
}

export async function submitFeedback(context: RequestContext, runtime: FormsRuntime) {
  if (!acceptsBody(context)) throw unsupportedMediaType();
  const record = await requireForm(context, runtime);
  const unitTag = unitTagOf({ _wpcf7_unit_tag: context.params._wpcf7_unit_tag });
  if (unitTag === '') throw new CmsError('wpcf7_unit_tag_not_found', 'There is no valid unit tag.', 400);
  const { deps } = runtime;
  await takeOrRefuse(deps.throttles?.feedback, context.remoteAddress, deps.clock.now().getTime(), 'You are sending messages too quickly. Please try again later.');

  const model = modelOf(formOf(record, runtime.adminEmail));
  const input = readInput(context.body);
  const referer = context.headers.referer ?? '';
  const outcome = await submit(model, runtime, {
    input,
    unitTag: unitTagOf(input.fields),
    user: context.user,
    remoteIp: context.remoteAddress ?? '',
    userAgent: context.headers['user-agent'] ?? '',
    url: referer !== '' && referer.startsWith(context.site.home) ? referer : context.url(context.path),
    site: context.site,
    post: (id) => containerPost(runtime, id),
    userValues: (user) => userValues(runtime, user),
  });

  const invalidFields = invalidFieldsJson(outcome, unitTag);
  const body: Record<string, unknown> = { contact_form_id: record.id, status: outcome.status, message: outcome.message };
  if (outcome.status === 'validation_failed') body.invalid_fields = invalidFields;
  if (outcome.postedDataHash !== null) body.posted_data_hash = outcome.postedDataHash;
  if (outcome.demoMode && outcome.status !== 'error') body.demo_mode = true;
  body.into = `#${unitTag}`;
  body.invalid_fields = invalidFields;
  const quiz = quizRefill(model, runtime);
  if (quiz) body.quiz = quiz;

  if (outcome.accepted?.keep) await keepSubmission(model, runtime, context, outcome, unitTag);
  return reply(body);
}

/** Stores an accepted submission: the values of the form's own fields (not `do-not-store` ones) and file digests. */
async function keepSubmission(model: FormModel, runtime: FormsRuntime, context: RequestContext, outcome: SubmissionOutcome, unitTag: string) {
  const accepted = outcome.accepted!;
  const fields: Record<string, string | string[]> = {};
  for (const tag of model.tags) {
    if (!tag.name || Object.hasOwn(fields, tag.name) || !supports(tag.type, 'name-attr')) continue;
    if (supports(tag.type, 'do-not-store') || supports(tag.type, 'not-for-mail')) continue;
    const value = accepted.posted[tag.name];
    if (value === undefined) continue;
    fields[tag.name] = Array.isArray(value) ? flatten(value).map(phpString) : flatten(value).map(phpString).join(', ');
  }
  const files: Record<string, SubmittedFileReference[]> = {};
  for (const [field, uploads] of accepted.uploads) {
    files[field] = uploads.map((upload) => ({ name: upload.name, size: upload.size, type: upload.type, sha256: upload.sha256 }));
  }
  await storeSubmission(runtime.deps.storage, {
    form_id: model.form.id!,
    status: outcome.status,
    fields,
    files,
    meta: {
      remote_ip: context.remoteAddress ?? '',
      user_agent: context.headers['user-agent'] ?? '',
      unit_tag: unitTag,
      user_id: context.user?.id ?? 0,
    },
    date_gmt: formatUtc(runtime.deps.clock.now()),
  });
}
