export type {
  ApplicationPasswordPrincipal,
  CapabilitySubject,
  CommentSubject,
  MetaSubject,
  PostSubject,
  Principal,
  TermSubject,
  UserSubject,
} from './types.js';
export {
  DEFAULT_ROLES,
  allCapabilitiesOf,
  capabilitiesOf,
  createPrincipal,
  createRoleTable,
  type PrincipalSource,
  type RoleChange,
  type RoleChanges,
  type RoleDefinition,
  type RoleTable,
} from './roles.js';
export {
  CORE_POST_TYPE_CAPABILITIES,
  CORE_TAXONOMY_CAPABILITIES,
  postTypeCapabilities,
  taxonomyCapabilities,
  type PostTypeCapabilities,
  type TaxonomyCapabilities,
} from './object-capabilities.js';
export {
  CORE_POST_STATUSES,
  DEFAULT_CAPABILITY_RULES,
  createCapabilityRules,
  type CapabilityRuleOptions,
  type CapabilityRules,
  type PostStatusVisibility,
} from './capability-rules.js';
export { DO_NOT_ALLOW, mapMetaCapability, userCan } from './capabilities.js';
export {
  APPLICATION_PASSWORD_LENGTH,
  DEFAULT_SCRYPT_PARAMETERS,
  UNTAGGED_VERIFIED_PER_ATTEMPT,
  applicationPasswordLookupTag,
  dummyVerify,
  formatApplicationPassword,
  generateApplicationPassword,
  hashApplicationPassword,
  matchApplicationPassword,
  normalizeApplicationPassword,
  verifyApplicationPassword,
  type ScryptParameters,
} from './app-passwords.js';
export { hashAccountPassword, verifyAccountPassword } from './account-passwords.js';
export { parseBasicAuthorization, type BasicCredentials } from './basic.js';
export {
  checkApplicationPassword,
  findApplicationPasswordHolder,
  invalidApplicationPasswordError,
  loginWithApplicationPassword,
  type ApplicationPasswordDirectory,
  type ApplicationPasswordHolder,
  type ApplicationPasswordLogin,
} from './app-password-login.js';
export {
  createSiteSecret, deriveKey, siteSecretProblem, storedOrNewSecret, MIN_SITE_SECRET_LENGTH, SITE_SECRET_COLLECTION, type SiteSecret,
} from './site-secret.js';
export {
  DEFAULT_KNOWN_CLIENT_MS,
  DEFAULT_LOGIN_RULES,
  DEFAULT_RATE_RULES,
  NO_THROTTLES,
  createLoginThrottle,
  createRateLimiter,
  createThrottles,
  takeOrRefuse,
  throttledError,
  type FailureRule,
  type LoginReservation,
  type LoginSubject,
  type LoginThrottle,
  type LoginThrottleOptions,
  type RateLimiter,
  type RateRule,
  type ThrottleOptions,
  type Throttles,
} from './throttle.js';
