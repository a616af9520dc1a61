/** Permission checks of the term routes (categories, tags, pattern categories), with the reference's codes and messages. */
import { userCan } from '../../auth/index.js';
import type { PermissionResult, RequestContext } from '../../core/context.js';
import { CmsError, forbidden } from '../../core/errors.js';
import { readsPost, subjectOf, type PostRecord } from '../post-type/index.js';
import { DEFAULT_CATEGORY_ID, type TermRecord } from '../taxonomy/index.js';
import type { TermType } from './deps.js';
import { loadPostOf, requireTerm } from './load.js';
import { isEmpty } from '../../format/php.js';

function can(context: RequestContext, terms: TermType, capability: string, term?: TermRecord): boolean {
  const subject = term ? { taxonomy: term.taxonomy, isDefault: term.taxonomy === 'category' && term.id === DEFAULT_CATEGORY_ID } : undefined;
  return userCan(context.user, capability, subject, terms.deps.capabilityRules);
}

function capabilityName(terms: TermType, which: 'edit_terms' | 'assign_terms'): string {
  return terms.deps.capabilityRules.taxonomies[terms.definition.name]?.[which] ?? 'do_not_allow';
}

/** Runs a check that needs the URL's term, turning a missing term into its error. */
async function withTerm(context: RequestContext, terms: TermType, check: (term: TermRecord) => true | CmsError): Promise<PermissionResult> {
  try {
    return check(await requireTerm(context, terms));
  } catch (error) {
    if (error instanceof CmsError) return error;
    throw error;
  }
}

function mayReadTermsOf(context: RequestContext, terms: TermType, post: PostRecord): boolean {
  const subject = subjectOf(post, context.site);
  if (!terms.definition.objectTypes.includes(subject.type)) return false;
  return readsPost(context.user, subject, terms.deps.capabilityRules);
}

export async function canListTerms(context: RequestContext, terms: TermType): Promise<PermissionResult> {
  if (context.context === 'edit' && !can(context, terms, capabilityName(terms, 'edit_terms'))) {
    return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit terms in this taxonomy.');
  }
  const postId = context.params.post;
  if (!isEmpty(postId)) {
    const post = await loadPostOf(context, terms, Number(postId));
    if (!post) return new CmsError('rest_post_invalid_id', 'Invalid post ID.', 400);
    if (!mayReadTermsOf(context, terms, post)) {
      return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to view terms for this post.');
    }
  }
  return true;
}

export function canReadTerm(context: RequestContext, terms: TermType): Promise<PermissionResult> {
  return withTerm(context, terms, (term) => (context.context === 'edit' && !can(context, terms, 'edit_term', term)
    ? forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this term.')
    : true));
}

export function canCreateTerm(context: RequestContext, terms: TermType): PermissionResult {
  const capability = capabilityName(terms, terms.definition.hierarchical ? 'edit_terms' : 'assign_terms');
  return can(context, terms, capability)
    ? true
    : forbidden(context.user, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
}

export function canUpdateTerm(context: RequestContext, terms: TermType): Promise<PermissionResult> {
  return withTerm(context, terms, (term) => (can(context, terms, 'edit_term', term)
    ? true
    : forbidden(context.user, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.')));
}

export function canDeleteTerm(context: RequestContext, terms: TermType): Promise<PermissionResult> {
  return withTerm(context, terms, (term) => (can(context, terms, 'delete_term', term)
    ? true
    : forbidden(context.user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.')));
}
