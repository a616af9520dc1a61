export { createMemoryOutbox, type MemoryOutbox } from './memory-outbox.js';
