import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { runStorageConformance } from './conformance.js';

runStorageConformance('memory', async () => createMemoryStorage());
runStorageConformance('memory without indexes', async () => createMemoryStorage({ useIndexes: false }));
runStorageConformance('memory keeping one index per collection', async () => createMemoryStorage({ maxIndexesPerCollection: 1 }));
