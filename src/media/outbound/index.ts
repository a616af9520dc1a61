export { createSafeHttpClient, type SafeHttpClientOptions, type ResolvedAddress } from './client.js';
export { isBlockedAddress, addressMatcher, parseAddress } from './addresses.js';
