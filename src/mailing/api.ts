/**
 * `cms.mailing`: sign-up forms and subscribers in-process, for seeding, imports and administration. Inputs are
 * the admin routes' bodies and are checked by the same argument definitions; a bad one throws the route's
 * `CmsError` (`rest_invalid_param`, ...).
 */
import type { SubscriberPage, SubscriberStatus } from '../ports/mailing-list.js';
import { formWriteArgs } from './args.js';
import { siteOutsideRequests, type MailingDeps } from './deps.js';
import { checkInput, createForm, deleteForm, updateForm } from './forms-service.js';
import { getFormRecord, listFormRecords, toSignupForm, type SignupForm } from './forms-store.js';
import { unsupported } from './handlers.js';

/** The body of `POST /mailing/v1/forms` (every member optional). */
export interface SignupFormInput {
  title?: string;
  slug?: string;
  status?: 'publish' | 'draft';
  content?: string;
  settings?: Record<string, unknown>;
  messages?: Record<string, string>;
}

export interface MailingApi {
  /** Creates a sign-up form, as `POST /mailing/v1/forms` does. */
  createSignupForm(input: SignupFormInput): Promise<SignupForm>;
  /** Every sign-up form, by id. */
  listSignupForms(): Promise<SignupForm[]>;
  getSignupForm(id: number): Promise<SignupForm | null>;
  /** Changes the members given, as `PATCH /mailing/v1/forms/{id}` does; throws 404 for an unknown form. */
  updateSignupForm(id: number, changes: SignupFormInput): Promise<SignupForm>;
  /** Whether a form was deleted. */
  deleteSignupForm(id: number): Promise<boolean>;
  /** One page of a list's subscribers (the local provider). */
  listSubscribers(query: { list: string; status?: SubscriberStatus; page?: number; perPage?: number }): Promise<SubscriberPage>;
  /** An unsubscribe link for the host's own messages (the local provider). */
  unsubscribeUrl(email: string, lists: string[]): Promise<string>;
}

export function createMailingApi(deps: MailingDeps): MailingApi {
  return {
    createSignupForm: async (input) => createForm(deps, checkInput(input, formWriteArgs())),

    async listSignupForms() {
      const forms: SignupForm[] = [];
      for (let page = 1; ; page++) {
        const { items, total } = await listFormRecords(deps.storage, page, 100);
        forms.push(...items.map(toSignupForm));
        if (items.length === 0 || forms.length >= total) return forms;
      }
    },

    async getSignupForm(id) {
      const record = await getFormRecord(deps.storage, id);
      return record ? toSignupForm(record) : null;
    },

    updateSignupForm: async (id, changes) => updateForm(deps, id, checkInput(changes, formWriteArgs())),

    async deleteSignupForm(id) {
      if (!(await getFormRecord(deps.storage, id))) return false;
      await deleteForm(deps, id);
      return true;
    },

    async listSubscribers(query) {
      if (!deps.provider.listSubscribers) throw unsupported('list subscribers');
      return deps.provider.listSubscribers({ list: query.list, status: query.status, page: query.page ?? 1, perPage: query.perPage ?? 100 });
    },

    async unsubscribeUrl(email, lists) {
      if (!deps.localProvider) throw unsupported('make unsubscribe links');
      const token = await deps.localProvider.unsubscribeToken(email, lists);
      return siteOutsideRequests(deps).apiLink('/mailing/v1/unsubscribe', { token });
    },
  };
}
