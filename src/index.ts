export { createCms, NAMESPACES, DEFAULT_MAX_BODY_BYTES, type Cms, type CmsOptions } from './cms.js';
export type { CmsRequest, CmsResponse, JsonValue, ParamMap, ParamValue, UploadedFile, HeaderMap } from './core/types.js';
export { CmsError } from './core/errors.js';
export { encodeResponse, type EncodedResponse } from './core/encode.js';
export type { TrustProxy } from './core/client-address.js';
export type { SiteSettings } from './core/site.js';
export type { Principal, RequestContext, Item, Links, LinkTarget, HandlerResult } from './core/context.js';
export type { Authenticator } from './core/dispatch.js';
export type { ResponseCacheOptions } from './core/cache/response-cache.js';
export type { FragmentCacheOptions } from './core/cache/fragments.js';
export { systemClock, fixedClock, type Clock } from './ports/clock.js';
export { ensureAdministrator, type AdministratorOptions, type AdministratorSetup, type User, type UsersApi } from './users/index.js';
export { createPrincipal, userCan, type RoleChanges, type CapabilityRuleOptions } from './auth/index.js';
export { createSiteSecret, deriveKey, MIN_SITE_SECRET_LENGTH, type SiteSecret } from './auth/index.js';
export type { StoragePort, ListQuery, ListResult, Condition, StoredRecord, NewRecord } from './ports/storage.js';
export { isStorageError, type StorageError, type StorageErrorCode, type SortKey, type Scalar, type TextSearch, type RecordId } from './ports/storage.js';
export { storageError } from './storage/errors.js';
export { createMemoryStorage } from './storage/memory/index.js';
export type { ThrottleStore, ThrottleCounter } from './ports/throttle.js';
export { createMemoryThrottleStore, createStoredThrottleStore, type MemoryThrottleOptions } from './storage/throttle/index.js';
export {
  DEFAULT_LOGIN_RULES, DEFAULT_RATE_RULES, type ThrottleOptions, type LoginThrottleOptions, type FailureRule, type RateRule,
} from './auth/index.js';
export { createSafeHttpClient, serveUpload, keyOfUploadPath, ImageCodecUnavailableError, type UploadsOptions, type ImageWorkOptions, type SafeHttpClientOptions } from './media/index.js';
export { createMemoryBlobStore, createFilesystemBlobStore, type FilesystemBlobStoreOptions } from './storage/blobs/index.js';
export { BlobExistsError, type BlobStore } from './ports/blobs.js';
export { assertBlobKey, assertBlobPrefix, InvalidBlobKeyError, type BlobInfo, type StoredBlob, type PutOptions } from './ports/blobs.js';
export type { HttpClient } from './ports/http-client.js';
export type { CmsDeps } from './deps.js';
export type { Mailer, MailMessage, MailAttachment } from './ports/mailer.js';
export { createMemoryOutbox, type MemoryOutbox } from './mail/index.js';
export { createSmtpMailer, type SmtpMailer, type SmtpMailerOptions } from './mail/index.js';
export {
  createFormsApi, FORM_TYPE,
  type FormsApi, type FormsOptions, type FormSummary, type FormView, type FormWrite, type RenderOptions, type Submission,
  type SubmissionSummary, type SpamVerdict, type BeforeSendMailVerdict,
} from './forms/index.js';
export type { SlidersApi, SliderDocument, SliderSummary } from './sliders/index.js';
export { DEFAULT_PROVIDERS, type OembedApi, type OembedDiscoveryLinks, type OembedOptions, type OembedCacheOptions, type OembedProvider } from './embed/index.js';
export {
  createLocalMailingProvider, createMailchimpProvider, mailchimpBaseUrl, subscriberHash,
  type MailingApi, type MailingOptions, type SignupForm, type SignupFormInput, type FormSettings, type FormMessages,
  type LocalMailingProvider, type LocalMailingProviderOptions, type MailchimpProviderOptions,
  type ConfirmationDetails, type ConfirmationMailComposer,
} from './mailing/index.js';
export {
  MailingListError, isMailingListError,
  type MailingListProvider, type SubscribeRequest, type SubscribeResult, type SignupOrigin, type Subscriber,
  type SubscriberPage, type SubscriberQuery, type SubscriberStatus, type SubscriberTag, type MergeValue, type TokenOutcome,
} from './ports/mailing-list.js';
export type { CommentsApi, CommentOptions, CommentRecord, CommentStatus, NewCommentInput } from './comments/index.js';
export {
  WEBHOOK_EVENTS, signatureHeader,
  type WebhooksApi, type WebhookOptions, type WebhookEvent, type WebhookSubscription, type WebhookSubscriptionInput,
  type WebhookDelivery, type EventSubject, type RetryPolicy, type Timers,
} from './webhooks/index.js';
export {
  WxrError, isWxrError, createProgressReporter,
  type WxrErrorCode, type WxrImportOptions, type WxrImportSummary, type WxrProgress, type WxrCounts, type WxrSource,
  type WxrLimits, type WxrIdMaps, type WxrSite, type ProgressReporter, type ProgressReporterOptions,
} from './wxr/index.js';
