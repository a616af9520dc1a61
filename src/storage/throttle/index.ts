export { createMemoryThrottleStore, type MemoryThrottleOptions } from './memory.js';
export { createStoredThrottleStore, THROTTLE_COLLECTION } from './stored.js';
