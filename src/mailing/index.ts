import { MAILING } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import type { CmsDeps } from '../deps.js';
import { createMailingApi } from './api.js';
import { createMailingDeps, type MailingOptions } from './deps.js';
import { mailingRoutes } from './routes.js';

export { createMailingApi, type MailingApi, type SignupFormInput } from './api.js';
export { createMailingDeps, type MailingDeps, type MailingOptions } from './deps.js';
export { FORM_TYPE, type SignupForm } from './forms-store.js';
export type { FormMessages, FormSettings } from './settings.js';
export type { ConfirmationDetails, ConfirmationMailComposer } from './providers/local/confirmation-mail.js';
export { createLocalMailingProvider, type LocalMailingProvider, type LocalMailingProviderOptions } from './providers/local/provider.js';
export { createMailchimpProvider, subscriberHash, type MailchimpProviderOptions } from './providers/mailchimp/provider.js';
export { mailchimpBaseUrl } from './providers/mailchimp/client.js';

export const mailingResource = defineResource({
  namespace: MAILING,
  deps: (shared: CmsDeps, options: { mailing?: MailingOptions }) => createMailingDeps(shared, options.mailing),
  routes: mailingRoutes,
  /** Sign-up forms and subscribers, in-process. */
  api: { name: 'mailing', create: createMailingApi },
});
