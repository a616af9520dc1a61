export { createMemoryBlobStore } from './memory.js';
export { createFilesystemBlobStore, type FilesystemBlobStoreOptions } from './filesystem.js';
