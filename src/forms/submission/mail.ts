/**
 * Turning a mail template into a message for the `Mailer` port: tags replaced in every part, sender, subject and
 * recipient kept to one line, additional headers to their first line (so posted text cannot add headers),
 * `Reply-To`/`Cc`/`Bcc` read as mailbox lists, uploads and stored files attached (25 MB at most), and the body
 * wrapped in an HTML document when `use_html` is on.
 */
import { autop } from '../../content/render/index.js';
import { stripAllTags } from '../../format/strip-tags.js';
import type { BlobStore } from '../../ports/blobs.js';
import { isValidBlobKey } from '../../ports/blobs.js';
import type { MailAttachment, MailMessage } from '../../ports/mailer.js';
import type { MailTemplate } from '../defaults.js';
import { replaceMailTags, replaceMailTagsInTurns, type MailTagContext } from '../mail-tags.js';
import { escapeHtml, stripWhitespaces } from '../text.js';
import { isEmail, mailboxList } from '../validators.js';
import type { AcceptedUpload } from './uploads.js';

const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
const HEADER_NAME = /^[A-Za-z0-9-]+$/;

function oneLine(text: string): string {
  return stripWhitespaces(text.replace(/[\r\n]/g, ''));
}

function text(template: MailTemplate, key: keyof MailTemplate): string {
  const value = template[key];
  return typeof value === 'string' ? value : '';
}

/**
 * The sender (`Name <address>` or a bare address) as one mailbox, the name quoted when it needs to be; null when
 * the address is not one.
 */
