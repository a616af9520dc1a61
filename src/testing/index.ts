/**
 * `quire/testing`: the conformance suites a store written outside quire runs to show it behaves as quire's own
 * stores do (docs/storage.md). They register tests with node:test, or with another runner's `describe` and `it`.
 */
export { runStorageConformance } from './storage-conformance.js';
export { runBlobStoreConformance } from './blob-conformance.js';
export type { MakeStore } from './conformance/support.js';
export type { TestRunner } from './runner.js';
