import type { Mailer, MailMessage } from '../ports/mailer.js';

/** A mailer that keeps every message in memory, in the order sent: the default, and what tests read. */
export interface MemoryOutbox extends Mailer {
  readonly messages: readonly MailMessage[];
  clear(): void;
}

export function createMemoryOutbox(): MemoryOutbox {
  const messages: MailMessage[] = [];
  return {
    messages,
    async send(message) {
      messages.push(structuredClone(message));
    },
    clear() {
      messages.length = 0;
    },
  };
}
