export { createMemoryOutbox, type MemoryOutbox } from './memory-outbox.js';
export { createSmtpMailer, type SmtpMailer, type SmtpMailerOptions } from './smtp.js';
