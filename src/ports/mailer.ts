/**
 * The outbound mail port, for contact-form mail and sign-up confirmations. The default is an in-memory outbox
 * (`createMemoryOutbox`), readable in-process; production hosts pass a real transport (SMTP, an API).
 */

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface MailMessage {
  /** `Name <address>` or a bare address. */
  from: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  subject: string;
  /** The plain-text body; always present. */
  text: string;
  /** An HTML body, when the message is sent as HTML. */
  html?: string;
  /** Further headers, names as given. */
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
}

export interface Mailer {
  /** Resolves once the transport accepted the message; rejects when it did not. */
  send(message: MailMessage): Promise<void>;
}
