/** The double opt-in message: what a pending subscriber receives, with the confirmation and unsubscribe links. */
import type { MailMessage } from '../../../ports/mailer.js';

export interface ConfirmationDetails {
  siteName: string;
  email: string;
  lists: string[];
  confirmUrl: string;
  unsubscribeUrl: string;
  /** When the confirmation link stops working. */
  expires: Date;
}

/** A host's own wording: subject and bodies for the details; sender and recipient are filled in. */
export type ConfirmationMailComposer = (details: ConfirmationDetails) => { subject: string; text: string; html?: string };

export const defaultConfirmationMail: ConfirmationMailComposer = (details) => ({
  subject: `Please confirm your subscription to ${details.siteName}`,
  text: [
    'Hello,',
    '',
    `Someone, hopefully you, asked to subscribe ${details.email} to ${details.siteName}.`,
    'Please confirm by opening this link:',
    '',
    details.confirmUrl,
    '',
    `The link works until ${details.expires.toISOString().slice(0, 16).replace('T', ' ')} UTC. If you did not ask for this,`,
    'ignore this message: you will not be subscribed.',
    '',
    `To stop receiving messages later: ${details.unsubscribeUrl}`,
  ].join('\n'),
});

/** The sender when none is configured: a no-reply address at the host of the site's links. */
export function defaultSender(siteName: string, linkUrl: string): string {
  let host = 'localhost';
  try {
    host = new URL(linkUrl).hostname || host;
  } catch {
    // keep localhost
  }
  const name = siteName.replace(/["\\\r\n]/g, '').trim();
  const address = `noreply@${host.replace(/^\[|\]$/g, '')}`;
  return name === '' ? address : `"${name}" <${address}>`;
}

export function confirmationMessage(details: ConfirmationDetails, compose: ConfirmationMailComposer, from: string): MailMessage {
  const { subject, text, html } = compose(details);
  const message: MailMessage = { from, to: [details.email], subject: subject.replace(/[\r\n]+/g, ' '), text };
  if (html !== undefined) message.html = html;
  return message;
}
