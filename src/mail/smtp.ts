/**
 * An SMTP transport for the `Mailer` port, over nodemailer. `createSmtpMailer('smtp://user:pass@host:587')`
 * (or `smtps://` for TLS from the start; nodemailer's URL query options such as `?pool=true` pass through).
 * A message the server refuses, or a server that does not answer in time, rejects `send`.
 */
import type { Mailer, MailMessage } from '../ports/mailer.js';

export interface SmtpMailerOptions {
  /** Milliseconds to connect, to get the greeting, and of silence before giving up (default 10 s, 10 s, 30 s). */
  connectionTimeout?: number;
  greetingTimeout?: number;
  socketTimeout?: number;
}

export interface SmtpMailer extends Mailer {
  /** Closes pooled connections; the mailer opens new ones if used again. */
  close(): void;
}

type Transport = { sendMail(message: Record<string, unknown>): Promise<unknown>; close(): void };

/** Checks the address now (a mistake should stop start-up, not the first submission) and connects on first use. */
export function createSmtpMailer(url: string, options: SmtpMailerOptions = {}): SmtpMailer {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Not an SMTP address: ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//…@'))}`);
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new Error(`An SMTP address starts with smtp:// or smtps://, not ${parsed.protocol}//`);
  }
  if (parsed.hostname === '') throw new Error('The SMTP address names no host.');
  let transport: Promise<Transport> | null = null;
  const open = () => {
    transport ??= import('nodemailer').then((nodemailer) => nodemailer.createTransport(url, {
      connectionTimeout: options.connectionTimeout ?? 10_000,
      greetingTimeout: options.greetingTimeout ?? 10_000,
      socketTimeout: options.socketTimeout ?? 30_000,
    } as never) as unknown as Transport);
    return transport;
  };
  return {
    async send(message: MailMessage) {
      const sender = await open();
      await sender.sendMail({
        from: message.from,
        to: message.to,
        ...(message.cc?.length ? { cc: message.cc } : {}),
        ...(message.bcc?.length ? { bcc: message.bcc } : {}),
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        subject: message.subject,
        text: message.text,
        ...(message.html !== undefined ? { html: message.html } : {}),
        ...(message.headers ? { headers: message.headers } : {}),
        ...(message.attachments?.length
          ? { attachments: message.attachments.map((file) => ({ filename: file.filename, contentType: file.contentType, content: Buffer.from(file.content) })) }
          : {}),
      });
    },
    close() {
      const current = transport;
      transport = null;
      void current?.then((sender) => sender.close(), () => undefined);
    },
  };
}
