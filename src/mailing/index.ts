import type { Registry } from '../core/registry.js';
import type { MailingDeps } from './deps.js';
import { mailingRoutes } from './routes.js';

export { createMailingApi, type MailingApi, type SignupFormInput } from './api.js';
export { createMailingDeps, type MailingDeps, type MailingOptions } from './deps.js';
export { FORM_TYPE, type SignupForm } from './forms-store.js';
export type { FormMessages, FormSettings } from './settings.js';
export type { ConfirmationDetails, ConfirmationMailComposer } from './providers/local/confirmation-mail.js';
export { createLocalMailingProvider, type LocalMailingProvider, type LocalMailingProviderOptions } from './providers/local/provider.js';
export { createMailchimpProvider, subscriberHash, type MailchimpProviderOptions } from './providers/mailchimp/provider.js';
export { mailchimpBaseUrl } from './providers/mailchimp/client.js';

/** Registers the `mailing/v1` routes (the namespace must be declared). */
export function registerMailing(registry: Registry, deps: MailingDeps): void {
  registry.addRoutes('mailing/v1', mailingRoutes(deps));
}
