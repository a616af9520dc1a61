/**
 * What a new form starts from (the plugin's en_US default template) and the message keys with their default
 * texts, in the plugin's order.
 */

export const DEFAULT_FORM = `<label> Your name
    [text* your-name autocomplete:name] </label>

<label> Your email
    [email* your-email autocomplete:email] </label>

<label> Subject
    [text* your-subject] </label>

<label> Your message (optional)
    [textarea your-message] </label>

[submit "Submit"]`;

/** A mail template as stored: the default template's `mail` has no `active`, and integer flags. */
export interface MailTemplate {
  active?: boolean;
  subject: string;
  sender: string;
  recipient: string;
  body: string;
  additional_headers: string;
  attachments: string;
  use_html: boolean | number;
  exclude_blank: boolean | number;
}

/** The default sender address: the admin's when it is on the site's domain (or the site is local). */
export function defaultFromEmail(adminEmail: string, home: string): string {
  let host = '';
  try {
    host = new URL(home).hostname.toLowerCase();
  } catch {
    host = '';
  }
  if (host === 'localhost' || host === '127.0.0.1' || host === '') return adminEmail;
  if (host.startsWith('www.')) host = host.slice(4);
  const at = adminEmail.indexOf('@');
  if (at !== -1 && adminEmail.slice(at) === `@${host}`) return adminEmail;
  return `wordpress@${host}`;
}

export function defaultMail(fromEmail: string): MailTemplate {
  return {
    subject: '[_site_title] "[your-subject]"',
    sender: `[_site_title] <${fromEmail}>`,
    body: 'From: [your-name] [your-email]\nSubject: [your-subject]\n\nMessage Body:\n[your-message]\n\n-- \n'
      + 'This is a notification that a contact form was submitted on your website ([_site_title] [_site_url]).',
    recipient: '[_site_admin_email]',
    additional_headers: 'Reply-To: [your-email]',
    attachments: '',
    use_html: 0,
    exclude_blank: 0,
  };
}

export function defaultMail2(fromEmail: string): MailTemplate {
  return {
    active: false,
    subject: '[_site_title] "[your-subject]"',
    sender: `[_site_title] <${fromEmail}>`,
    body: 'Message Body:\n[your-message]\n\n-- \n'
      + 'This email is a receipt for your contact form submission on our website ([_site_title] [_site_url]) in which '
      + 'your email address was used. If that was not you, please ignore this message.',
    recipient: '[your-email]',
    additional_headers: 'Reply-To: [_site_admin_email]',
    attachments: '',
    use_html: 0,
    exclude_blank: 0,
  };
}

/** Message keys and their default texts, in the plugin's order (core, then each module's). */
export const DEFAULT_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  mail_sent_ok: 'Thank you for your message. It has been sent.',
  mail_sent_ng: 'There was an error trying to send your message. Please try again later.',
  validation_error: 'One or more fields have an error. Please check and try again.',
  spam: 'There was an error trying to send your message. Please try again later.',
  accept_terms: 'You must accept the terms and conditions before sending your message.',
  invalid_required: 'Please fill out this field.',
  invalid_too_long: 'This field has a too long input.',
  invalid_too_short: 'This field has a too short input.',
  upload_failed: 'There was an unknown error uploading the file.',
  upload_file_type_invalid: 'You are not allowed to upload files of this type.',
  upload_file_too_large: 'The uploaded file is too large.',
  upload_failed_php_error: 'There was an error uploading the file.',
  invalid_date: 'Please enter a date in YYYY-MM-DD format.',
  date_too_early: 'This field has a too early date.',
  date_too_late: 'This field has a too late date.',
  invalid_number: 'Please enter a number.',
  number_too_small: 'This field has a too small number.',
  number_too_large: 'This field has a too large number.',
  quiz_answer_not_correct: 'The answer to the quiz is incorrect.',
  captcha_not_match: 'Your entered code is incorrect.',
  invalid_email: 'Please enter an email address.',
  invalid_url: 'Please enter a URL.',
  invalid_tel: 'Please enter a telephone number.',
});

export const MESSAGE_KEYS: readonly string[] = Object.keys(DEFAULT_MESSAGES);

/** Fixed texts that are not per-form messages. */
export const TEXTS = {
  subscribersOnly: 'This contact form is available only for logged in users.',
  aborted: 'Sending mail has been aborted.',
  tooManyItems: 'Too many items are selected.',
  undefinedValue: 'Undefined value was submitted through this field.',
  pleaseChoose: '\u2014Please choose an option\u2014',
  consented: 'Consented',
  notConsented: 'Not consented',
} as const;

export const DEFAULT_LOCALE = 'en_US';