function senderOf(mailbox: string): string | null {
  const bracketed = /^(.*)<([^<>]+)>$/s.exec(mailbox);
  const address = (bracketed ? bracketed[2]! : mailbox).trim();
  if (!isEmail(address)) return null;
  const name = (bracketed ? bracketed[1]! : '').trim().replace(/^"(.*)"$/s, '$1').replace(/["\\]/g, '');
  if (name === '') return address;
  return /^[\w !#$%&'*+/=?^`{|}~.-]+$/.test(name) ? `${name} <${address}>` : `"${name}" <${address}>`;
}

export interface ComposeInput {
  template: MailTemplate;
  context: MailTagContext;
  locale: string;
  uploads: ReadonlyMap<string, readonly AcceptedUpload[]>;
  blobs: BlobStore;
}

/** The message, or null when it cannot be sent (no valid sender or recipient): a failed mail. */
export async function composeMail(input: ComposeInput): Promise<MailMessage | null> {
  const { template, context } = input;
  const useHtml = Boolean(template.use_html);
  const subject = oneLine(replaceMailTags(text(template, 'subject'), context));
  const sender = oneLine(replaceMailTags(text(template, 'sender'), context));
  const recipient = oneLine(replaceMailTags(text(template, 'recipient'), context));
  let body = await replaceMailTagsInTurns(text(template, 'body'), context, { html: useHtml, excludeBlank: Boolean(template.exclude_blank) });

  const from = senderOf(sender);
  const to = (mailboxList(recipient) ?? recipient.split(',').map((part) => part.trim())).filter((address) => isEmail(address));
  if (!from || to.length === 0) return null;

  const message: MailMessage = { from, to, subject, text: body };
  const headers: Record<string, string> = {};
  for (const line of text(template, 'additional_headers').split('\n')) {
    if (!line.includes(':')) continue;
    const header = replaceMailTags(line, context).replace(/\r\n/g, '\n').split('\n')[0]!;
    const colon = header.indexOf(':');
    const name = header.slice(0, colon).trim();
    const value = header.slice(colon + 1).trim().replace(/[\r\n]/g, '');
    if (!HEADER_NAME.test(name) || value === '') continue;
    const lower = name.toLowerCase();
    if (lower === 'reply-to') {
      const addresses = mailboxList(value);
      if (addresses && addresses.length > 0) message.replyTo = value;
    } else if (lower === 'cc' || lower === 'bcc') {
      const addresses = (mailboxList(value) ?? []).filter(isEmail);
      if (addresses.length > 0) message[lower] = [...(message[lower] ?? []), ...addresses];
    } else if (!['from', 'to', 'subject', 'content-type', 'mime-version', 'content-transfer-encoding'].includes(lower)) {
      headers[name] = value;
    }
  }
  if (Object.keys(headers).length > 0) message.headers = headers;

  if (useHtml) {
    body = escapeBracketedAddresses(body);
    const html = isHtmlDocument(body) ? body : htmlDocument(body, subject, input.locale);
    message.html = html;
    message.text = stripAllTags(withoutHead(html));
  }

  const attachments = await attachmentsOf(text(template, 'attachments'), input.uploads, input.blobs);
  if (attachments.length > 0) message.attachments = attachments;
  return message;
}

/*
 * The body holds a visitor's text: what follows reads it once each, where the expressions it replaces
 * (`/<(.*?)>/g`, `/<html[>\s].*<\/html>/is`, `/<head>[\s\S]*?<\/head>/i`) read to the end of a line or of the text
 * again from every `<`, which took minutes for a text of many.
 */

/** The first line break at or after `from` and before `to`, or -1 (`.` stops at these). */
function lineBreakWithin(text: string, from: number, to: number): number {
  for (let index = from; index < to; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 0x0a || unit === 0x0d || unit === 0x2028 || unit === 0x2029) return index;
  }
  return -1;
}

/** `<address>` written as text (`&lt;address&gt;`), as `body.replace(/<(.*?)>/g, …)` on email addresses would. */
function escapeBracketedAddresses(body: string): string {
  let escaped = '';
  let copied = 0;
  let close = -1;
  let open = body.indexOf('<');
  while (open !== -1) {
    if (close < open) close = body.indexOf('>', open + 1);
    if (close === -1) break;
    const lineBreak = lineBreakWithin(body, open + 1, close);
    // No `<` before that line break can reach a `>` either.
    if (lineBreak !== -1) {
      open = body.indexOf('<', lineBreak + 1);
      continue;
    }
    const inner = body.slice(open + 1, close);
    if (isEmail(inner)) {
      escaped += `${body.slice(copied, open)}&lt;${inner}&gt;`;
      copied = close + 1;
    }
    open = body.indexOf('<', close + 1);
  }
  return copied === 0 ? body : escaped + body.slice(copied);
}

/** Whether an `<html` tag is closed by `</html>` somewhere after it. */
function isHtmlDocument(body: string): boolean {
  const start = /<html[>\s]/i.exec(body);
  if (!start) return false;
  const end = /<\/html>/gi;
  end.lastIndex = start.index + 6;
  return end.test(body);
}

/** The text without its first `<head>…</head>`. */
function withoutHead(html: string): string {
  const start = /<head>/i.exec(html);
  if (!start) return html;
  const end = /<\/head>/gi;
  end.lastIndex = start.index + 6;
  const found = end.exec(html);
  return found ? html.slice(0, start.index) + html.slice(found.index + 7) : html;
}

function htmlDocument(body: string, subject: string, locale: string): string {
  const lang = locale ? ` dir="ltr" lang="${escapeHtml(locale.replace(/_/g, '-'))}"` : '';
  return `<!doctype html>\n<html xmlns="http://www.w3.org/1999/xhtml"${lang}>\n<head>\n<title>${escapeHtml(subject)}</title>\n</head>\n<body>\n`
    + `${autop(body)}</body>\n</html>`;
}

/** `[field]` lines attach that field's uploads; other lines name stored files. The total stops at 25 MB. */
async function attachmentsOf(
  template: string, uploads: ReadonlyMap<string, readonly AcceptedUpload[]>, blobs: BlobStore,
): Promise<MailAttachment[]> {
  const attachments: MailAttachment[] = [];
  let total = 0;
  const add = (attachment: MailAttachment) => {
    if (total + attachment.content.byteLength > MAX_ATTACHMENT_BYTES) return;
    total += attachment.content.byteLength;
    attachments.push(attachment);
  };
  for (const [field, files] of uploads) {
    if (!template.includes(`[${field}]`)) continue;
    for (const file of files) add({ filename: file.name, contentType: file.type, content: file.bytes });
  }
  for (const raw of template.split('\n').slice(0, 100)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('[') || !isValidBlobKey(line)) continue;
    const blob = await blobs.get(line).catch(() => null);
    if (blob) add({ filename: line.slice(line.lastIndexOf('/') + 1), contentType: blob.contentType, content: blob.bytes });
  }
  return attachments;
}
