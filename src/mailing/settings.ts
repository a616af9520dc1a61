/** Sign-up form settings and messages: the reference plugin's keys and defaults. */

export interface FormSettings {
  /** Audience (list) ids the form subscribes to. */
  lists: string[];
  double_optin: boolean;
  update_existing: boolean;
  replace_interests: boolean;
  /** Comma list of field names that may not be sent empty (`EMAIL` has rules of its own). */
  required_fields: string;
  /** Comma lists of tags added to and removed from the subscriber. */
  subscriber_tags: string;
  remove_subscriber_tags: string;
  /** Where the page should go after a successful sign-up (stored for clients; the route always answers JSON). */
  redirect: string;
  hide_after_success: boolean;
  /** The stylesheet the form is shown with; `''` for none. */
  css: string;
  email_typo_check: boolean;
}

export const DEFAULT_SETTINGS: Readonly<FormSettings> = Object.freeze({
  lists: [],
  double_optin: true,
  update_existing: false,
  replace_interests: true,
  required_fields: '',
  subscriber_tags: '',
  remove_subscriber_tags: '',
  redirect: '',
  hide_after_success: false,
  css: '',
  email_typo_check: false,
});

export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof FormSettings)[];

export const DEFAULT_MESSAGES = Object.freeze({
  subscribed: 'Thank you, your sign-up request was successful! Please check your email inbox to confirm.',
  updated: 'Thank you, your records have been updated!',
  unsubscribed: 'You were successfully unsubscribed.',
  not_subscribed: 'Given email address is not subscribed.',
  error: 'Oops. Something went wrong. Please try again later.',
  invalid_email: 'Please provide a valid email address.',
  already_subscribed: 'Given email address is already subscribed, thank you!',
  required_field_missing: 'Please fill in the required fields.',
  no_lists_selected: 'Please select at least one list.',
  spam: 'Your submission was marked as spam.',
});

export type MessageKey = keyof typeof DEFAULT_MESSAGES;
export type FormMessages = Record<MessageKey, string>;

export const MESSAGE_KEYS = Object.keys(DEFAULT_MESSAGES) as MessageKey[];

/** The markup of a new form: an email field and a submit button. */
export const DEFAULT_CONTENT = '<p>\n\t<label for="email">Email address: \n'
  + '\t\t<input type="email" id="email" name="EMAIL" placeholder="Your email address" autocomplete="email" required>\n'
  + '\t</label>\n</p>\n\n<p>\n\t<input type="submit" value="Sign up">\n</p>';

/**
 * The message for an error key: the part before the first `.` names it (`spam.honeypot` → `spam`), and keys
 * without a message of their own get the generic `error` text.
 */
export function messageFor(messages: FormMessages, key: string): string {
  const base = key.split('.')[0]!;
  return (MESSAGE_KEYS as string[]).includes(base) ? messages[base as MessageKey] : messages.error;
}

/** Splits a comma list, trimming each part and dropping empty ones. */
export function commaList(text: string): string[] {
  return text.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

/** List ids: what Mailchimp uses (ten hex digits) and any other short name a local list may have. */
export const LIST_ID_PATTERN = '^[A-Za-z0-9_.-]{1,64}$';
export const LIST_ID = new RegExp(LIST_ID_PATTERN);
